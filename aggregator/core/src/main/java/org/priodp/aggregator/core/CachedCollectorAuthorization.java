package org.priodp.aggregator.core;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.HpkeConfig;

/**
 * Remembers each confirmation of a {@link CollectorAuthorization} for a bounded time
 * (draft-ietf-ppm-dap-attribution-00 section 6.1), so that a release does not ask the collector
 * identity again within {@link #DEFAULT_TTL} of the last confirmation of the same identity and
 * the same configuration (byte for byte). A {@link CollectorAuthorization.Denied} or {@link
 * CollectorAuthorization.Unconfirmed} verdict is never remembered: the next release asks again,
 * so a repaired identity is taken up at once and a revoked key is refused within the time to
 * live. Time comes from the injected clock. Thread-safe.
 */
public final class CachedCollectorAuthorization implements CollectorAuthorization {
  /** How long a confirmation is trusted without asking again: one hour. */
  public static final Duration DEFAULT_TTL = Duration.ofHours(1);

  private record Key(URI identity, ByteString config) {
  }

  private final CollectorAuthorization source;
  private final Clock clock;
  private final Duration ttl;
  private final Map<Key, Instant> confirmedUntil = new ConcurrentHashMap<>();

  /** Caches the confirmations of {@code source} for {@code ttl} (positive) by {@code clock}. */
  public CachedCollectorAuthorization(CollectorAuthorization source, Clock clock, Duration ttl) {
    this.source = Objects.requireNonNull(source, "source");
    this.clock = Objects.requireNonNull(clock, "clock");
    if (Objects.requireNonNull(ttl, "ttl").isNegative() || ttl.isZero()) {
      throw new IllegalArgumentException("the time to live must be positive, got " + ttl);
    }
    this.ttl = ttl;
  }

  /** Caches the confirmations of {@code source} for {@link #DEFAULT_TTL} by {@code clock}. */
  public CachedCollectorAuthorization(CollectorAuthorization source, Clock clock) {
    this(source, clock, DEFAULT_TTL);
  }

  /**
   * Returns {@link CollectorAuthorization.Confirmed} if the same identity confirmed the same
   * configuration less than the time to live ago, else asks the source (and remembers a
   * confirmation).
   */
  @Override
  public Verdict check(URI identity, HpkeConfig collectorConfig) {
    Key key = new Key(Objects.requireNonNull(identity, "identity"),
        ByteString.copyOf(Objects.requireNonNull(collectorConfig, "collectorConfig").encode()));
    Instant now = clock.instant();
    Instant until = confirmedUntil.get(key);
    if (until != null && now.isBefore(until)) {
      return new Confirmed();
    }
    Verdict v = source.check(identity, collectorConfig);
    if (v instanceof Confirmed) {
      confirmedUntil.values().removeIf(u -> !now.isBefore(u)); // expired entries go
      confirmedUntil.put(key, now.plus(ttl));
    } else {
      confirmedUntil.remove(key);
    }
    return v;
  }
}
