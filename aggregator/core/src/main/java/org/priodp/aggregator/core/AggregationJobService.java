package org.priodp.aggregator.core;

import java.math.BigInteger;
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
import org.priodp.aggregator.dap.DapDecodeException;
import org.priodp.aggregator.dap.DapError;
import org.priodp.aggregator.dap.InputShareAad;
import org.priodp.aggregator.dap.InputShareEncryption;
import org.priodp.aggregator.dap.Interval;
import org.priodp.aggregator.dap.PingPongMessage;
import org.priodp.aggregator.dap.PlaintextInputShare;
import org.priodp.aggregator.dap.ReportError;
import org.priodp.aggregator.dap.ReportExtension;
import org.priodp.aggregator.dap.ReportId;
import org.priodp.aggregator.dap.ReportShare;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.dap.VerifyInit;
import org.priodp.aggregator.dap.VerifyResp;
import org.priodp.aggregator.datastore.AggregationJobRecord;
import org.priodp.aggregator.datastore.BatchAggregation;
import org.priodp.aggregator.datastore.BatchIdentifier;
import org.priodp.aggregator.datastore.CollectedInterval;
import org.priodp.aggregator.datastore.Datastore;
import org.priodp.aggregator.datastore.HelperHpkeKey;
import org.priodp.aggregator.datastore.RetentionCounts;
import org.priodp.aggregator.datastore.TaskTransaction;
import org.priodp.aggregator.hpke.HpkeException;
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
 * <p>Job-level checks refuse with {@link DapRefusal}: a task without a VDAF verification key or a
 * verification_key_id that names none of the task's keys (invalidMessage), an unknown aggregation
 * job extension (unsupportedExtension), a leader_selected_batch_id missing in leader-selected mode
 * or present in time-interval mode (invalidMessage), a non-empty aggregation parameter
 * (invalidAggregationParameter; Prio3's is empty). Per-report failures are values: a VerifyResp
 * {@code reject} with the ReportError.
 *
 * <p>Per report: the Helper's input share is opened with the key named by its config id, active
 * or retired; an unknown config id or a failed open is {@code hpke_decrypt_error} (DAP-18 "Input
 * Share Decryption" names that one error for both; {@code hpke_unknown_config_id} is an upload
 * error). Then: an undecodable plaintext, public share or input share is {@code invalid_message};
 * a time beyond now plus the clock skew is {@code report_too_early}; before or after the
 * task_interval is {@code task_not_started} or {@code task_expired}; any report extension
 * (this aggregator recognizes none), a repeated type or a bad order is {@code invalid_message};
 * a failed VDAF verification, including a leader message that is not a ping-pong initialize, is
 * {@code vdaf_verify_error}.
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
  /** The default clock skew tolerated before a report is too early: five minutes. */
  public static final Duration DEFAULT_CLOCK_SKEW = Duration.ofMinutes(5);
  private static final byte[] ID_LABEL =
      "prio-dp aggregation job id v1".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] CTX_PREFIX = "dap-18".getBytes(StandardCharsets.US_ASCII);

  private final Datastore store;
  private final HelperHpkeKeys keys;
  private final Clock clock;
  private final Duration clockSkew;

  /** Creates the service over a store and key ring, tolerating {@code clockSkew}. */
  public AggregationJobService(Datastore store, HelperHpkeKeys keys, Clock clock,
      Duration clockSkew) {
    this.store = Objects.requireNonNull(store, "store");
    this.keys = Objects.requireNonNull(keys, "keys");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.clockSkew = Objects.requireNonNull(clockSkew, "clockSkew");
    if (clockSkew.isNegative()) {
      throw new IllegalArgumentException("clock skew must not be negative");
    }
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

  /** Returns the VDAF application context {@code "dap-18" || task_id}. */
  static byte[] ctx(TaskId taskId) {
    byte[] out = Arrays.copyOf(CTX_PREFIX, CTX_PREFIX.length + TaskId.LENGTH);
    System.arraycopy(taskId.bytes(), 0, out, CTX_PREFIX.length, TaskId.LENGTH);
    return out;
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
   * Applies the job-level checks of DAP-18 "Helper Initialization" and returns the batch bucket
   * of a leader-selected job (empty in time-interval mode); throws {@link DapRefusal}.
   */
  public Optional<BatchId> checkJob(TaskDefinition task, AggregationJobInitReq req) {
    TaskId taskId = task.taskId();
    if (!task.canAggregate()) {
      throw DapRefusal.of(DapError.INVALID_MESSAGE, taskId, "this task has no vdaf_verify_key"
          + " configured on the Helper, so it cannot aggregate");
    }
    if (task.vdafVerifyKey(req.verificationKeyId()).isEmpty()) {
      throw DapRefusal.of(DapError.INVALID_MESSAGE, taskId, "verification_key_id "
          + req.verificationKeyId() + " names no VDAF verification key of the task");
    }
    for (AggregationJobExtension e : req.extensions()) {
      if (e.extensionType() != AggregationJobExtension.LEADER_SELECTED_BATCH_ID) {
        throw DapRefusal.of(DapError.UNSUPPORTED_EXTENSION, taskId, "aggregation job extension"
            + " type " + e.extensionType() + " is not supported");
      }
    }
    Optional<BatchId> batchId = req.leaderSelectedBatchId();
    if (task.configuration().batchMode() == BatchMode.LEADER_SELECTED && batchId.isEmpty()) {
      throw DapRefusal.of(DapError.INVALID_MESSAGE, taskId, "a leader-selected task needs the"
          + " leader_selected_batch_id aggregation job extension");
    }
    if (task.configuration().batchMode() == BatchMode.TIME_INTERVAL && batchId.isPresent()) {
      throw DapRefusal.of(DapError.INVALID_MESSAGE, taskId, "leader_selected_batch_id is not"
          + " allowed in a time-interval task");
    }
    if (req.aggParam().length() != 0) {
      throw DapRefusal.of(DapError.INVALID_AGGREGATION_PARAMETER, taskId, "Prio3 takes an empty"
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
    checkJob(task, req);
    AggregationJobId id = jobId(task.taskId(), requestDigest);
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
   * A DapRefusal raised after {@link #accept} is stored as the job's failure and rethrown.
   */
  public AggregationJobRecord initialize(TaskDefinition task, AggregationJobInitReq req,
      ByteString requestDigest) {
    Optional<BatchId> batchId = checkJob(task, req);
    TaskId taskId = task.taskId();
    AggregationJobId id = jobId(taskId, requestDigest);
    Optional<AggregationJobRecord> existing = store.inTaskTransaction(taskId,
        tx -> tx.aggregationJobs().get(id));
    if (existing.isPresent() && existing.get().state() != AggregationJobRecord.State.PENDING) {
      return existing.get();
    }
    byte[] verifyKey = task.vdafVerifyKey(req.verificationKeyId()).orElseThrow();
    List<Prepared> prepared = new ArrayList<>(req.verifyInits().size());
    Map<Integer, HelperHpkeKey> keyCache = new LinkedHashMap<>();
    for (HelperHpkeKey k : keys.all()) {
      keyCache.put(k.config().id().value(), k);
    }
    Prio3 prio3 = new Prio3(task.variant());
    for (VerifyInit v : req.verifyInits()) {
      prepared.add(prepare(task, prio3, verifyKey, keyCache, v));
    }
    return store.inTaskTransaction(taskId, tx -> {
      Optional<AggregationJobRecord> again = tx.aggregationJobs().get(id);
      if (again.isPresent() && again.get().state() != AggregationJobRecord.State.PENDING) {
        return again.get();
      }
      byte[] resp = commit(tx, task, prio3, id, batchId, prepared).encode();
      AggregationJobRecord job = new AggregationJobRecord(taskId, id, requestDigest, 0,
          requestDigest, AggregationJobRecord.State.READY, Optional.of(ByteString.copyOf(resp)),
          Optional.empty(), Optional.empty(),
          again.map(AggregationJobRecord::createdAt).orElse(now()));
      tx.aggregationJobs().put(job);
      return job;
    });
  }

  /** Stores a failure of a pending job (asynchronous handling). */
  public void fail(TaskId taskId, AggregationJobId id, DapRefusal refusal) {
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
        .orElseThrow(() -> DapRefusal.of(DapError.UNRECOGNIZED_AGGREGATION_JOB, taskId,
            "no such aggregation job"));
    if (req.step() == 0) {
      throw DapRefusal.of(DapError.INVALID_MESSAGE, taskId, "a continuation step must not be 0");
    }
    if (req.step() == job.step()) {
      if (!job.stepDigest().equals(requestDigest)) {
        throw DapRefusal.of(DapError.INVALID_MESSAGE, taskId, "step " + req.step() + " was"
            + " already handled for a different request; a job cannot be rewound");
      }
      return job;
    }
    if (req.step() == job.step() + 1) {
      if (job.state() != AggregationJobRecord.State.READY) {
        throw DapRefusal.of(DapError.STEP_MISMATCH, taskId, "the job is not ready for step "
            + req.step());
      }
      if (!req.verifyContinues().isEmpty()) {
        throw DapRefusal.of(DapError.INVALID_MESSAGE, taskId, "report "
            + req.verifyContinues().get(0).reportId().toBase64Url() + " is not awaiting"
            + " continuation: Prio3 verification finishes at initialization");
      }
      throw DapRefusal.of(DapError.STEP_MISMATCH, taskId, "the job has no report awaiting"
          + " continuation: Prio3 verification finishes at initialization");
    }
    throw DapRefusal.of(DapError.STEP_MISMATCH, taskId, "the job is at step " + job.step()
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
      byte[] outbound) {}

  private Prepared prepare(TaskDefinition task, Prio3 prio3, byte[] verifyKey,
      Map<Integer, HelperHpkeKey> keyCache, VerifyInit v) {
    ReportShare rs = v.reportShare();
    ReportId reportId = rs.reportId();
    long time = rs.reportMetadata().time().value();
    HelperHpkeKey key = keyCache.get(rs.encryptedInputShare().configId().value());
    if (key == null) {
      return reject(reportId, time, ReportError.HPKE_DECRYPT_ERROR);
    }
    PlaintextInputShare plaintext;
    try {
      plaintext = InputShareEncryption.open(key.config(), HelperHpkeKeys.keyPair(key),
          task.role(), InputShareAad.of(task.taskId(), task.configuration(), rs),
          rs.encryptedInputShare());
    } catch (HpkeException | RuntimeException e) {
      if (e instanceof DapDecodeException) {
        return reject(reportId, time, ReportError.INVALID_MESSAGE);
      }
      return reject(reportId, time, ReportError.HPKE_DECRYPT_ERROR);
    }
    Prio3.PublicShare publicShare;
    Prio3.InputShare inputShare;
    try {
      publicShare = prio3.decodePublicShare(rs.publicShare().toByteArray());
      inputShare = prio3.decodeInputShare(1, plaintext.payload().toByteArray());
    } catch (IllegalArgumentException e) { // VdafException and DapDecodeException included
      return reject(reportId, time, ReportError.INVALID_MESSAGE);
    }
    if (tooEarly(task, time)) {
      return reject(reportId, time, ReportError.REPORT_TOO_EARLY);
    }
    Optional<Interval> ti = task.configuration().taskInterval();
    if (ti.isPresent()) {
      if (Long.compareUnsigned(time, ti.get().start().value()) < 0) {
        return reject(reportId, time, ReportError.TASK_NOT_STARTED);
      }
      if (Long.compareUnsigned(time, ti.get().end().value()) >= 0) {
        return reject(reportId, time, ReportError.TASK_EXPIRED);
      }
    }
    if (ReportExtension.validate(rs.reportMetadata().publicExtensions(),
        plaintext.privateExtensions(), type -> false).isPresent()) {
      return reject(reportId, time, ReportError.INVALID_MESSAGE);
    }
    byte[] ctx = ctx(task.taskId());
    try {
      Prio3.VerifyInitResult init = prio3.verifyInit(verifyKey, ctx, 1, reportId.bytes(),
          publicShare, inputShare);
      PingPongMessage inbound = PingPongMessage.decode(v.payload().toByteArray());
      if (!(inbound instanceof PingPongMessage.Initialize initialize)) {
        return reject(reportId, time, ReportError.VDAF_VERIFY_ERROR);
      }
      Prio3.VerifierShare leaderShare = prio3.decodeVerifierShare(
          initialize.verifierShare().toByteArray());
      Prio3.VerifierMessage message = prio3.verifierSharesToMessage(ctx,
          List.of(leaderShare, init.verifierShare()));
      FieldVector out = prio3.verifyNext(init.state(), message);
      byte[] outbound = new PingPongMessage.Finish(message.encode()).encode();
      return new Prepared(reportId, time, null, out, outbound);
    } catch (IllegalArgumentException e) { // VdafException, DapDecodeException
      return reject(reportId, time, ReportError.VDAF_VERIFY_ERROR);
    }
  }

  private static Prepared reject(ReportId id, long time, ReportError error) {
    return new Prepared(id, time, error, null, null);
  }

  private boolean tooEarly(TaskDefinition task, long time) {
    BigInteger reportSeconds = new BigInteger(Long.toUnsignedString(time))
        .multiply(new BigInteger(Long.toUnsignedString(task.configuration().timePrecision())));
    BigInteger limit = BigInteger.valueOf(clock.instant().getEpochSecond())
        .add(BigInteger.valueOf(clockSkew.getSeconds()));
    return reportSeconds.compareTo(limit) > 0;
  }

  private static AggregationJobResp commit(TaskTransaction tx, TaskDefinition task, Prio3 prio3,
      AggregationJobId id, Optional<BatchId> batchId, List<Prepared> prepared) {
    Map<BatchIdentifier, Bucket> buckets = new LinkedHashMap<>();
    List<VerifyResp> resps = new ArrayList<>(prepared.size());
    Optional<Long> cutoff = tx.retention().cutoff();
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
      boolean collected = batchId.isPresent() ? tx.releases().noisedShare(bucket).isPresent()
          : p.time() != -1L && tx.releases().collectedIntervalOverlaps(
              new CollectedInterval(p.time(), p.time() + 1));
      if (collected) {
        resps.add(VerifyResp.reject(p.reportId(), ReportError.BATCH_COLLECTED));
        continue;
      }
      if (tx.clientReports().aggregated(p.reportId())) {
        resps.add(VerifyResp.reject(p.reportId(), ReportError.REPORT_REPLAYED));
        continue;
      }
      Bucket b = buckets.computeIfAbsent(bucket, k -> Bucket.load(tx, task, prio3, k));
      b.add(p.outShare(), p.reportId());
      tx.clientReports().insertAggregated(p.reportId(), id, p.time());
      resps.add(VerifyResp.continueWith(p.reportId(), p.outbound()));
    }
    for (Bucket b : buckets.values()) {
      tx.batchBuckets().put(b.toAggregation(task));
    }
    return new AggregationJobResp(resps);
  }

  /** A batch bucket being updated (DAP-18 "Batch Buckets"). */
  static final class Bucket {
    private final BatchIdentifier id;
    private FieldVector share;
    private long count;
    private final byte[] checksum;

    private Bucket(BatchIdentifier id, FieldVector share, long count, byte[] checksum) {
      this.id = id;
      this.share = share;
      this.count = count;
      this.checksum = checksum;
    }

    static Bucket load(TaskTransaction tx, TaskDefinition task, Prio3 prio3, BatchIdentifier id) {
      Optional<BatchAggregation> existing = tx.batchBuckets().get(id);
      if (existing.isEmpty()) {
        return new Bucket(id, FieldVector.zeros(prio3.field(), prio3.outputLength()), 0,
            new byte[32]);
      }
      BatchAggregation a = existing.get();
      return new Bucket(id, FieldVector.decode(prio3.field(), a.aggregateShare().toByteArray(),
          prio3.outputLength()), a.reportCount(), a.checksum().toByteArray());
    }

    void add(FieldVector outShare, ReportId reportId) {
      share = share.add(outShare);
      count++;
      byte[] h = NoisedShareService.sha256(reportId.bytes());
      for (int i = 0; i < checksum.length; i++) {
        checksum[i] ^= h[i];
      }
    }

    BatchAggregation toAggregation(TaskDefinition task) {
      return new BatchAggregation(task.taskId(), id, ByteString.copyOf(new byte[0]),
          ByteString.copyOf(share.encode()), count, ByteString.copyOf(checksum));
    }
  }
}
