package org.priodp.aggregator.datastore;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The task's persisted pipeline counters (issue 24 "See the pipeline"): an event is counted by
 * the task transaction that decides it, so the counts are exact across replicas and survive a
 * crash (DESIGN.md non-negotiable 3). Callers add each (name, reason) at most once per
 * transaction, with the transaction's total, so a busy task costs one row update per counter and
 * transaction, never one per report.
 */
public interface CounterRepository {
  /** Adds {@code delta} (zero: nothing is written) to the counter (name, reason). */
  void add(String name, String reason, long delta);

  /** Adds each reason's delta to the counters of {@code name} (one upsert per reason). */
  default void addAll(String name, Map<String, Long> deltas) {
    deltas.forEach((reason, delta) -> add(name, reason, delta));
  }

  /** Returns the task's counters ordered by name and reason. */
  List<TaskCounter> all();

  /**
   * Returns the key unchanged if it fits the table (non-empty unless {@code mayBeEmpty}, at
   * most {@link TaskCounter#MAX_LENGTH} characters of printable ASCII); else throws
   * IllegalArgumentException.
   */
  static String checkKey(String key, String what, boolean mayBeEmpty) {
    Objects.requireNonNull(key, what);
    if ((!mayBeEmpty && key.isEmpty()) || key.length() > TaskCounter.MAX_LENGTH
        || !key.chars().allMatch(ch -> ch > 0x20 && ch < 0x7f)) {
      throw new IllegalArgumentException("counter " + what + " must be 1 to "
          + TaskCounter.MAX_LENGTH + " printable ASCII characters: '" + key + "'");
    }
    return key;
  }
}
