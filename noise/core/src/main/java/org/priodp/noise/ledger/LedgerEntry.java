package org.priodp.noise.ledger;

import java.util.Objects;

/**
 * One release as the privacy ledger records it (issue 25, item 1): the batch it released, the
 * span of its reports' times, the group size of the task's privacy unit over that span, and the
 * guarantee per report and per privacy unit.
 *
 * @param batch the batch for people (the interval or the batch ID), not used in arithmetic
 * @param span the span of the batch's report times
 * @param groupSize the most reports one privacy unit can have in the batch
 * @param perReport what the release gives one report
 * @param perUnit what it gives one privacy unit: {@code perReport.forGroup(groupSize)}
 * @param drawnAt when the noise was drawn, seconds since the epoch
 */
public record LedgerEntry(
    String batch, Span span, long groupSize, ReleaseGuarantee perReport, ReleaseGuarantee perUnit, long drawnAt) {

  /**
   * Validates that perUnit is perReport for a group of groupSize.
   *
   * @throws IllegalArgumentException otherwise
   */
  public LedgerEntry {
    Objects.requireNonNull(batch, "batch");
    Objects.requireNonNull(span, "span");
    Objects.requireNonNull(perReport, "perReport");
    Objects.requireNonNull(perUnit, "perUnit");
    if (!perUnit.equals(perReport.forGroup(groupSize))) {
      throw new IllegalArgumentException(
          "per-unit guarantee " + perUnit + " is not the per-report one for a group of " + groupSize);
    }
  }

  /** Returns the entry for a release of {@code batch} under {@code unit}: computes the group size. */
  public static LedgerEntry of(String batch, Span span, PrivacyUnit unit, ReleaseGuarantee perReport, long drawnAt) {
    long k = unit.groupSize(span);
    return new LedgerEntry(batch, span, k, perReport, perReport.forGroup(k), drawnAt);
  }
}
