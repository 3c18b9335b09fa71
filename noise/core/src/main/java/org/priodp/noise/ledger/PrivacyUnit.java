package org.priodp.noise.ledger;

/**
 * Whom a task's privacy guarantee protects: one report, or one client under a declared
 * contribution bound (issue 25, item 1; the ledger's model in docs/PRIVACY.md).
 *
 * <p>The set is closed. {@link Report} is today's meaning and the default.
 */
public sealed interface PrivacyUnit permits PrivacyUnit.Report, PrivacyUnit.ClientBound {

  /**
   * Returns the most reports one privacy unit can have in a batch whose report times lie in
   * {@code batch}: the group size for group privacy.
   *
   * @throws ArithmeticException if the count overflows a long
   */
  long groupSize(Span batch);

  /** Returns the unit for people, e.g. "report" or "client (1 report per 86400 s)". */
  String describe();

  /** One report: each release protects each report, the guarantee DAP's DP extensions give. */
  record Report() implements PrivacyUnit {
    /** Returns 1: a report is in at most one batch of a release. */
    @Override
    public long groupSize(Span batch) {
      return 1;
    }

    @Override
    public String describe() {
      return "report";
    }
  }

  /**
   * One client that uploads at most {@code maxReports} reports per period of
   * {@code periodSeconds}, periods aligned to the Unix epoch (the k-th period is
   * [k P, (k + 1) P), like DAP's time_precision).
   *
   * <p>Aligned periods are the weaker promise: a client that uploads at most K reports in every
   * sliding window of P seconds also uploads at most K in every aligned period, so the group
   * sizes computed here are conservative for the sliding-window reading too. The bound is the
   * clients' promise; prio-dp states it and computes with it but cannot check it (reports are
   * unlinkable by design).
   */
  record ClientBound(long maxReports, long periodSeconds) implements PrivacyUnit {
    /**
     * Validates K >= 1 and P >= 1.
     *
     * @throws IllegalArgumentException otherwise
     */
    public ClientBound {
      if (maxReports < 1) {
        throw new IllegalArgumentException("max_reports must be >= 1, got " + maxReports);
      }
      if (periodSeconds < 1) {
        throw new IllegalArgumentException("period must be >= 1 second, got " + periodSeconds);
      }
    }

    /**
     * Returns K times the number of aligned periods that [start, end) intersects:
     * K (floor((end - 1) / P) - floor(start / P) + 1).
     */
    @Override
    public long groupSize(Span batch) {
      long first = Math.floorDiv(batch.start(), periodSeconds);
      long last = Math.floorDiv(batch.end() - 1, periodSeconds);
      return Math.multiplyExact(maxReports, Math.addExact(Math.subtractExact(last, first), 1));
    }

    @Override
    public String describe() {
      return "client (" + maxReports + (maxReports == 1 ? " report" : " reports") + " per " + periodSeconds + " s)";
    }
  }
}
