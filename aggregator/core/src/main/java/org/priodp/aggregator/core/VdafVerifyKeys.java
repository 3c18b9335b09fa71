package org.priodp.aggregator.core;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.datastore.Datastore;
import org.priodp.aggregator.datastore.TaskTransaction;
import org.priodp.aggregator.datastore.VdafVerifyKey;
import org.priodp.vdaf.Prio3;

/**
 * A task's VDAF verification keys by verification_key_id as kept in the store (DAP-19 "Leader
 * Initialization", "Helper Initialization"), so that operators add and retire keys while the
 * aggregator runs. The keys of the task file ({@link TaskDefinition#vdafVerifyKey}) are stored the
 * first time this process uses the task, unless their id is already stored (a stored key, active
 * or retired, wins over the file). The Helper accepts exactly the active key an aggregation job
 * names; the Leader sends the newest active key the Helper has not refused within {@link
 * #HELPER_REFUSAL_BACKOFF} (the Helper's {@code unknown_verification_key_id} is recorded per key),
 * so a Leader that has a key the Helper does not have yet falls back to an older key and tries
 * the new one again later. Keys are read from the store at each job. Thread-safe.
 */
public final class VdafVerifyKeys {
  /** How long the Leader avoids a key after the Helper answered unknown_verification_key_id. */
  public static final Duration HELPER_REFUSAL_BACKOFF = Duration.ofMinutes(5);

  private final Datastore store;
  private final Clock clock;
  /** The task definitions (by identity) whose file keys this process has stored. */
  private final Set<TaskDefinition> seeded =
      java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());

  /** Creates the key set over a store. */
  public VdafVerifyKeys(Datastore store, Clock clock) {
    this.store = Objects.requireNonNull(store, "store");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Returns every stored key of the task, active and retired, after storing the file's keys. */
  public List<VdafVerifyKey> all(TaskDefinition task) {
    seed(task);
    return store.inTaskTransaction(task.taskId(), tx -> tx.vdafVerifyKeys().all());
  }

  /**
   * Returns the active key with this verification_key_id (the Helper's lookup), if the task has
   * one; a retired or unknown id is empty.
   */
  public Optional<byte[]> active(TaskDefinition task, int verificationKeyId) {
    return all(task).stream()
        .filter(k -> k.id() == verificationKeyId && k.state() == VdafVerifyKey.State.ACTIVE)
        .findFirst().map(k -> k.key().toByteArray());
  }

  /**
   * Returns the key the Leader sends next. DAP-19: the newest active key (ties: the higher id)
   * that the Helper has not refused within {@link #HELPER_REFUSAL_BACKOFF}; if the Helper refused
   * them all lately, the one it refused longest ago. DAP-18, whose Helper cannot refuse a key per
   * report: the oldest active key, so that adding a key never changes the key in use, retiring
   * the old one does. Empty if the task has no active key.
   */
  public Optional<VdafVerifyKey> choose(TaskDefinition task) {
    Instant now = clock.instant();
    List<VdafVerifyKey> active = all(task).stream()
        .filter(k -> k.state() == VdafVerifyKey.State.ACTIVE).toList();
    if (task.dapVersion().unknownVerificationKeyId().isEmpty()) {
      // DAP-18: a Helper without the key refuses the whole job and says nothing per report, so
      // the Leader keeps its oldest active key; a new key is used once the old one is retired
      return active.stream().min(Comparator.comparing(VdafVerifyKey::createdAt)
          .thenComparingInt(VdafVerifyKey::id));
    }
    Comparator<VdafVerifyKey> newest = Comparator.comparing(VdafVerifyKey::createdAt)
        .thenComparingInt(VdafVerifyKey::id).reversed();
    Optional<VdafVerifyKey> fresh = active.stream()
        .filter(k -> k.helperRejectedAt().map(t -> !t.plus(HELPER_REFUSAL_BACKOFF).isAfter(now))
            .orElse(true))
        .min(newest);
    if (fresh.isPresent()) {
      return fresh;
    }
    return active.stream().min(Comparator.comparing(k -> k.helperRejectedAt().orElseThrow()));
  }

  /**
   * Records, in the Leader's job transaction, whether the Helper knew the key with this id: a
   * refusal (unknown_verification_key_id) is noted with the time, an acceptance clears an earlier
   * note.
   */
  static void recordHelperAnswer(TaskTransaction tx, VdafVerifyKey key, boolean known,
      Instant now) {
    if (!known) {
      tx.vdafVerifyKeys().setHelperRejectedAt(key.id(), Optional.of(now));
    } else if (key.helperRejectedAt().isPresent()) {
      tx.vdafVerifyKeys().setHelperRejectedAt(key.id(), Optional.empty());
    }
  }

  /**
   * Adds an active key (the operator's {@code verify-keys add}); returns false if the id is
   * taken. The key must have Prio3's verify key size.
   */
  public boolean add(TaskDefinition task, int id, byte[] key) {
    if (key.length != Prio3.VERIFY_KEY_SIZE) {
      throw new IllegalArgumentException("vdaf_verify_key: " + key.length + " bytes, Prio3 needs "
          + Prio3.VERIFY_KEY_SIZE);
    }
    seed(task); // first, so that the file's keys are older than the one added
    VdafVerifyKey k = VdafVerifyKey.active(id, ByteString.copyOf(key), now());
    return store.inTaskTransaction(task.taskId(), tx -> tx.vdafVerifyKeys().insertIfAbsent(k));
  }

  /** Retires the key with this id (the operator's {@code verify-keys retire}); false if unknown. */
  public boolean retire(TaskDefinition task, int id) {
    seed(task);
    return store.inTaskTransaction(task.taskId(),
        tx -> tx.vdafVerifyKeys().setState(id, VdafVerifyKey.State.RETIRED));
  }

  /** Stores the task file's keys whose id is not stored yet, once per task definition. */
  private void seed(TaskDefinition task) {
    synchronized (seeded) {
      if (seeded.contains(task)) {
        return;
      }
    }
    Instant now = now();
    store.inTaskTransaction(task.taskId(), tx -> {
      for (int id : task.vdafVerifyKeyIds()) {
        tx.vdafVerifyKeys().insertIfAbsent(VdafVerifyKey.active(id,
            ByteString.copyOf(task.vdafVerifyKey(id).orElseThrow()), now));
      }
      return null;
    });
    synchronized (seeded) {
      seeded.add(task);
    }
  }

  private Instant now() {
    return clock.instant().truncatedTo(ChronoUnit.MILLIS);
  }
}
