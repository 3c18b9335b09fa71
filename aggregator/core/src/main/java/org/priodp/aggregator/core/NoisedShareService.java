package org.priodp.aggregator.core;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.priodp.aggregator.dap.AggregateShare;
import org.priodp.aggregator.dap.AggregateShareAad;
import org.priodp.aggregator.dap.AggregateShareEncryption;
import org.priodp.aggregator.dap.AggregateShareReq;
import org.priodp.aggregator.dap.BatchSelector;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.DapError;
import org.priodp.aggregator.dap.HpkeCiphertext;
import org.priodp.aggregator.dap.Interval;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.BatchAggregation;
import org.priodp.aggregator.datastore.BatchIdentifier;
import org.priodp.aggregator.datastore.BucketBudgets;
import org.priodp.aggregator.datastore.CollectedInterval;
import org.priodp.aggregator.datastore.Datastore;
import org.priodp.aggregator.datastore.NoisedAggregateShare;
import org.priodp.aggregator.datastore.ReleasedAggregateShare;
import org.priodp.aggregator.datastore.TaskTransaction;
import org.priodp.aggregator.hpke.HpkeException;
import org.priodp.field.PrimeField;
import org.priodp.noise.RandomSource;
import org.priodp.vdaf.dp.Prio3DpMechanism;

/**
 * Produces the aggregate share that an aggregator releases for a batch, noised exactly once (DAP-18
 * "Obtaining Aggregate Shares", "Aggregate Share Encryption"; DESIGN.md non-negotiable 3). Both
 * roles use it: a Helper for each AggregateShareReq, a Leader for its own share of a collection
 * job; the role only selects the HPKE info string.
 *
 * <p>For a request it: checks the batch mode (invalidMessage), the selector's consistency with the
 * query, that a time-interval batch names at least one bucket (its interval in time_precision
 * units, DAP-18 "Times, Durations and Intervals") and lies within the task_interval extension
 * (batchInvalid), and the collection job extensions (only min_dp_budget, {@link ReleaseBudget}:
 * unsupportedExtension, invalidExtension). Then, in one database
 * transaction serialized per task across every process on the database: it returns the stored
 * share if this exact request (same SHA-256 of its encoding) was answered before, refuses any
 * other request for the same batch or for a time interval overlapping a released one
 * (batchOverlap), merges the host's batch buckets (vector sum, count sum, checksum XOR), checks
 * the minimum batch size (invalidBatchSize), the aggregation parameter (invalidMessage) and the
 * Leader's report count and checksum (batchMismatch), applies min_dp_budget's safeguard to the
 * buckets' least privacy_budget (invalidMessage) and picks the release epsilon ({@link
 * ReleaseBudget}), charges the release to the task's privacy
 * ledger or refuses it when the budget cannot pay for it ({@link PrivacyBudget}, prio-dp's
 * privacyBudgetExhausted; issue 25), draws noise and inserts the noised share with the range it
 * covers. A task with a collector_identity (draft-ietf-ppm-dap-attribution-00 section 6.1) is
 * first confirmed by its {@link CollectorIdentityCheck}, before that transaction, unless the
 * batch's share was released before. After the commit it seals the share to the Collector with the task's
 * configuration as provisioned in the AggregateShareAad, persists the encoded
 * {@link AggregateShare} with first-writer-wins and returns the stored bytes.
 *
 * <p>Why the ciphertext is stored: HPKE SealBase is randomized, so sealing the same noised share
 * twice gives different bytes. Returning the stored ciphertext makes every repeat byte-identical
 * and means nothing leaves the process before it is durable. A crash between the two writes
 * leaves a noised share without a ciphertext; the next request seals that stored share (never a
 * new draw), and nothing had been released before.
 *
 * <p>Concurrency: the check that no requested bucket was released and the insert of the new
 * share are one transaction of {@link Datastore#inTaskTransaction}, so of concurrent
 * overlapping requests, from one process or several, exactly one draws and is released. A
 * striped in-process lock per task only spares database lock waits. A NoDifferentialPrivacy task
 * releases the merged share as is; a DP task never does. Thread-safe.
 */
