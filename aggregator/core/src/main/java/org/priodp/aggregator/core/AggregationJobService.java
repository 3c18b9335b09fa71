package org.priodp.aggregator.core;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.priodp.aggregator.dap.AggregationJobContinueReq;
import org.priodp.aggregator.dap.AggregationJobExtension;
import org.priodp.aggregator.dap.AggregationJobId;
import org.priodp.aggregator.dap.AggregationJobInitReq;
import org.priodp.aggregator.dap.AggregationJobResp;
import org.priodp.aggregator.dap.BatchId;
import org.priodp.aggregator.dap.BatchMode;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.DapError;
import org.priodp.aggregator.dap.ReportError;
import org.priodp.aggregator.dap.ReportId;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.dap.VerifyInit;
import org.priodp.aggregator.dap.VerifyResp;
import org.priodp.aggregator.datastore.AggregationJobRecord;
import org.priodp.aggregator.datastore.BatchAggregation;
import org.priodp.aggregator.datastore.BatchIdentifier;
import org.priodp.aggregator.datastore.BucketBudgets;
import org.priodp.aggregator.task.MicroEpsilon;
import org.priodp.aggregator.datastore.ReportTimes;
import org.priodp.aggregator.datastore.CollectedInterval;
import org.priodp.aggregator.datastore.Datastore;
import org.priodp.aggregator.datastore.RetentionCounts;
import org.priodp.aggregator.datastore.TaskTransaction;
import org.priodp.field.FieldVector;
import org.priodp.vdaf.Prio3;

/**
 * The Helper's side of the aggregation interaction (DAP-18 "Helper Initialization", "Input Share
 * Decryption", "Input Share Validation", "Batch Buckets", "Helper Continuation", "Recovering
 * from Aggregation Step Skew", "Aggregation Job Abandonment and Deletion") for Prio3, whose
 * verification takes one round: the Helper's {@code ping_pong_helper_init} (VDAF-20 "Ping-Pong
 * Topology") ends in FinishedWithOutbound, so each accepted report is answered with VerifyResp
 * {@code continue} whose payload is the ping-pong {@code finish} message carrying the verifier
 * message, and its output share is committed at initialization.
 *
 * <p>Job-level checks refuse with {@link Refusal}: in DAP-18, a verification_key_id that names
 * no active key of the task (invalidMessage; in DAP-19 every report of such a job is rejected
 * with unknown_verification_key_id instead, see {@link VdafVerifyKeys}), an unknown aggregation
 * job extension (unsupportedExtension), a leader_selected_batch_id missing in leader-selected mode
 * or present in time-interval mode (invalidMessage), a non-empty aggregation parameter
 * (invalidAggregationParameter; Prio3's is empty). Per-report failures are values: a VerifyResp
 * {@code reject} with the ReportError.
 *
 * <p>Per report: the {@link ReportIntake} the Leader shares (decryption, validation, Prio3's
 * {@code verify_init}, each failure a report error), then the Helper's {@link
 * PingPong#helperInitialized} on the Leader's message, whose failure, including a message that is
 * not a ping-pong initialize, is {@code vdaf_verify_error}.
 *
 * <p>Commitment: in one task transaction per job (serialized with every other job of the task,
 * across processes), a report whose ID was committed before is {@code report_replayed}, one
 * whose bucket was collected is {@code batch_collected}, one older than the task's retention
 * cutoff ({@link #collectExpired}) is {@code report_dropped}; the others' output shares are added to
 * their buckets (sum, count, checksum XOR SHA-256(report ID)), their IDs recorded, and the job
 * with its encoded response stored in the same transaction, so a report in two concurrent jobs is
 * counted once and a repeated POST returns identical bytes. The job ID is derived from the task
 * and the request's SHA-256 (DAP-18 "Resource Creation"). Thread-safe.
 */
public final class AggregationJobService {
  private static final org.slf4j.Logger LOG =
      org.slf4j.LoggerFactory.getLogger(AggregationJobService.class);
  /** The default clock skew tolerated before a report is too early: five minutes. */
  public static final Duration DEFAULT_CLOCK_SKEW = Duration.ofMinutes(5);
  private static final byte[] ID_LABEL =
      "prio-dp aggregation job id v1".getBytes(StandardCharsets.US_ASCII);

