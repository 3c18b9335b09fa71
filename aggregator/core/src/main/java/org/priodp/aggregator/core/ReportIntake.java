package org.priodp.aggregator.core;

import java.math.BigInteger;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.priodp.aggregator.dap.DapDecodeException;
import org.priodp.aggregator.dap.InputShareAad;
import org.priodp.aggregator.dap.InputShareEncryption;
import org.priodp.aggregator.dap.Interval;
import org.priodp.aggregator.dap.PlaintextInputShare;
import org.priodp.aggregator.dap.ReportError;
import org.priodp.aggregator.dap.ReportExtension;
import org.priodp.aggregator.dap.ReportId;
import org.priodp.aggregator.dap.ReportShare;
import org.priodp.aggregator.dap.Role;
import org.priodp.aggregator.datastore.HelperHpkeKey;
import org.priodp.aggregator.hpke.HpkeException;
import org.priodp.aggregator.task.MicroEpsilon;
import org.priodp.vdaf.Prio3;

/**
 * Prepares a report share for VDAF verification the same way in both roles (DAP-18 "Input Share
 * Decryption", "Input Share Validation", as "Leader Initialization" and "Helper Initialization"
 * both require before {@code ping_pong_leader_init} or {@code ping_pong_helper_init}): opens this
 * aggregator's input share, validates the report, decodes the shares and runs Prio3's {@code
 * verify_init} as the task's aggregator (the Leader is 0, the Helper 1). It answers a value, never
 * an exception: the prepared report, or the {@link ReportError} that rejects it.
 *
 * <p>In order: an input share whose config id names none of this aggregator's HPKE keys (active
 * or retired) is {@code hpke_decrypt_error} in DAP-18 and {@code hpke_unknown_config_id} in
 * DAP-19, one that does not open {@code hpke_decrypt_error}; a plaintext,
 * public share or input share that does not decode is {@code invalid_message}; a time beyond now
 * plus the clock skew is {@code report_too_early}; a time before or after the task_interval is
 * {@code task_not_started} or {@code task_expired} in DAP-18, {@code report_dropped} in DAP-19
 * (the task's {@link org.priodp.aggregator.dap.DapVersion} picks); any report extension (this aggregator
 * recognizes none), a type in both lists or a list out of order is {@code invalid_message}; a
 * failed {@code verify_init} is {@code vdaf_verify_error}. The checks that need the store
 * (replays, collected batches, the retention cutoff) belong to commitment, not here. Thread-safe.
 */
final class ReportIntake {
  private final HelperHpkeKeys keys;
  private final Clock clock;
  private final Duration clockSkew;

  /** Creates the intake over this aggregator's key ring, tolerating {@code clockSkew}. */
  ReportIntake(HelperHpkeKeys keys, Clock clock, Duration clockSkew) {
    this.keys = Objects.requireNonNull(keys, "keys");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.clockSkew = Objects.requireNonNull(clockSkew, "clockSkew");
    if (clockSkew.isNegative()) {
      throw new IllegalArgumentException("clock skew must not be negative");
    }
  }

  /** What the intake made of one report: prepared or rejected. */
  sealed interface Outcome permits Prepared, Rejected {
    /** Returns the report ID. */
    ReportId reportId();

    /** Returns the report time in time_precision units. */
    long time();
  }

  /** A report ready for the ping-pong exchange: this aggregator's {@code verify_init} result. */
  record Prepared(ReportId reportId, long time, Prio3.VerifyInitResult init,
      Optional<MicroEpsilon> budget) implements Outcome {
    /** Rejects null parts. */
    Prepared {
      Objects.requireNonNull(reportId, "reportId");
      Objects.requireNonNull(init, "init");
      Objects.requireNonNull(budget, "budget");
    }
  }

  /** A report the intake rejects, with the report error both roles give it. */
  record Rejected(ReportId reportId, long time, ReportError error) implements Outcome {
    /** Rejects null parts. */
    Rejected {
      Objects.requireNonNull(reportId, "reportId");
      Objects.requireNonNull(error, "error");
    }
  }

  /**
   * Starts the intake of one aggregation job's reports of {@code task} under the VDAF
   * verification key {@code verifyKey}, with the HPKE keys as stored now.
   */
  Job job(TaskDefinition task, Prio3 prio3, byte[] verifyKey) {
    Map<Integer, HelperHpkeKey> byConfigId = new HashMap<>();
    for (HelperHpkeKey k : keys.all()) {
      byConfigId.put(k.config().id().value(), k);
    }
    return new Job(task, prio3, verifyKey, byConfigId);
  }

  /** The intake of one job's reports: one task, one verification key, one snapshot of keys. */
  final class Job {
    private final TaskDefinition task;
    private final Prio3 prio3;
    private final byte[] verifyKey;
    private final Map<Integer, HelperHpkeKey> keys;
    private final Map<Integer, org.priodp.aggregator.hpke.HpkeKeyPair> keyPairs;
    private final byte[] ctx;
    private final int aggregatorId;