public final class NoisedShareService {
  private static final int STRIPES = 64;
  private final Datastore store;
  private final RandomSource rnd;
  private final Clock clock;
  private final ReleaseObserver observer;
  private final PipelineObserver pipeline;
  private final CollectorIdentityCheck collectorIdentities;
  private final ReentrantLock[] stripes = new ReentrantLock[STRIPES];
  private final AtomicLong draws = new AtomicLong();

  /** Creates the service over a store, a noise source (used under a lock) and a clock. */
  public NoisedShareService(Datastore store, RandomSource rnd, Clock clock) {
    this(store, rnd, clock, ReleaseObserver.NONE);
  }

  /**
   * Creates the service as {@link #NoisedShareService(Datastore, RandomSource, Clock)}
   * that tells {@code observer} of every noised share persisted before its release.
   */
  public NoisedShareService(Datastore store, RandomSource rnd, Clock clock,
      ReleaseObserver observer) {
    this(store, rnd, clock, observer, PipelineObserver.NONE);
  }

  /**
   * Creates the service as {@link #NoisedShareService(Datastore, RandomSource, Clock,
   * ReleaseObserver)} that also tells {@code pipeline} of each first release of a share.
   */
  public NoisedShareService(Datastore store, RandomSource rnd, Clock clock,
      ReleaseObserver observer, PipelineObserver pipeline) {
    this(store, rnd, clock, observer, pipeline, CollectorIdentityCheck.UNAVAILABLE);
  }

  /**
   * Creates the service as {@link #NoisedShareService(Datastore, RandomSource, Clock,
   * ReleaseObserver, PipelineObserver)} that confirms a task's collector identity with {@code
   * collectorIdentities} before it draws or seals a share of the task (without it, a task with a
   * collector_identity never releases).
   */
  public NoisedShareService(Datastore store, RandomSource rnd, Clock clock,
      ReleaseObserver observer, PipelineObserver pipeline,
      CollectorIdentityCheck collectorIdentities) {
    this.collectorIdentities = Objects.requireNonNull(collectorIdentities, "collectorIdentities");
    this.pipeline = Objects.requireNonNull(pipeline, "pipeline");
    this.store = Objects.requireNonNull(store, "store");
    this.rnd = Objects.requireNonNull(rnd, "rnd");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.observer = Objects.requireNonNull(observer, "observer");
    for (int i = 0; i < STRIPES; i++) {
      stripes[i] = new ReentrantLock();
    }
  }

  /** Returns how many times this instance has drawn noise (for tests and metrics). */
  public long noiseDraws() {
    return draws.get();
  }

  /** Returns the SHA-256 digest of a request's encoding: the identity of a request. */
  public static ByteString requestDigest(AggregateShareReq req) {
    return ByteString.copyOf(sha256(req.encode()));
  }