  private final Datastore store;
  private final HelperHpkeKeys keys;
  private final Clock clock;
  private final ReportIntake intake;
  private final VdafVerifyKeys verifyKeys;
  private final PipelineObserver observer;
  private final ParallelReports parallel;
  private final Map<org.priodp.vdaf.Prio3Variant, Prio3> prio3s =
      new java.util.concurrent.ConcurrentHashMap<>();

  /** Creates the service over a store and key ring, tolerating {@code clockSkew}. */
  public AggregationJobService(Datastore store, HelperHpkeKeys keys, Clock clock,
      Duration clockSkew) {
    this(store, keys, clock, clockSkew, PipelineObserver.NONE);
  }

  /**
   * Creates the service as above, telling {@code observer} of each job it commits, with each
   * job's reports decrypted and verified on {@link ParallelReports#shared()}.
   */
  public AggregationJobService(Datastore store, HelperHpkeKeys keys, Clock clock,
      Duration clockSkew, PipelineObserver observer) {
    this(store, keys, clock, clockSkew, observer, ParallelReports.shared());
  }

  /**
   * Creates the service as above, decrypting and verifying each job's reports on {@code
   * parallel} (DAP-18 "Input Share Decryption", "Input Share Validation") before the job's one
   * task transaction.
   */
  public AggregationJobService(Datastore store, HelperHpkeKeys keys, Clock clock,
      Duration clockSkew, PipelineObserver observer, ParallelReports parallel) {
    this.parallel = Objects.requireNonNull(parallel, "parallel");
    this.observer = Objects.requireNonNull(observer, "observer");
    this.store = Objects.requireNonNull(store, "store");
    this.keys = Objects.requireNonNull(keys, "keys");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.intake = new ReportIntake(keys, clock, clockSkew);
    this.verifyKeys = new VdafVerifyKeys(store, clock);
  }

  /** Returns the task's Prio3 instance, built once per VDAF variant (it is immutable). */
  private Prio3 prio3(TaskDefinition task) {
    return prio3s.computeIfAbsent(task.variant(), Prio3::new);
  }

  /** Returns the key ring. */
  public HelperHpkeKeys keys() {
    return keys;
  }

  /** Returns the SHA-256 of a request body. */
  public static ByteString digest(byte[] body) {
    return ByteString.copyOf(NoisedShareService.sha256(body));
  }

  /** Derives the job ID from the task and the request digest (DAP-18 "Resource Creation"). */
  public static AggregationJobId jobId(TaskId taskId, ByteString requestDigest) {
    byte[] d = requestDigest.toByteArray();
    byte[] in = new byte[ID_LABEL.length + TaskId.LENGTH + d.length];
    System.arraycopy(ID_LABEL, 0, in, 0, ID_LABEL.length);
    System.arraycopy(taskId.bytes(), 0, in, ID_LABEL.length, TaskId.LENGTH);
    System.arraycopy(d, 0, in, ID_LABEL.length + TaskId.LENGTH, d.length);
    return new AggregationJobId(Arrays.copyOf(NoisedShareService.sha256(in),
        AggregationJobId.LENGTH));
  }

  /** Returns the clock's instant at the store's millisecond precision. */
  private java.time.Instant now() {
    return clock.instant().truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
  }

  /** Returns the stored job, if any. */
  public Optional<AggregationJobRecord> job(TaskId taskId, AggregationJobId jobId) {
    return store.inTaskTransaction(taskId, tx -> tx.aggregationJobs().get(jobId));
  }

  /**
   * Applies the job-level checks of DAP-19 (and DAP-18) "Helper Initialization" and returns the
   * batch bucket of a leader-selected job (empty in time-interval mode); throws {@link Refusal}.
   * A verification_key_id that names no active key of the task is a job-level invalidMessage
   * only in DAP-18, which has no report error for it; in DAP-19 each report of the job is
   * rejected with unknown_verification_key_id instead ({@link #initialize}).
   */
  public Optional<BatchId> checkJob(TaskDefinition task, AggregationJobInitReq req) {
    return checkJob(task, req, verifyKeys.active(task, req.verificationKeyId()));
  }

