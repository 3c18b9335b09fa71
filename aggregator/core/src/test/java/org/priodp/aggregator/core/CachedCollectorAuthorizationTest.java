package org.priodp.aggregator.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.priodp.aggregator.dap.HpkeConfig;
import org.priodp.aggregator.dap.HpkeConfigId;
import org.priodp.aggregator.hpke.HpkeAeadId;
import org.priodp.aggregator.hpke.HpkeKdfId;
import org.priodp.aggregator.hpke.HpkeKemId;
import org.priodp.aggregator.testing.MutableClock;

/**
 * A confirmation is remembered for the time to live by the injected clock; a refusal never is
 * (draft-ietf-ppm-dap-attribution-00 section 6.1).
 */
class CachedCollectorAuthorizationTest {
  private static final URI IDENTITY = URI.create("https://collector.example/");
  private final MutableClock clock = new MutableClock(Instant.parse("2026-11-26T12:00:00Z"));

  /** A source that answers the queued verdicts in order and counts the questions. */
  private static final class Scripted implements CollectorAuthorization {
    final Deque<Verdict> answers = new ArrayDeque<>();
    final AtomicInteger asked = new AtomicInteger();

    Scripted(Verdict... v) {
      answers.addAll(Arrays.asList(v));
    }

    @Override
    public Verdict check(URI identity, HpkeConfig config) {
      asked.incrementAndGet();
      return answers.isEmpty() ? new Unconfirmed("script exhausted") : answers.poll();
    }
  }

  private static HpkeConfig config(int id, int keyByte) {
    byte[] pk = new byte[32];
    Arrays.fill(pk, (byte) keyByte);
    return new HpkeConfig(new HpkeConfigId(id), HpkeKemId.DHKEM_X25519_HKDF_SHA256,
        HpkeKdfId.HKDF_SHA256, HpkeAeadId.AES_128_GCM, pk);
  }

  @Test
  void aConfirmationIsNotAskedAgainUntilItsTimeToLiveHasPassed() {
    Scripted source = new Scripted(new CollectorAuthorization.Confirmed(),
        new CollectorAuthorization.Denied("revoked"));
    var cached = new CachedCollectorAuthorization(source, clock, Duration.ofHours(1));
    assertInstanceOf(CollectorAuthorization.Confirmed.class, cached.check(IDENTITY, config(1, 7)));
    clock.advance(Duration.ofMinutes(59));
    assertInstanceOf(CollectorAuthorization.Confirmed.class, cached.check(IDENTITY, config(1, 7)));
    assertEquals(1, source.asked.get(), "within the hour: remembered");
    clock.advance(Duration.ofMinutes(1));
    assertEquals(new CollectorAuthorization.Denied("revoked"), cached.check(IDENTITY, config(1, 7)),
        "after the hour the identity is asked again, and its new answer counts");
    assertEquals(2, source.asked.get());
  }

  @Test
  void aRefusalIsNeverRemembered() {
    Scripted source = new Scripted(new CollectorAuthorization.Unconfirmed("down"),
        new CollectorAuthorization.Denied("not listed"), new CollectorAuthorization.Confirmed());
    var cached = new CachedCollectorAuthorization(source, clock);
    assertInstanceOf(CollectorAuthorization.Unconfirmed.class, cached.check(IDENTITY, config(1, 7)));
    assertInstanceOf(CollectorAuthorization.Denied.class, cached.check(IDENTITY, config(1, 7)));
    assertInstanceOf(CollectorAuthorization.Confirmed.class, cached.check(IDENTITY, config(1, 7)),
        "the next release asks again, with no time passing");
    assertEquals(3, source.asked.get());
  }

  @Test
  void aConfirmationCoversOnlyTheSameIdentityAndTheSameConfigurationBytes() {
    Scripted source = new Scripted(new CollectorAuthorization.Confirmed(),
        new CollectorAuthorization.Denied("other id"), new CollectorAuthorization.Denied("other key"),
        new CollectorAuthorization.Denied("other identity"));
    var cached = new CachedCollectorAuthorization(source, clock);
    cached.check(IDENTITY, config(1, 7));
    assertInstanceOf(CollectorAuthorization.Denied.class, cached.check(IDENTITY, config(2, 7)));
    assertInstanceOf(CollectorAuthorization.Denied.class, cached.check(IDENTITY, config(1, 8)));
    assertInstanceOf(CollectorAuthorization.Denied.class,
        cached.check(URI.create("https://other.example/"), config(1, 7)));
    assertEquals(4, source.asked.get());
    assertInstanceOf(CollectorAuthorization.Confirmed.class, cached.check(IDENTITY, config(1, 7)));
    assertEquals(4, source.asked.get(), "the first confirmation still stands");
  }

  @Test
  void aRefusalDropsAnEarlierConfirmation() {
    Scripted source = new Scripted(new CollectorAuthorization.Confirmed(),
        new CollectorAuthorization.Denied("revoked"), new CollectorAuthorization.Denied("revoked"));
    var cached = new CachedCollectorAuthorization(source, clock, Duration.ofHours(1));
    cached.check(IDENTITY, config(1, 7));
    clock.advance(Duration.ofHours(2));
    cached.check(IDENTITY, config(1, 7));
    assertInstanceOf(CollectorAuthorization.Denied.class, cached.check(IDENTITY, config(1, 7)));
    assertEquals(3, source.asked.get());
  }

  @Test
  void theTimeToLiveMustBePositive() {
    Scripted source = new Scripted();
    assertThrows(IllegalArgumentException.class,
        () -> new CachedCollectorAuthorization(source, clock, Duration.ZERO));
    assertThrows(IllegalArgumentException.class,
        () -> new CachedCollectorAuthorization(source, clock, Duration.ofSeconds(-1)));
  }
}
