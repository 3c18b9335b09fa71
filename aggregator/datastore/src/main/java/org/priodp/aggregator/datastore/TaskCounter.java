package org.priodp.aggregator.datastore;

import java.util.Objects;

/**
 * One persisted pipeline counter of a task (issue 24 "See the pipeline"; DAP-18 "Report
 * Errors" names the reasons): its name (e.g. {@code upload_rejected}), its reason ({@code ""}
 * when it has none, else e.g. a report error's spec name) and its value, never negative.
 */
public record TaskCounter(String name, String reason, long value) {
  /** The longest name or reason the table holds. */
  public static final int MAX_LENGTH = 64;

  /** Validates the name (non-empty), the reason and the value. */
  public TaskCounter {
    name = CounterRepository.checkKey(name, "name", false);
    reason = CounterRepository.checkKey(reason, "reason", true);
    if (value < 0) {
      throw new IllegalArgumentException("a counter is never negative: " + value);
    }
  }

  /** Returns the (name, reason) as one label, {@code name} or {@code name/reason}. */
  public String label() {
    return reason.isEmpty() ? name : name + "/" + reason;
  }

  /** Returns whether this counter has the name and reason. */
  public boolean is(String n, String r) {
    return name.equals(n) && reason.equals(Objects.requireNonNull(r, "reason"));
  }
}