  /** As {@link #checkJob(TaskDefinition, AggregationJobInitReq)}, with the key looked up. */
  private Optional<BatchId> checkJob(TaskDefinition task, AggregationJobInitReq req,
      Optional<byte[]> key) {
    TaskId taskId = task.taskId();
    if (task.dapVersion().unknownVerificationKeyId().isEmpty() && key.isEmpty()) {
      throw Refusal.of(DapError.INVALID_MESSAGE, taskId, "verification_key_id "
          + req.verificationKeyId() + " names no active VDAF verification key of the task");
    }
    for (AggregationJobExtension e : req.extensions()) {
      if (e.extensionType() != AggregationJobExtension.LEADER_SELECTED_BATCH_ID) {
        throw Refusal.of(DapError.UNSUPPORTED_EXTENSION, taskId, "aggregation job extension"
            + " type " + e.extensionType() + " is not supported");
      }
    }
    Optional<BatchId> batchId = req.leaderSelectedBatchId();
    if (task.configuration().batchMode() != BatchMode.TIME_INTERVAL && batchId.isEmpty()) {
      throw Refusal.of(DapError.INVALID_MESSAGE, taskId, "a leader- or collector-selected task"
          + " needs the leader_selected_batch_id aggregation job extension");
    }
    if (task.configuration().batchMode() == BatchMode.TIME_INTERVAL && batchId.isPresent()) {
      throw Refusal.of(DapError.INVALID_MESSAGE, taskId, "leader_selected_batch_id is not"
          + " allowed in a time-interval task");
    }
    if (req.aggParam().length() != 0) {
      throw Refusal.of(DapError.INVALID_AGGREGATION_PARAMETER, taskId, "Prio3 takes an empty"
          + " aggregation parameter");
    }
    return batchId;
  }

  /**
   * Returns the stored job with this request's ID, or stores a {@link
   * AggregationJobRecord.State#PENDING} one (asynchronous handling), after the job-level checks.
   */
  public AggregationJobRecord accept(TaskDefinition task, AggregationJobInitReq req,
      ByteString requestDigest) {
    AggregationJobId id = jobId(task.taskId(), requestDigest);
    // a byte-identical repeat gets the existing job (DAP "Resource Creation"), even if a check
    // would now refuse it (a key retired on this Helper since the first attempt)
    Optional<AggregationJobRecord> before = job(task.taskId(), id);
    if (before.isPresent()) {
      return before.get();
    }
    checkJob(task, req);
    return store.inTaskTransaction(task.taskId(), tx -> {
      Optional<AggregationJobRecord> existing = tx.aggregationJobs().get(id);
      if (existing.isPresent()) {
        return existing.get();
      }
      AggregationJobRecord pending = new AggregationJobRecord(task.taskId(), id, requestDigest,
          0, requestDigest, AggregationJobRecord.State.PENDING, Optional.empty(), Optional.empty(),
          Optional.empty(), now());
      tx.aggregationJobs().put(pending);
      return pending;
    });
  }

