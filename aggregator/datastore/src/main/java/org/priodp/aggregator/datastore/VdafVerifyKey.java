package org.priodp.aggregator.datastore;

import java.time.Instant;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import org.priodp.aggregator.dap.ByteString;

/**
 * One VDAF verification key of a task under its {@code verification_key_id} (DAP-19 "Leader
 * Initialization", "Helper Initialization"): the Leader names the key of each aggregation job by
 * this id and the Helper uses exactly the key it names. {@link #helperRejectedAt} is the Leader's
 * note of when the Helper last answered {@code unknown_verification_key_id} for it. {@link
 * #toString} never shows the key.
 *
 * @param id the verification_key_id, a uint8
 * @param key the key bytes
 * @param state active (used) or retired (neither sent by the Leader nor accepted by the Helper)
 * @param createdAt when the key was added to the store; the Leader prefers the newest
 * @param helperRejectedAt when the Helper last did not know the key (the Leader's bookkeeping)
 */
public record VdafVerifyKey(int id, ByteString key, State state, Instant createdAt,
    Optional<Instant> helperRejectedAt) {

  /** Whether a key is in use. */
  public enum State {
    /** The Leader may send it; the Helper accepts it. */
    ACTIVE,
    /** Kept for the record; the Leader does not send it and the Helper refuses it. */
    RETIRED;

    /** Returns the lower-case name stored in the database. */
    public String dbName() {
      return name().toLowerCase(Locale.ROOT);
    }

    /** Returns the state with this stored name. */
    public static State ofDbName(String s) {
      return valueOf(s.toUpperCase(Locale.ROOT));
    }
  }

  /** Validates the fields: a uint8 id, non-null parts. */
  public VdafVerifyKey {
    if (id < 0 || id > 0xff) {
      throw new IllegalArgumentException("verification_key_id: " + id + " is not a uint8");
    }
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(helperRejectedAt, "helperRejectedAt");
  }

  /** Returns a new active key, never rejected. */
  public static VdafVerifyKey active(int id, ByteString key, Instant createdAt) {
    return new VdafVerifyKey(id, key, State.ACTIVE, createdAt, Optional.empty());
  }

  @Override
  public String toString() {
    return "VdafVerifyKey[id=" + id + ", " + state.dbName() + ", created " + createdAt
        + helperRejectedAt.map(t -> ", Helper did not know it at " + t).orElse("") + "]";
  }
}
