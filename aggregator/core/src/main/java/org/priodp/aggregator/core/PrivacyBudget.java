package org.priodp.aggregator.core;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.priodp.aggregator.dap.BatchSelector;
import org.priodp.aggregator.dap.Interval;
import org.priodp.aggregator.datastore.BatchIdentifier;
import org.priodp.aggregator.datastore.Datastore;
import org.priodp.aggregator.datastore.LedgerRecord;
import org.priodp.aggregator.datastore.LedgerRepository.RecordedSettings;
import org.priodp.aggregator.datastore.ReportTimes;
import org.priodp.aggregator.datastore.TaskTransaction;
import org.priodp.noise.NoiseSampler;
import org.priodp.noise.Rational;
import org.priodp.noise.ledger.Decision;
import org.priodp.noise.ledger.LedgerEntry;
import org.priodp.noise.ledger.PrivacyLedger;
import org.priodp.noise.ledger.ReleaseGuarantee;
import org.priodp.noise.ledger.Span;
import org.priodp.vdaf.dp.Prio3DpMechanism;

/**
 * Charges a task's releases to its privacy ledger and refuses those its budget cannot pay for
 * (issue 25, items 1, 2 and 4; docs/PRIVACY.md "Privacy over time: the ledger"). Both roles call
 * {@link #charge} inside the task transaction that draws a batch's noise, so the decision, the
 * ledger row and the noised share commit together, across processes on one database and after
 * a crash. Stateless.
 */
public final class PrivacyBudget {
  private PrivacyBudget() {
  }

  /** Returns the task's ledger as read in {@code tx}, under the task's cap (if any). */
  public static PrivacyLedger ledger(TaskTransaction tx, TaskDefinition task) {
    List<LedgerEntry> entries = tx.ledger().entries().stream().map(LedgerRecord::entry).toList();
    return new PrivacyLedger(entries, task.privacy().cap());
  }

  /**
   * Returns what one release of the task gives one report: the strategy's epsilon or rho and the
   * sampler's total variation over the share's coordinates; empty for a task without noise.
   */
  public static Optional<ReleaseGuarantee> perReport(TaskDefinition task) {
    if (!task.addsNoise() || task.dpStrategy().budgetFromReports()) {
      return Optional.empty(); // a report-budget task's releases differ: perReport(task, mechanism)
    }
    return perReport(task, task.mechanism());
  }

  /**
   * Returns what one release noised by {@code mechanism} gives one report (for a report-budget
   * task, the mechanism of that release's epsilon, {@link TaskDefinition#mechanismAt}); empty
   * without noise.
   */
  static Optional<ReleaseGuarantee> perReport(TaskDefinition task, Prio3DpMechanism mechanism) {
    if (!mechanism.addsNoise()) {
      return Optional.empty();
    }
    NoiseSampler sampler = mechanism.sampler().orElseThrow();
    Rational tv = sampler.totalVariationPerDraw().multiply(Rational.of(task.variant().outputLength()));
    return Optional.of(new ReleaseGuarantee(mechanism.strategy().budget().orElseThrow(),
        tv.compareTo(Rational.ONE) > 0 ? Rational.ONE : roundedUp(tv)));
  }

  /** The grid the ledger keeps total variations on: multiples of 2^-128. */
  static final int TOTAL_VARIATION_BITS = 128;

  /**
   * Returns {@code tv} rounded up to a multiple of 2^-{@value #TOTAL_VARIATION_BITS}: still an
   * upper bound of the distance (larger by less than 2^-128), and short enough to store and sum
   * (a fixed-work Gaussian's exact delta has hundreds of digits).
   */
  static Rational roundedUp(Rational tv) {
    java.math.BigInteger[] qr = tv.numerator().shiftLeft(TOTAL_VARIATION_BITS)
        .divideAndRemainder(tv.denominator());
    java.math.BigInteger units = qr[1].signum() == 0 ? qr[0] : qr[0].add(java.math.BigInteger.ONE);
    return Rational.of(units, java.math.BigInteger.ONE.shiftLeft(TOTAL_VARIATION_BITS));
  }