  /**
   * Runs the job to its response and stores it (synchronous handling, or the background step of
   * an accepted job); returns the stored job, which for a repeated request is the existing one.
   * A Refusal raised after {@link #accept} is stored as the job's failure and rethrown.
   */
  public AggregationJobRecord initialize(TaskDefinition task, AggregationJobInitReq req,
      ByteString requestDigest) {
    TaskId taskId = task.taskId();
    AggregationJobId id = jobId(taskId, requestDigest);
    Optional<AggregationJobRecord> existing = store.inTaskTransaction(taskId,
        tx -> tx.aggregationJobs().get(id));
    if (existing.isPresent() && existing.get().state() != AggregationJobRecord.State.PENDING) {
      return existing.get(); // before the checks: a repeat gets the stored job
    }
    Optional<byte[]> key = verifyKeys.active(task, req.verificationKeyId()); // read once
    Optional<BatchId> batchId = checkJob(task, req, key);
    if (key.isEmpty()) {
      // DAP-19 "Helper Initialization": every report is rejected and none is counted or marked,
      // so that the Leader may send them again under a key this Helper knows
      ReportError unknown = task.dapVersion().unknownVerificationKeyId().orElseThrow();
      List<VerifyResp> rejects = new ArrayList<>();
      for (VerifyInit v : req.verifyInits()) {
        rejects.add(VerifyResp.reject(v.reportShare().reportId(), unknown));
      }
      AggregationJobResp rejected = new AggregationJobResp(rejects);
      byte[] resp = rejected.encode(task.dapVersion());
      AggregationJobResp[] committed = new AggregationJobResp[1];
      AggregationJobRecord stored = store.inTaskTransaction(taskId, tx -> {
        committed[0] = null;
        Optional<AggregationJobRecord> again = tx.aggregationJobs().get(id);
        if (again.isPresent() && again.get().state() != AggregationJobRecord.State.PENDING) {
          return again.get();
        }
        committed[0] = rejected;
        PipelineCounters.add(tx, PipelineCounters.HELPER_COUNTED, 0,
            PipelineCounters.HELPER_REJECTED, Map.of(unknown, rejects.size()));
        AggregationJobRecord job = new AggregationJobRecord(taskId, id, requestDigest, 0,
            requestDigest, AggregationJobRecord.State.READY,
            Optional.of(ByteString.copyOf(resp)), Optional.empty(), Optional.empty(),
            again.map(AggregationJobRecord::createdAt).orElse(now()));
        tx.aggregationJobs().put(job);
        return job;
      });
      observe(taskId, committed[0]);
      return stored;
    }
    byte[] verifyKey = key.get();
    Prio3 prio3 = prio3(task);
    ReportIntake.Job reports = intake.job(task, prio3, verifyKey);
    PingPong pingPong = new PingPong(prio3, task.dapVersion(), taskId);
    // the CPU work of every report, in parallel and before the transaction; results in order
    List<Prepared> prepared = parallel.map(req.verifyInits(), v -> prepare(reports, pingPong, v));
    warnTooEarly(task, id, prepared);
    AggregationJobResp[] committed = new AggregationJobResp[1];
    AggregationJobRecord stored = store.inTaskTransaction(taskId, tx -> {
      committed[0] = null;
      Optional<AggregationJobRecord> again = tx.aggregationJobs().get(id);
      if (again.isPresent() && again.get().state() != AggregationJobRecord.State.PENDING) {
        return again.get();
      }
      committed[0] = commit(tx, task, prio3, id, batchId, prepared);
      byte[] resp = committed[0].encode(task.dapVersion());
      AggregationJobRecord job = new AggregationJobRecord(taskId, id, requestDigest, 0,
          requestDigest, AggregationJobRecord.State.READY, Optional.of(ByteString.copyOf(resp)),
          Optional.empty(), Optional.empty(),
          again.map(AggregationJobRecord::createdAt).orElse(now()));
      tx.aggregationJobs().put(job);
      return job;
    });
    observe(taskId, committed[0]);
    return stored;
  }

  /** Tells the observer of a job this call committed (null: a repeat, nothing to tell). */
  private void observe(TaskId taskId, AggregationJobResp committed) {
    if (committed == null) {
      return;
    }
    long aggregated = 0;
    Map<ReportError, Integer> rejected = new java.util.EnumMap<>(ReportError.class);
    for (VerifyResp r : committed.verifyResps()) {
      if (r.result() instanceof VerifyResp.Reject reject) {
        rejected.merge(reject.reportError(), 1, Integer::sum);
      } else {
        aggregated++;
      }
    }
    observer.helperJob(taskId, aggregated, rejected);
  }

  /**
   * Logs one WARN for a job whose reports this Helper rejects as report_too_early (DAP-18 "Input
   * Share Validation"), naming how far the newest lies ahead of this Helper's clock: a Helper
   * whose clock is behind rejects every report of a healthy Leader. One line per job, never one
   * per report.
   */
  private void warnTooEarly(TaskDefinition task, AggregationJobId id, List<Prepared> prepared) {
    long newest = -1;
    int n = 0;
    for (Prepared p : prepared) {
      if (p.error() == ReportError.REPORT_TOO_EARLY) {
        n++;
        if (newest == -1 || Long.compareUnsigned(p.time(), newest) > 0) {
          newest = p.time();
        }
      }
    }
    if (n == 0) {
      return;
    }
    java.math.BigInteger seconds = new java.math.BigInteger(Long.toUnsignedString(newest))
        .multiply(new java.math.BigInteger(Long.toUnsignedString(
            task.configuration().timePrecision())));
    java.math.BigInteger ahead = seconds.subtract(
        java.math.BigInteger.valueOf(clock.instant().getEpochSecond()));
    String span = ahead.signum() > 0 && ahead.bitLength() < 63
        ? HelperTrouble.span(Duration.ofSeconds(ahead.longValue())) : ahead + "s";
    LOG.warn("task {}, aggregation job {}: {}/{} reports rejected as report_too_early, up to {}"
        + " ahead of this Helper's clock: this clock may be behind (or the Clients' ahead)",
        task.taskId().toBase64Url(), id.toBase64Url(), n, prepared.size(), span);
  }

