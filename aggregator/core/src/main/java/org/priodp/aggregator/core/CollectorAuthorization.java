package org.priodp.aggregator.core;

import java.net.URI;
import java.util.Objects;
import org.priodp.aggregator.dap.HpkeConfig;

/**
 * Confirms that a task's collector identity authorizes the Collector HPKE configuration the
 * aggregators encrypt aggregate shares to (draft-ietf-ppm-dap-attribution-00 section 6.1: "the
 * Leader and Helper MUST have a process for validating the HPKE configuration they use to encrypt
 * aggregate shares for the Collector"). The port of that process: the core asks, an adapter
 * (the server's HTTPS client of {@code {identity}/hpke_config}, the draft's URL option) answers
 * with a {@link Verdict}; the core knows no HTTP. Implementations are thread-safe.
 */
public interface CollectorAuthorization {

  /**
   * Returns whether {@code identity} authorizes {@code collectorConfig}: {@link Confirmed} only on
   * a positive, authenticated answer; {@link Denied} when the identity answered and does not
   * authorize it (or can never do so); {@link Unconfirmed} when no answer could be had now.
   */
  Verdict check(URI identity, HpkeConfig collectorConfig);

  /** What a {@link #check} found. */
  sealed interface Verdict permits Confirmed, Denied, Unconfirmed {
  }

  /** The identity authorizes the configuration. */
  record Confirmed() implements Verdict {
  }

  /**
   * The identity answered and does not authorize the configuration (e.g. its list lacks the key);
   * {@code reason} is one line for people.
   */
  record Denied(String reason) implements Verdict {
    /** Rejects a null or blank reason. */
    public Denied {
      requireLine(reason);
    }
  }

  /**
   * No answer could be had (unreachable, untrusted certificate, an error status, a wrong media
   * type, an undecodable body); {@code reason} is one line for people. Worth asking again later.
   */
  record Unconfirmed(String reason) implements Verdict {
    /** Rejects a null or blank reason. */
    public Unconfirmed {
      requireLine(reason);
    }
  }

  private static void requireLine(String reason) {
    if (Objects.requireNonNull(reason, "reason").isBlank()) {
      throw new IllegalArgumentException("a verdict needs a reason");
    }
  }
}