  /**
   * Inside the task transaction that is about to draw the batch's noise with {@code mechanism}:
   * builds the ledger entry of the release, refuses with {@link ProblemType#PRIVACY_BUDGET_EXHAUSTED} if the task's cap
   * cannot pay for it, and otherwise inserts it. Does nothing for a task without noise.
   *
   * @throws Refusal if the budget is exhausted; nothing was written
   */
  static void charge(TaskTransaction tx, TaskDefinition task, Prio3DpMechanism mechanism,
      BatchSelector selector, BatchIdentifier batch, Instant now) {
    Optional<ReleaseGuarantee> perReport = perReport(task, mechanism);
    if (perReport.isEmpty()) {
      return;
    }
    Span span = span(tx, task, selector, batch, now);
    LedgerEntry entry = LedgerEntry.of(batchText(selector, task), span, task.privacy().unit(),
        perReport.get(), now.getEpochSecond());
    if (ledger(tx, task).admit(entry) instanceof Decision.Refused r) {
      throw Refusal.of(ProblemType.PRIVACY_BUDGET_EXHAUSTED, task.taskId(),
          r.describe(task.privacy().unit()));
    }
    String sampler = mechanism.describeNoise();
    tx.ledger().insert(new LedgerRecord(batch, entry,
        sampler.length() > LedgerRecord.MAX_SAMPLER ? sampler.substring(0, LedgerRecord.MAX_SAMPLER) : sampler,
        task.dpSettingsText()));
  }

  /**
   * Returns the refusal a release of a time-interval batch would get now, if the ledger already
   * cannot pay for it: the Leader's fast answer at collection job creation. Not authoritative
   * (the release transaction decides; other releases may come first).
   */
  static Optional<Refusal> precheck(TaskTransaction tx, TaskDefinition task, Interval batchInterval,
      Instant now) {
    Optional<ReleaseGuarantee> perReport = perReport(task);
    if (perReport.isEmpty() || task.privacy().cap().isEmpty()) {
      return Optional.empty();
    }
    BatchSelector selector = new BatchSelector.TimeInterval(batchInterval);
    LedgerEntry entry = LedgerEntry.of(batchText(selector, task), span(tx, task, selector, null, now),
        task.privacy().unit(), perReport.get(), now.getEpochSecond());
    return ledger(tx, task).admit(entry) instanceof Decision.Refused r
        ? Optional.of(Refusal.of(ProblemType.PRIVACY_BUDGET_EXHAUSTED, task.taskId(),
            r.describe(task.privacy().unit())))
        : Optional.empty();
  }

  /**
   * Returns the span of a batch's report times in seconds: a time interval's own interval; for a
   * leader-selected batch [earliest, latest + time_precision) of its bucket's report times, or,
   * for a bucket written before the times were kept, [0, now + time_precision) (conservative).
   */
  static Span span(TaskTransaction tx, TaskDefinition task, BatchSelector selector,
      BatchIdentifier batch, Instant now) {
    long precision = task.configuration().timePrecision();
    if (selector instanceof BatchSelector.TimeInterval t) {
      Interval i = t.batchInterval();
      return new Span(Math.multiplyExact(i.start().value(), precision),
          Math.multiplyExact(i.end().value(), precision));
    }
    byte[] after = Arrays.copyOf(batch.bytes(), batch.bytes().length + 1);
    Optional<ReportTimes> times = tx.batchBuckets().reportTimes(batch, BatchIdentifier.of(after));
    if (times.isEmpty()) {
      return new Span(0, Math.addExact(now.getEpochSecond(), precision));
    }
    return Span.ofReportTimes(Math.multiplyExact(times.get().earliest(), precision),
        Math.multiplyExact(times.get().latest(), precision), precision);
  }

  private static String batchText(BatchSelector selector, TaskDefinition task) {
    if (selector instanceof BatchSelector.TimeInterval t) {
      long p = task.configuration().timePrecision();
      return Instant.ofEpochSecond(t.batchInterval().start().value() * p) + "/"
          + t.batchInterval().duration().value() * p;
    }
    return "batch " + (selector instanceof BatchSelector.CollectorSelected c ? c.batchId()
        : ((BatchSelector.LeaderSelected) selector).batchId()).toBase64Url();
  }

  /**
   * Refuses a task whose DP settings differ from those recorded with its releases (issue 25,
   * item 4): one line naming the first changed field.
   *
   * @throws IllegalStateException "task X: dp_strategy.epsilon changed from 1 to 2 after 3
   *     releases; DP settings are fixed once a task has released: use a new task id"
   */
  public static void checkSettingsUnchanged(Datastore store, TaskDefinition task) {
    List<RecordedSettings> recorded = store.inTaskTransaction(task.taskId(), tx -> tx.ledger().settings());
    String current = task.dpSettingsText();
    long releases = recorded.stream().mapToLong(RecordedSettings::releases).sum();
    for (RecordedSettings r : recorded) {
      Optional<String> change = PrivacySettings.firstChange(r.settings(), current);
      if (change.isPresent()) {
        throw new IllegalStateException("task " + task.taskId().toBase64Url() + ": " + change.get()
            + " after " + releases + (releases == 1 ? " release" : " releases")
            + "; DP settings are fixed once a task has released: use a new task id");
      }
    }
  }
}