  /** Stores a failure of a pending job (asynchronous handling). */
  public void fail(TaskId taskId, AggregationJobId id, Refusal refusal) {
    store.inTaskTransaction(taskId, tx -> {
      tx.aggregationJobs().get(id).filter(j -> j.state() == AggregationJobRecord.State.PENDING)
          .ifPresent(j -> tx.aggregationJobs().put(j.failed(refusal.error().type(),
              refusal.detail())));
      return null;
    });
  }

  /**
   * Handles an AggregationJobContinueReq (DAP-18 "Helper Continuation", "Recovering from
   * Aggregation Step Skew"): step 0 is invalidMessage; a byte-identical repeat of the request
   * that produced the current step gets the stored response; the next step needs each report to
   * be awaiting continuation, and with Prio3 none ever is (every report ends at initialization),
   * so a report ID in it is invalidMessage; any other step is stepMismatch. An unknown or
   * abandoned job is unrecognizedAggregationJob.
   */
  public AggregationJobRecord continueJob(TaskDefinition task, AggregationJobId id,
      AggregationJobContinueReq req, ByteString requestDigest) {
    TaskId taskId = task.taskId();
    AggregationJobRecord job = store.inTaskTransaction(taskId, tx -> tx.aggregationJobs().get(id))
        .filter(j -> j.state() != AggregationJobRecord.State.ABANDONED)
        .orElseThrow(() -> Refusal.of(DapError.UNRECOGNIZED_AGGREGATION_JOB, taskId,
            "no such aggregation job"));
    if (req.step() == 0) {
      throw Refusal.of(DapError.INVALID_MESSAGE, taskId, "a continuation step must not be 0");
    }
    if (req.step() == job.step()) {
      if (!job.stepDigest().equals(requestDigest)) {
        throw Refusal.of(DapError.INVALID_MESSAGE, taskId, "step " + req.step() + " was"
            + " already handled for a different request; a job cannot be rewound");
      }
      return job;
    }
    if (req.step() == job.step() + 1) {
      if (job.state() != AggregationJobRecord.State.READY) {
        throw Refusal.of(DapError.STEP_MISMATCH, taskId, "the job is not ready for step "
            + req.step());
      }
      if (!req.verifyContinues().isEmpty()) {
        throw Refusal.of(DapError.INVALID_MESSAGE, taskId, "report "
            + req.verifyContinues().get(0).reportId().toBase64Url() + " is not awaiting"
            + " continuation: Prio3 verification finishes at initialization");
      }
      throw Refusal.of(DapError.STEP_MISMATCH, taskId, "the job has no report awaiting"
          + " continuation: Prio3 verification finishes at initialization");
    }
    throw Refusal.of(DapError.STEP_MISMATCH, taskId, "the job is at step " + job.step()
        + ", the request is for step " + req.step());
  }

  /**
   * Abandons the job (DAP-18 "Aggregation Job Abandonment and Deletion"): it is no longer served;
   * its output shares were committed at initialization, so its reports stay counted and their
   * IDs stay recorded for replay checks. Returns false for an unknown or abandoned job.
   */
  public boolean abandon(TaskId taskId, AggregationJobId id) {
    return store.inTaskTransaction(taskId, tx -> {
      Optional<AggregationJobRecord> j = tx.aggregationJobs().get(id);
      if (j.isEmpty() || j.get().state() == AggregationJobRecord.State.ABANDONED) {
        return false;
      }
      tx.aggregationJobs().put(j.get().abandoned());
      return true;
    });
  }

