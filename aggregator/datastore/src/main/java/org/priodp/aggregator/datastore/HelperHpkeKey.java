package org.priodp.aggregator.datastore;

import java.time.Instant;
import java.util.Objects;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.HpkeConfig;

/**
 * One of this aggregator's HPKE key pairs (DAP-18 "HPKE Configuration Request"): the configuration
 * it advertises while {@link State#ACTIVE}, the private key, and when it was created. A
 * {@link State#RETIRED} key is no longer advertised but still opens input shares sealed to it.
 */
public record HelperHpkeKey(HpkeConfig config, ByteString privateKey, State state,
    Instant createdAt) {
  /** Whether a key is advertised. */
  public enum State {
    /** Advertised in the HpkeConfigList and used to decrypt. */
    ACTIVE,
    /** Not advertised; still decrypts. */
    RETIRED;

    /** Returns the lower-case name stored in the database. */
    public String dbName() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** Returns the state with this stored name. */
    public static State ofDbName(String s) {
      return valueOf(s.toUpperCase(java.util.Locale.ROOT));
    }
  }

  /** Validates the fields. */
  public HelperHpkeKey {
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(privateKey, "privateKey");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(createdAt, "createdAt");
  }

  @Override
  public String toString() {
    return "HelperHpkeKey[" + config + ", " + state + "]"; // never the private key
  }
}