  static byte[] sha256(byte[] b) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(b);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from the JDK", e);
    }
  }

  /**
   * Returns the released share for the request, creating it (noise drawn once, then sealed) if
   * this is the first time; throws {@link Refusal} for a request the spec says to refuse.
   */
  public ReleasedAggregateShare release(TaskDefinition task, AggregateShareReq req) {
    return release(task, req, tx -> true);
  }

  /**
   * Thrown by {@link #release(TaskDefinition, AggregateShareReq, java.util.function.Predicate)}
   * when the batch was not yet released and its precondition does not hold: nothing was drawn or
   * stored, the caller may try again later.
   */
  public static final class NotReady extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NotReady() {
      super("the batch is not ready to be released", null, false, false);
    }
  }

  /**
   * Returns the released share for the request as {@link #release(TaskDefinition,
   * AggregateShareReq)} does, but draws noise for a batch not released before only if {@code
   * mayDraw} holds inside the same task transaction as the draw, and otherwise throws {@link
   * NotReady}. The Leader passes "no report of the batch is still being aggregated" (DAP-18
   * "Collection Job Initialization": pending aggregation jobs first), so that no aggregation job
   * claimed before the release can still send the Helper a report of the released batch.
   */
  public ReleasedAggregateShare release(TaskDefinition task, AggregateShareReq req,
      java.util.function.Predicate<TaskTransaction> mayDraw) {
    Objects.requireNonNull(mayDraw, "mayDraw");
    Objects.requireNonNull(task, "task");
    Objects.requireNonNull(req, "req");
    TaskId taskId = task.taskId();
    BatchSelector selector = req.batchSelector();
    checkRequest(task, req);
    BatchIdentifier batch = BatchBuckets.batchIdentifier(selector);
    ByteString digest = requestDigest(req);
    if (CollectorIdentityCheck.identity(task).isPresent() && released(taskId, batch).isEmpty()) {
      // attribution-00 section 6.1: the Collector's key is confirmed before anything is drawn,
      // charged or encrypted to it; a refusal leaves the budget and the noise untouched
      collectorIdentities.beforeRelease(task);
    }
    // In-process serialization only saves database lock waits; the guarantee is the task
    // transaction below, which holds across processes sharing the database.
    ReentrantLock lock = stripes[Math.floorMod(taskId.hashCode(), STRIPES)];
    lock.lock();
    try {
      Optional<ReleasedAggregateShare> released = store.inTaskTransaction(taskId,
          tx -> tx.releases().releasedShare(batch));
      if (released.isPresent()) {
        return sameRequestOrOverlap(task, released.get().requestDigest(), digest, released.get());
      }
      NoisedAggregateShare share = store.inTaskTransaction(taskId,
          tx -> noisedShareOnce(tx, task, req, batch, digest, mayDraw));
      observer.noisePersisted(taskId, batch);
      return seal(task, req, batch, digest, share);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Inside the task's transaction: returns the batch's stored noised share (same request) or
   * refuses (another request); otherwise checks that no released batch covers any of the
   * requested buckets, merges and checks the buckets, draws noise and inserts the share together
   * with the range it covers. Nothing another process does can come between the check and the
   * insert.
   */
  private NoisedAggregateShare noisedShareOnce(TaskTransaction tx, TaskDefinition task,
      AggregateShareReq req, BatchIdentifier batch, ByteString digest,
      java.util.function.Predicate<TaskTransaction> mayDraw) {
    Optional<NoisedAggregateShare> noised = tx.releases().noisedShare(batch);
    if (noised.isPresent()) {
      return sameRequestOrOverlap(task, noised.get().requestDigest(), digest, noised.get());
    }
    Optional<CollectedInterval> range = Optional.empty();
    if (req.batchSelector() instanceof BatchSelector.TimeInterval t) {
      Interval i = t.batchInterval();
      CollectedInterval r = new CollectedInterval(i.start().value(), i.end().value());
      if (tx.releases().collectedIntervalOverlaps(r)) {
        throw Refusal.of(DapError.BATCH_OVERLAP, task.taskId(), "the batch interval overlaps"
            + " a batch that was already collected");
      }
      range = Optional.of(r);
    }
    if (!mayDraw.test(tx)) {
      throw new NotReady();
    }
    NoisedAggregateShare share = draw(tx, task, req, batch, digest);
    tx.releases().insertNoisedShare(share, range);
    return share;
  }

  /** Returns the released share of a batch, if one was released. */
  public Optional<ReleasedAggregateShare> released(TaskId taskId, BatchIdentifier batch) {
    return store.inTaskTransaction(taskId, tx -> tx.releases().releasedShare(batch));
  }

  private static <T> T sameRequestOrOverlap(TaskDefinition task, ByteString stored,
      ByteString digest,
      T value) {
    if (!MessageDigest.isEqual(stored.toByteArray(), digest.toByteArray())) {
      throw Refusal.of(DapError.BATCH_OVERLAP, task.taskId(), "this batch was already"
          + " collected by a different aggregate share request; only a byte-identical repeat is"
          + " answered");
    }
    return value;
  }

  private static void checkRequest(TaskDefinition task, AggregateShareReq req) {
    TaskId taskId = task.taskId();
    BatchSelector selector = req.batchSelector();
    var mode = task.configuration().batchMode();
    if (selector.batchMode() != mode || req.collectionJobReq().query().batchMode() != mode) {
      throw Refusal.of(DapError.INVALID_MESSAGE, taskId, "batch mode: the task uses "
          + mode.specName());
    }
    if (!selector.isConsistentWith(req.collectionJobReq().query())) {
      throw Refusal.of(DapError.BATCH_INVALID, taskId,
          "batch_selector is not consistent with the query");
    }
    if (selector instanceof BatchSelector.TimeInterval t) {
      // DAP-18 "Time Interval": the interval is in time_precision units, well-formed, and names
      // at least one bucket (a duration of at least one unit).
      Interval i = t.batchInterval();
      if (i.duration().value() == 0 || !i.isWellFormed()) {
        throw Refusal.of(DapError.BATCH_INVALID, taskId, "batch interval must have a"
            + " duration of at least one time_precision unit and must not overflow");
      }
      Optional<Interval> taskInterval = task.configuration().taskInterval();
      if (taskInterval.isPresent() && !i.isWithin(taskInterval.get())) {
        throw Refusal.of(DapError.BATCH_INVALID, taskId, "batch interval is not within the"
            + " task_interval extension of the task");
      }
    }
    ReleaseBudget.minDpBudget(task, req.collectionJobReq().extensions());
  }

  /** The merged batch buckets of a batch: the host's un-noised aggregate. */
  private record Merged(ByteString aggParam, byte[] share, long reportCount, byte[] checksum,
      int buckets, BucketBudgets budgets) {
  }

  private static Merged merge(TaskTransaction tx, TaskDefinition task, AggregateShareReq req) {
    TaskId taskId = task.taskId();
    BatchSelector selector = req.batchSelector();
    List<BatchAggregation> buckets;
    if (selector instanceof BatchSelector.TimeInterval t) {
      Interval i = t.batchInterval();
      buckets = tx.batchBuckets().range(
          BatchBuckets.timeIntervalLowerBound(i.start().value()),
          BatchBuckets.timeIntervalLowerBound(i.end().value()));
    } else {
      buckets = tx.batchBuckets().get(BatchBuckets.batchIdentifier(selector))
          .map(List::of).orElse(List.of());
    }
    PrimeField field = task.variant().field();
    int n = task.variant().outputLength();
    long[] sum = field.newArray(n);
    long count = 0;
    byte[] checksum = new byte[AggregateShareReq.CHECKSUM_LENGTH];
    ByteString aggParam = null;
    int used = 0;
    BucketBudgets budgets = BucketBudgets.EMPTY;
    for (BatchAggregation b : buckets) {
      if (selector instanceof BatchSelector.TimeInterval t) {
        BatchSelector bucket = BatchSelector.decode(b.batch().bytes());
        if (!(bucket instanceof BatchSelector.TimeInterval bt)
            || !bt.batchInterval().isWithin(t.batchInterval())) {
          continue;
        }
      }
      if (aggParam == null) {
        aggParam = b.aggregationParameter();
      } else if (!aggParam.equals(b.aggregationParameter())) {
        throw Refusal.of(DapError.INVALID_MESSAGE, taskId, "the batch buckets were aggregated"
            + " with different aggregation parameters");
      }
      byte[] encoded = b.aggregateShare().toByteArray();
      long[] words;
      try {
        words = field.decode(encoded, 0, encoded.length, n);
      } catch (IllegalArgumentException e) {
        throw new IllegalStateException("stored batch aggregation of task " + taskId.toBase64Url()
            + " is not a " + task.variant().algorithm().specName() + " aggregate share", e);
      }
      field.addVec(sum, words, sum, n);
      count += b.reportCount();
      for (int k = 0; k < checksum.length; k++) {
        checksum[k] ^= b.checksum().byteAt(k);
      }
      used++;
      budgets = budgets.union(b.budgets());
    }
    byte[] share = new byte[n * field.encodedSize()];
    field.encode(sum, n, share, 0);
    return new Merged(aggParam, share, count, checksum, used, budgets);
  }

  private NoisedAggregateShare draw(TaskTransaction tx, TaskDefinition task,
      AggregateShareReq req, BatchIdentifier batch, ByteString digest) {
    TaskId taskId = task.taskId();
    Merged m = merge(tx, task, req);
    long min = task.configuration().minBatchSize();
    // Refusals name the failed check, never this aggregator's report count: a batch that is not
    // released must not leak how many reports it holds.
    if (Long.compareUnsigned(m.reportCount(), min) < 0) {
      throw Refusal.of(DapError.INVALID_BATCH_SIZE, taskId, "the batch holds fewer reports"
          + " than the task's minimum batch size " + Long.toUnsignedString(min));
    }
    ByteString aggParam = req.collectionJobReq().aggParam();
    if (m.aggParam() != null && !m.aggParam().equals(aggParam)) {
      throw Refusal.of(DapError.INVALID_MESSAGE, taskId, "collection_job_req.agg_param does"
          + " not match the aggregation parameter of the batch");
    }
    if (m.reportCount() != req.reportCount()) {
      throw Refusal.of(DapError.BATCH_MISMATCH, taskId, "report_count differs from this"
          + " aggregator's count for the batch");
    }
    if (!MessageDigest.isEqual(m.checksum(), req.checksum().toByteArray())) {
      throw Refusal.of(DapError.BATCH_MISMATCH, taskId, "checksum differs from this"
          + " aggregator's checksum for the batch");
    }
    // attribution draft section 5: the min_dp_budget safeguard and the release epsilon
    Prio3DpMechanism mechanism = ReleaseBudget.mechanism(task,
        ReleaseBudget.minDpBudget(task, req.collectionJobReq().extensions()), m.budgets());
    byte[] noised;
    if (mechanism.addsNoise()) {
      // the budget is decided and charged in this transaction, before the noise is drawn
      PrivacyBudget.charge(tx, task, mechanism, req.batchSelector(), batch, clock.instant());
      synchronized (rnd) {
        noised = mechanism.addNoiseToAggShare(m.share(), rnd);
      }
      draws.incrementAndGet();
    } else {
      noised = m.share();
    }
    return new NoisedAggregateShare(taskId, batch, aggParam, req.reportCount(),
        req.checksum(), digest, ByteString.copyOf(noised), clock.instant());
  }

  private ReleasedAggregateShare seal(TaskDefinition task, AggregateShareReq req,
      BatchIdentifier batch, ByteString digest, NoisedAggregateShare share) {
    AggregateShareAad aad = new AggregateShareAad(task.taskId(), task.configuration(),
        req.collectionJobReq());
    HpkeCiphertext ct;
    try {
      ct = AggregateShareEncryption.seal(task.dapVersion(), task.collectorHpkeConfig(), task.role(), aad,
          share.noisedShare().toByteArray());
    } catch (HpkeException e) {
      throw new IllegalStateException("sealing to the Collector's HPKE config failed", e);
    }
    ReleasedAggregateShare candidate = new ReleasedAggregateShare(task.taskId(), batch, digest,
        ByteString.copyOf(new AggregateShare(ct).encode()), clock.instant());
    ReleasedAggregateShare stored = store.inTaskTransaction(candidate.taskId(),
        tx -> tx.releases().putReleasedShareIfAbsent(candidate));
    if (stored.aggregateShare().equals(candidate.aggregateShare())) {
      pipeline.shareReleased(task.taskId(), task.role()); // ours was stored: the first release
    }
    return sameRequestOrOverlap(task, stored.requestDigest(), digest, stored);
  }
}