  /**
   * Collects the task's expired rows (DAP-18 "Reducing Storage Requirements") in one task
   * transaction: report IDs whose time (time_precision units) is older than {@code now -
   * retention} rounded down to the time precision, and finished aggregation jobs created before
   * {@code now - retention}. The same cutoff is stored and from then on reports older than it
   * are rejected with {@code report_dropped}, so a report whose ID was deleted cannot be
   * replayed. Time-interval buckets older than the cutoff are deleted only inside a released
   * (collected) range; buckets that could still be collected, leader-selected buckets, noised
   * and released shares and collected intervals are kept.
   */
  public RetentionCounts collectExpired(TaskDefinition task, Duration retention) {
    if (retention.isNegative()) {
      throw new IllegalArgumentException("retention must not be negative");
    }
    long precision = task.configuration().timePrecision();
    java.time.Instant before = now().minus(retention);
    long cutoff = Math.max(0L, Math.floorDiv(before.getEpochSecond(), precision));
    return store.inTaskTransaction(task.taskId(), tx -> {
      RetentionCounts c = tx.retention().collectExpired(cutoff, before);
      int buckets = 0;
      for (CollectedInterval ci : tx.releases().collectedIntervals()) {
        // time-interval buckets older than the cutoff inside a released range: no report can
        // reach them (batch_collected) and the released share answers any repeat
        if (Long.compareUnsigned(ci.start(), c.cutoff()) >= 0) {
          break;
        }
        long end = Long.compareUnsigned(ci.end(), c.cutoff()) < 0 ? ci.end() : c.cutoff();
        buckets += tx.batchBuckets().deleteRange(BatchBuckets.timeIntervalLowerBound(ci.start()),
            BatchBuckets.timeIntervalLowerBound(end));
      }
      return new RetentionCounts(c.cutoff(), c.reports(), c.jobs(), buckets);
    });
  }

  /** One report after decryption, validation and VDAF verification, before commitment. */
  private record Prepared(ReportId reportId, long time, ReportError error, FieldVector outShare,
      byte[] outbound, Optional<MicroEpsilon> budget) {}

  /**
   * Runs the shared intake and then the Helper's ping-pong initialization on the Leader's message
   * (DAP-18 "Helper Initialization").
   */
  private static Prepared prepare(ReportIntake.Job reports, PingPong pingPong, VerifyInit v) {
    ReportIntake.Outcome in = reports.prepare(v.reportShare());
    if (in instanceof ReportIntake.Rejected r) {
      return reject(r.reportId(), r.time(), r.error());
    }
    ReportIntake.Prepared p = (ReportIntake.Prepared) in;
    if (pingPong.helperInitialized(p.init(), v.payload().toByteArray())
        instanceof PingPong.FinishedWithOutbound f) {
      return new Prepared(p.reportId(), p.time(), null, f.outShare(), f.outbound().encode(),
          p.budget());
    }
    return reject(p.reportId(), p.time(), ReportError.VDAF_VERIFY_ERROR);
  }

  private static Prepared reject(ReportId id, long time, ReportError error) {
    return new Prepared(id, time, error, null, null, Optional.empty());
  }

  /**
   * Commits the prepared reports in the caller's task transaction with a few set-based reads:
   * the replay check of every candidate in {@link
   * org.priodp.aggregator.datastore.ClientReportRepository#aggregatedAmong} (a report ID twice
   * in the job is replayed the second time), the collected check once per distinct report time
   * or leader-selected bucket, the IDs recorded in one batch; the checks apply to each report in
   * request order exactly as one by one.
   */
  private static AggregationJobResp commit(TaskTransaction tx, TaskDefinition task, Prio3 prio3,
      AggregationJobId id, Optional<BatchId> batchId, List<Prepared> prepared) {
    Map<BatchIdentifier, Bucket> buckets = new LinkedHashMap<>();
    List<VerifyResp> resps = new ArrayList<>(prepared.size());
    Optional<Long> cutoff = tx.retention().cutoff();
    List<ReportId> candidates = new ArrayList<>(prepared.size());
    for (Prepared p : prepared) {
      if (p.error() == null) {
        candidates.add(p.reportId());
      }
    }
    java.util.Set<ReportId> seen = new java.util.HashSet<>(
        tx.clientReports().aggregatedAmong(candidates));
    Map<Long, Boolean> collectedTimes = new java.util.HashMap<>();
    Map<BatchIdentifier, Boolean> collectedBuckets = new java.util.HashMap<>();
    Map<ReportId, Long> committed = new LinkedHashMap<>();
    for (Prepared p : prepared) {
      if (p.error() != null) {
        resps.add(VerifyResp.reject(p.reportId(), p.error()));
        continue;
      }
      if (cutoff.isPresent() && Long.compareUnsigned(p.time(), cutoff.get()) < 0) {
        // IDs of reports this old may have been collected (DAP-18 "Input Share Validation":
        // state evicted, so the report cannot be checked), read under the task transaction
        // that serializes with retention
        resps.add(VerifyResp.reject(p.reportId(), ReportError.REPORT_DROPPED));
        continue;
      }
      BatchIdentifier bucket = batchId.map(BatchBuckets::leaderSelectedBucket)
          .orElseGet(() -> BatchBuckets.timeIntervalBucket(p.time()));
      boolean collected = batchId.isPresent()
          ? collectedBuckets.computeIfAbsent(bucket,
              k -> tx.releases().noisedShare(k).isPresent())
          : p.time() != -1L && collectedTimes.computeIfAbsent(p.time(),
              t -> tx.releases().collectedIntervalOverlaps(new CollectedInterval(t, t + 1)));
      if (collected) {
        resps.add(VerifyResp.reject(p.reportId(), ReportError.BATCH_COLLECTED));
        continue;
      }
      if (!seen.add(p.reportId())) {
        resps.add(VerifyResp.reject(p.reportId(), ReportError.REPORT_REPLAYED));
        continue;
      }
      Bucket b = buckets.computeIfAbsent(bucket, k -> Bucket.load(tx, task, prio3, k));
      b.add(p.outShare(), p.reportId(), p.time(), p.budget());
      committed.put(p.reportId(), p.time());
      resps.add(VerifyResp.continueWith(p.reportId(), p.outbound()));
    }
    tx.clientReports().insertAggregated(id, committed);
    for (Bucket b : buckets.values()) {
      b.store(tx, task);
    }
    Map<ReportError, Integer> rejected = new java.util.EnumMap<>(ReportError.class);
    int counted = 0;
    for (VerifyResp r : resps) {
      if (r.result() instanceof VerifyResp.Reject x) {
        rejected.merge(x.reportError(), 1, Integer::sum);
      } else {
        counted++;
      }
    }
    PipelineCounters.add(tx, PipelineCounters.HELPER_COUNTED, counted,
        PipelineCounters.HELPER_REJECTED, rejected);
    return new AggregationJobResp(resps);
  }