    private Job(TaskDefinition task, Prio3 prio3, byte[] verifyKey,
        Map<Integer, HelperHpkeKey> keys) {
      this.task = Objects.requireNonNull(task, "task");
      this.prio3 = Objects.requireNonNull(prio3, "prio3");
      this.verifyKey = verifyKey.clone();
      this.keys = Map.copyOf(keys);
      Map<Integer, org.priodp.aggregator.hpke.HpkeKeyPair> pairs = new HashMap<>();
      keys.forEach((id, k) -> { // once per job, not per report
        try {
          pairs.put(id, HelperHpkeKeys.keyPair(k));
        } catch (RuntimeException e) {
          // a stored key the suite cannot use: its reports are hpke_decrypt_error
        }
      });
      this.keyPairs = Map.copyOf(pairs);
      this.ctx = task.dapVersion().vdafContext(task.taskId());
      this.aggregatorId = task.role() == Role.LEADER ? 0 : 1;
    }

    /** Returns the prepared report or the report error, as the class comment lists. */
    Outcome prepare(ReportShare share) {
      ReportId reportId = share.reportId();
      long time = share.reportMetadata().time().value();
      HelperHpkeKey key = keys.get(share.encryptedInputShare().configId().value());
      if (key == null) {
        return new Rejected(reportId, time, task.dapVersion().aggregationUnknownHpkeConfig());
      }
      org.priodp.aggregator.hpke.HpkeKeyPair keyPair = keyPairs.get(key.config().id().value());
      if (keyPair == null) {
        return new Rejected(reportId, time, ReportError.HPKE_DECRYPT_ERROR);
      }
      PlaintextInputShare plaintext;
      try {
        plaintext = InputShareEncryption.open(task.dapVersion(), key.config(), keyPair,
            task.role(), InputShareAad.of(task.taskId(), task.configuration(), share),
            share.encryptedInputShare());
      } catch (HpkeException | RuntimeException e) {
        return new Rejected(reportId, time, e instanceof DapDecodeException
            ? ReportError.INVALID_MESSAGE : ReportError.HPKE_DECRYPT_ERROR);
      }
      Prio3.PublicShare publicShare;
      Prio3.InputShare inputShare;
      try {
        publicShare = prio3.decodePublicShare(share.publicShare().toByteArray());
        inputShare = prio3.decodeInputShare(aggregatorId, plaintext.payload().toByteArray());
      } catch (IllegalArgumentException e) { // VdafException and DapDecodeException included
        return new Rejected(reportId, time, ReportError.INVALID_MESSAGE);
      }
      Optional<ReportError> invalid = validate(share, plaintext, time);
      if (invalid.isPresent()) {
        return new Rejected(reportId, time, invalid.get());
      }
      ReportBudgetRules.Verdict budget = ReportBudgetRules.check(task,
          share.reportMetadata().publicExtensions(), plaintext.privateExtensions());
      if (budget.error().isPresent()) {
        return new Rejected(reportId, time, budget.error().get());
      }
      try {
        return new Prepared(reportId, time, prio3.verifyInit(verifyKey, ctx, aggregatorId,
            reportId.bytes(), publicShare, inputShare), budget.budget());
      } catch (IllegalArgumentException e) { // VdafException
        return new Rejected(reportId, time, ReportError.VDAF_VERIFY_ERROR);
      }
    }

    /**
     * The time and extension checks of DAP-19 (and DAP-18) "Input Share Validation"; a failed
     * extension check is invalid_message in both.
     */
    private Optional<ReportError> validate(ReportShare share, PlaintextInputShare plaintext,
        long time) {
      if (tooEarly(time)) {
        return Optional.of(ReportError.REPORT_TOO_EARLY);
      }
      Optional<Interval> ti = task.configuration().taskInterval();
      if (ti.isPresent()) {
        if (Long.compareUnsigned(time, ti.get().start().value()) < 0) {
          return Optional.of(task.dapVersion().beforeTaskInterval());
        }
        if (Long.compareUnsigned(time, ti.get().end().value()) >= 0) {
          return Optional.of(task.dapVersion().afterTaskInterval());
        }
      }
      return ReportExtension.validate(share.reportMetadata().publicExtensions(),
          plaintext.privateExtensions(), ReportBudgetRules.recognized(task))
          .map(f -> ReportError.INVALID_MESSAGE);
    }

    /** Returns whether the time (time_precision units) lies beyond now plus the clock skew. */
    private boolean tooEarly(long time) {
      BigInteger reportSeconds = new BigInteger(Long.toUnsignedString(time))
          .multiply(new BigInteger(Long.toUnsignedString(task.configuration().timePrecision())));
      BigInteger limit = BigInteger.valueOf(clock.instant().getEpochSecond())
          .add(BigInteger.valueOf(clockSkew.getSeconds()));
      return reportSeconds.compareTo(limit) > 0;
    }
  }
}