  /** A batch bucket being updated (DAP-18 "Batch Buckets"). */
  static final class Bucket {
    private final BatchIdentifier id;
    private FieldVector share;
    private long count;
    private final byte[] checksum;
    private ReportTimes times; // null: no time added
    private BucketBudgets budgets;

    private Bucket(BatchIdentifier id, FieldVector share, long count, byte[] checksum,
        BucketBudgets budgets) {
      this.id = id;
      this.share = share;
      this.count = count;
      this.checksum = checksum;
      this.budgets = budgets;
    }

    static Bucket load(TaskTransaction tx, TaskDefinition task, Prio3 prio3, BatchIdentifier id) {
      Optional<BatchAggregation> existing = tx.batchBuckets().get(id);
      if (existing.isEmpty()) {
        return new Bucket(id, FieldVector.zeros(prio3.field(), prio3.outputLength()), 0,
            new byte[32], BucketBudgets.EMPTY);
      }
      BatchAggregation a = existing.get();
      return new Bucket(id, FieldVector.decode(prio3.field(), a.aggregateShare().toByteArray(),
          prio3.outputLength()), a.reportCount(), a.checksum().toByteArray(), a.budgets());
    }

    /**
     * Adds a report's output share, its time (time_precision units), whose range the bucket
     * keeps for the span of a leader-selected batch (issue 25), and its privacy_budget, whose
     * least value the bucket keeps (attribution draft section 5).
     */
    void add(FieldVector outShare, ReportId reportId, long time, Optional<MicroEpsilon> budget) {
      budgets = budgets.union(BucketBudgets.ofReport(budget));
      times = times == null ? new ReportTimes(time, time) : times.union(new ReportTimes(time, time));
      share = share.add(outShare);
      count++;
      byte[] h = NoisedShareService.sha256(reportId.bytes());
      for (int i = 0; i < checksum.length; i++) {
        checksum[i] ^= h[i];
      }
    }

    /** Writes the bucket and widens its stored report-time range by the times added. */
    void store(TaskTransaction tx, TaskDefinition task) {
      tx.batchBuckets().put(toAggregation(task));
      if (times != null) {
        tx.batchBuckets().widenReportTimes(id, times);
      }
    }

    BatchAggregation toAggregation(TaskDefinition task) {
      return new BatchAggregation(task.taskId(), id, ByteString.copyOf(new byte[0]),
          ByteString.copyOf(share.encode()), count, ByteString.copyOf(checksum), budgets);
    }
  }
}
