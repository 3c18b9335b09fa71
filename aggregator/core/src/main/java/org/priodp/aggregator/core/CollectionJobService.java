package org.priodp.aggregator.core;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.priodp.aggregator.dap.AggregateShare;
import org.priodp.aggregator.dap.AggregateShareReq;
import org.priodp.aggregator.dap.BatchMode;
import org.priodp.aggregator.dap.BatchSelector;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.CollectionJobId;
import org.priodp.aggregator.dap.CollectionJobReq;
import org.priodp.aggregator.dap.CollectionJobResp;
import org.priodp.aggregator.dap.DapDecodeException;
import org.priodp.aggregator.dap.DapError;
import org.priodp.aggregator.dap.Interval;
import org.priodp.aggregator.dap.Query;
import org.priodp.aggregator.dap.Role;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.BatchAggregation;
import org.priodp.aggregator.datastore.BatchIdentifier;
import org.priodp.aggregator.datastore.CollectionJobLease;
import org.priodp.aggregator.datastore.CollectionJobRecord;
import org.priodp.aggregator.datastore.Datastore;
import org.priodp.aggregator.datastore.NoisedAggregateShare;
import org.priodp.aggregator.datastore.ReleasedAggregateShare;

/**
 * The Leader's collection jobs (DAP-18 "Collection Job Initialization", "Collection Job
 * Extensions", "Collection Job Deletion", "Obtaining Aggregate Shares", "Resource Creation"),
 * without HTTP.
 *
 * <p>{@link #create} validates a CollectionJobReq in the spec's order (batch mode and form:
 * invalidMessage; a non-empty aggregation parameter, which Prio3 does not have:
 * invalidAggregationParameter; an empty, overflowing or out-of-task_interval batch interval:
 * batchInvalid; any extension: unsupportedExtension) and then, in one task transaction, returns
 * the job of a byte-identical request (the job ID is a labelled SHA-256 of the task ID and the
 * request, so an identical POST finds the same job; a deleted one is restored), refuses a batch
 * that overlaps a collected batch or another live job (batchOverlap), or inserts the job as
 * {@code pending}. In the leader_selected batch mode every request ("the next batch") is the
 * same bytes: the task's current job (pending, or ready until the Collector deletes it) is the
 * existing resource, and a new one is created when there is none (the previous one was deleted or
 * failed); its batch is chosen when it is stepped (a leader-selected bucket with at least
 * min_batch_size reports that the Collector does not have and no pending or ready job holds,
 * without an active aggregation job; a batch a deleted job abandoned first, a failed job's last,
 * reusing its persisted Leader share), and its response interval spans the finished aggregation
 * jobs' report times. A ready job's response counts as the Collector's once a POST or a GET
 * ({@link #poll}) answered it.
 *
 * <p>{@link #step} works on one leased pending job. The job waits (stays pending, leased again
 * after the retry delay) while the batch interval has not ended by the injected clock, while
 * uploaded reports of the interval are unclaimed or in an active Leader aggregation job, and
 * while the Leader's buckets hold fewer than min_batch_size reports (DAP-18 lets the Leader wait).
 * Then it builds the AggregateShareReq from its own buckets (report count, checksum, the query's
 * interval as batch selector) and calls {@link NoisedShareService#release}, which persists the
 * Leader's noised share (one draw, never an un-noised share for a DP task) and its sealed
 * ciphertext before anything leaves; only then is the Helper asked through {@link HelperPeer}.
 * The CollectionJobResp (report count, the smallest interval of whole time_precision units
 * holding the batch's buckets, both ciphertexts) is stored and the job set {@code ready} in one
 * statement that checks the lease token. A retryable {@link HelperPeer.HelperException} keeps the
 * job pending; a later step sends the byte-identical request again (rebuilt from the persisted
 * noised share, so it never draws again); a refusal fails the job with the Helper's error.
 * Thread-safe.
 */
public final class CollectionJobService {
  private static final org.slf4j.Logger LOG =
      org.slf4j.LoggerFactory.getLogger(CollectionJobService.class);
  /**
   * How long a step holds a job without renewing its lease before another process may take it
   * over; the lease is renewed every third of it while a step runs ({@link #heartbeat}), so a
   * stopped replica's job is taken over within about this long.
   */
  public static final Duration DEFAULT_LEASE = LeaderAggregationDriver.Options.DEFAULT_LEASE;
  /** How long a job that is not ready waits before it is looked at again. */
  public static final Duration DEFAULT_RETRY_DELAY = Duration.ofSeconds(5);

  private static final byte[] ID_LABEL =
      "prio-dp collection job id v1".getBytes(StandardCharsets.US_ASCII);
  /**
   * The jobs whose batch a new request must not overlap besides the collected intervals: a ready
   * job's batch is among those already (its Leader share was released), a pending one's maybe not.
   */
  private static final EnumSet<CollectionJobRecord.State> LIVE =
      EnumSet.of(CollectionJobRecord.State.PENDING);
  /**
   * The states of a leader-selected task's current job, the one a "next batch" request gets; its
   * batch is no other job's.
   */
  private static final EnumSet<CollectionJobRecord.State> CURRENT =
      EnumSet.of(CollectionJobRecord.State.PENDING, CollectionJobRecord.State.READY);

  private final Datastore store;
  private final NoisedShareService shares;
  private final HelperPeer helper;
  private final Clock clock;
  private final Duration lease;
  private final Duration retryDelay;
  private final String owner;
  private final LeaseHeartbeat heartbeat;
  private final PipelineObserver observer;
  private final CollectionReadiness readiness;
  private final CollectorSelectedBatches collectorSelected;

  /**
   * Creates the service over the Leader's store and share service, the Helper peer and a clock;
   * {@code owner} names this process in leases.
   */
  public CollectionJobService(Datastore store, NoisedShareService shares,
      HelperPeer helper, Clock clock, Duration lease, Duration retryDelay, String owner) {
    this(store, shares, helper, clock, lease, retryDelay, owner, PipelineObserver.NONE);
  }

  /** Creates the service as above, telling {@code observer} of each job's change of state. */
  public CollectionJobService(Datastore store, NoisedShareService shares,
      HelperPeer helper, Clock clock, Duration lease, Duration retryDelay, String owner,
      PipelineObserver observer) {
    this.observer = Objects.requireNonNull(observer, "observer");
    this.store = Objects.requireNonNull(store, "store");
    this.shares = Objects.requireNonNull(shares, "shares");
    this.helper = Objects.requireNonNull(helper, "helper");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.lease = positive(lease, "lease");
    this.retryDelay = positive(retryDelay, "retryDelay");
    this.owner = Objects.requireNonNull(owner, "owner");
    this.heartbeat = new LeaseHeartbeat(clock, this.lease);
    this.readiness = new CollectionReadiness(store, clock);
    this.collectorSelected = new CollectorSelectedBatches(store, clock,
        new java.security.SecureRandom());
  }

  /**
   * Returns the heartbeat that renews the lease of each job while {@link #step(TaskDefinition)}
   * works on it; whoever runs the steps starts and closes it.
   */
  public LeaseHeartbeat heartbeat() {
    return heartbeat;
  }

  /** The operator's instance: reads, lists and deletes jobs; never steps one. */
  private CollectionJobService(Datastore store, Clock clock) {
    this.store = Objects.requireNonNull(store, "store");
    this.shares = null;
    this.helper = null;
    this.clock = Objects.requireNonNull(clock, "clock");
    this.lease = DEFAULT_LEASE;
    this.retryDelay = DEFAULT_RETRY_DELAY;
    this.owner = "operator";
    this.heartbeat = new LeaseHeartbeat(clock, this.lease);
    this.observer = PipelineObserver.NONE;
    this.readiness = new CollectionReadiness(store, clock);
    this.collectorSelected = null;
  }

  /**
   * Returns a service for an operator's commands over the Leader's store (issue 24 "Repair the
   * pipeline"): {@link #job}, {@link #jobs}, {@link #whyWaiting} and {@link #delete} work,
   * {@link #step} throws IllegalStateException (it has no Helper nor share service).
   */
  public static CollectionJobService forOperator(Datastore store, Clock clock) {
    return new CollectionJobService(store, clock);
  }

  /** Returns the task's collection jobs in the given states, oldest first. */
  public List<CollectionJobRecord> jobs(TaskId taskId, Set<CollectionJobRecord.State> states) {
    List<CollectionJobRecord> all = new java.util.ArrayList<>(store.inTaskTransaction(taskId,
        tx -> tx.collectionJobs().inStates(states)));
    all.sort(java.util.Comparator.comparing(CollectionJobRecord::createdAt));
    return all;
  }

  private static Duration positive(Duration d, String name) {
    if (Objects.requireNonNull(d, name).isNegative() || d.isZero()) {
      throw new IllegalArgumentException(name + " must be positive, got " + d);
    }
    return d;
  }

  /** Returns the delay after which a job that is not ready is looked at again. */
  public Duration retryDelay() {
    return retryDelay;
  }

  /** Returns the share service (e.g. for its draw counter). */
  public NoisedShareService shares() {
    return shares;
  }

  /** Derives the job ID: SHA-256("prio-dp collection job id v1" || task_id || request)[0..16). */
  public static CollectionJobId jobId(TaskId taskId, byte[] request) {
    MessageDigest md = sha256();
    md.update(ID_LABEL);
    md.update(taskId.bytes());
    md.update(request);
    return new CollectionJobId(Arrays.copyOf(md.digest(), CollectionJobId.LENGTH));
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from the JDK", e);
    }
  }

  /**
   * Creates the collection job of {@code req} for the Leader task, or returns the existing job of
   * a byte-identical request; throws {@link Refusal} as the class comment lists.
   */
  public CollectionJobRecord create(TaskDefinition task, CollectionJobReq req) {
    Objects.requireNonNull(task, "task");
    Objects.requireNonNull(req, "req");
    TaskId taskId = task.taskId();
    if (task.role() != Role.LEADER) {
      throw new IllegalArgumentException("collection jobs belong to a Leader task");
    }
    BatchMode mode = task.configuration().batchMode();
    if (req.query().batchMode() != mode) {
      throw Refusal.of(DapError.INVALID_MESSAGE, taskId, "query.batch_mode: the task uses "
          + mode.specName());
    }
    if (req.aggParam().length() != 0) {
      throw Refusal.of(DapError.INVALID_AGGREGATION_PARAMETER, taskId, "agg_param: Prio3"
          + " takes no aggregation parameter, so it must be empty");
    }
    CollectorSelectedBatches.checkExtensions(task, req);
    if (req.query() instanceof Query.CollectorSelected) {
      return created(collectorSelected.create(task, req), true);
    }
    if (!(req.query() instanceof Query.TimeInterval q)) {
      return createLeaderSelected(task, req);
    }
    Interval i = q.batchInterval();
    if (i.duration().value() == 0 || !i.isWellFormed()) {
      throw Refusal.of(DapError.BATCH_INVALID, taskId, "query.batch_interval must have a"
          + " duration of at least one time_precision unit and must not overflow");
    }
    Optional<Interval> taskInterval = task.configuration().taskInterval();
    if (taskInterval.isPresent() && !i.isWithin(taskInterval.get())) {
      throw Refusal.of(DapError.BATCH_INVALID, taskId, "query.batch_interval is not within"
          + " the task_interval extension of the task");
    }
    byte[] request = req.encode();
    CollectionJobId id = jobId(taskId, request);
    BatchIdentifier batch = BatchBuckets.batchIdentifier(new BatchSelector.TimeInterval(i));
    Instant now = clock.instant();
    boolean[] created = new boolean[1];
    CollectionJobRecord stored = store.inTaskTransaction(taskId, tx -> {
      created[0] = false;
      Optional<CollectionJobRecord> existing = tx.collectionJobs().get(id);
      if (existing.isPresent()) {
        CollectionJobRecord j = existing.get();
        if (!Arrays.equals(j.request().toByteArray(), request)) {
          throw new IllegalStateException("collection job ID collision in task "
              + taskId.toBase64Url());
        }
        if (j.state() != CollectionJobRecord.State.DELETED) {
          return delivered(tx, j, now);
        }
        // the Collector POSTs the request of a job it deleted: the same resource again, in the
        // state its stored columns imply (a ready job keeps its response, nothing is redrawn)
        CollectionJobRecord.State st = j.response().isPresent() ? CollectionJobRecord.State.READY
            : failed(j) ? CollectionJobRecord.State.FAILED : CollectionJobRecord.State.PENDING;
        tx.collectionJobs().setState(id, st, now);
        return delivered(tx, tx.collectionJobs().get(id).orElseThrow(), now);
      }
      if (tx.releases().collectedIntervalOverlaps(new org.priodp.aggregator.datastore.CollectedInterval(
          i.start().value(), i.end().value()))) {
        throw Refusal.of(DapError.BATCH_OVERLAP, taskId, "the batch interval overlaps a"
            + " batch that was already collected");
      }
      for (CollectionJobRecord other : tx.collectionJobs().inStates(LIVE)) {
        if (overlaps(batchInterval(other), i)) {
          throw Refusal.of(DapError.BATCH_OVERLAP, taskId, "the batch interval overlaps the"
              + " batch of another collection job");
        }
      }
      // a fast answer when the ledger already cannot pay for this batch; the release
      // transaction decides (PrivacyBudget.charge), other releases may come first
      Optional<Refusal> broke = PrivacyBudget.precheck(tx, task, i, now);
      if (broke.isPresent()) {
        throw broke.get();
      }
      CollectionJobRecord job = CollectionJobRecord.pending(taskId, id,
          ByteString.copyOf(request), batch, now);
      tx.collectionJobs().insert(job);
      created[0] = true;
      return job;
    });
    return created(stored, created[0]);
  }

  /** Tells the observer of a job this call inserted; returns the job. */
  private CollectionJobRecord created(CollectionJobRecord job, boolean inserted) {
    if (inserted) {
      observer.collectionJob(job.taskId(), PipelineObserver.CollectionState.CREATED,
          Optional.empty());
    }
    return job;
  }

  /** The batch identifier of a leader-selected job whose batch is not chosen yet. */
  static final BatchIdentifier UNCHOSEN = BatchIdentifier.of(new Query.LeaderSelected().encode());

  /** Returns whether the job failed (it may have been deleted since: its error stays). */
  private static boolean failed(CollectionJobRecord j) {
    return j.state() == CollectionJobRecord.State.FAILED || j.errorType().isPresent()
        || j.errorDetail().isPresent();
  }

  /**
   * Creates a leader-selected job ("the next batch"): every such request is the same bytes, so
   * the task's current job, pending or ready, is the existing resource (a ready one until the
   * Collector deletes it), and a new job, whose ID also counts the task's earlier jobs, is
   * created when there is none: after the Collector deleted the previous job, or when it failed
   * (its failure stays on its own resource; the new job may collect its batch later, as {@link
   * #chooseBatch} says). Its batch is chosen when it is stepped. One task transaction, so two
   * concurrent requests, to any replica, get the same new job.
   */
  private CollectionJobRecord createLeaderSelected(TaskDefinition task, CollectionJobReq req) {
    TaskId taskId = task.taskId();
    byte[] request = req.encode();
    Instant now = clock.instant();
    boolean[] created = new boolean[1];
    CollectionJobRecord stored = store.inTaskTransaction(taskId, tx -> {
      created[0] = false;
      List<CollectionJobRecord> all = tx.collectionJobs().inStates(EnumSet.allOf(
          CollectionJobRecord.State.class));
      for (CollectionJobRecord j : all) {
        if (CURRENT.contains(j.state()) && Arrays.equals(j.request().toByteArray(), request)) {
          return delivered(tx, j, now);
        }
      }
      byte[] counted = Arrays.copyOf(request, request.length + 4);
      int n = all.size();
      for (int k = 0; k < 4; k++) {
        counted[request.length + k] = (byte) (n >>> (24 - 8 * k));
      }
      CollectionJobRecord job = CollectionJobRecord.pending(taskId, jobId(taskId, counted),
          ByteString.copyOf(request), UNCHOSEN, now);
      tx.collectionJobs().insert(job);
      created[0] = true;
      return job;
    });
    return created(stored, created[0]);
  }

  /**
   * Chooses the batch of a leader-selected job (DAP-18 "Leader-selected Batch Mode": a batch not
   * yet associated with a collection job; "Collection Job Deletion": a deleted job is abandoned).
   * A leader-selected bucket may be chosen if it holds at least min_batch_size reports, has no
   * active aggregation job, is not the batch of a pending or ready job, and is not collected: no
   * job's CollectionJobResp for it was answered to the Collector. Such a batch may have been a
   * deleted or failed job's, with its Leader share drawn and persisted; that share is what the
   * new job releases (the same bytes, never a second draw). Of these the job takes, each group in
   * identifier order: first a batch whose job the Collector deleted before it had the result
   * (abandoned), then a batch no job had, then a batch whose job failed (so a batch the Helper
   * keeps refusing does not stop the Collector, and is retried whenever nothing else is ready).
   * In one task transaction that also checks that the job is still pending without a batch, so
   * two replicas never give one batch to two jobs, and a step of a job deleted meanwhile takes
   * none.
   */
  private Optional<BatchIdentifier> chooseBatch(TaskDefinition task, CollectionJobRecord job) {
    byte[] low = new BatchSelector.LeaderSelected(new org.priodp.aggregator.dap.BatchId(
        new byte[org.priodp.aggregator.dap.BatchId.LENGTH])).encode();
    byte[] high = Arrays.copyOf(low, low.length - org.priodp.aggregator.dap.BatchId.LENGTH);
    high[high.length - 1]++; // the next config length: after every 32-byte batch ID
    long min = task.configuration().minBatchSize();
    return store.inTaskTransaction(task.taskId(), tx -> {
      Optional<CollectionJobRecord> self = tx.collectionJobs().get(job.jobId());
      if (self.isEmpty() || self.get().state() != CollectionJobRecord.State.PENDING
          || !self.get().batch().equals(UNCHOSEN)) {
        return Optional.<BatchIdentifier>empty(); // deleted, or chosen by another step
      }
      Set<BatchIdentifier> unavailable = new HashSet<>(tx.collectionJobs().deliveredBatches());
      Set<BatchIdentifier> abandoned = new HashSet<>();
      Set<BatchIdentifier> failed = new HashSet<>();
      for (CollectionJobRecord j : tx.collectionJobs().inStates(EnumSet.allOf(
          CollectionJobRecord.State.class))) {
        if (CURRENT.contains(j.state())) {
          unavailable.add(j.batch());
        } else if (failed(j)) {
          failed.add(j.batch());
        } else {
          abandoned.add(j.batch());
        }
      }
      BatchIdentifier[] best = new BatchIdentifier[3]; // abandoned, fresh, failed
      for (BatchAggregation b : tx.batchBuckets().range(BatchIdentifier.of(low),
          BatchIdentifier.of(high))) {
        int rank = failed.contains(b.batch()) ? 2 : abandoned.contains(b.batch()) ? 0 : 1;
        if (best[rank] != null || unavailable.contains(b.batch())
            || Long.compareUnsigned(b.reportCount(), min) < 0
            || tx.aggregationJobs().leaderActive(b.batch())) {
          continue;
        }
        best[rank] = b.batch();
        if (rank == 0) {
          break;
        }
      }
      for (BatchIdentifier b : best) {
        if (b != null) {
          tx.collectionJobs().setBatch(job.jobId(), b, clock.instant());
          return Optional.of(b);
        }
      }
      return Optional.<BatchIdentifier>empty();
    });
  }

  private static Interval batchInterval(CollectionJobRecord job) {
    BatchSelector s = BatchSelector.decode(job.batch().bytes());
    if (s instanceof BatchSelector.TimeInterval t) {
      return t.batchInterval();
    }
    throw new IllegalStateException("collection job " + job.jobId() + " has no time interval");
  }

  private static boolean overlaps(Interval a, Interval b) {
    return a.start().compareTo(b.end()) < 0 && b.start().compareTo(a.end()) < 0;
  }

  /** Returns the job (task, id) in any state, if any. */
  public Optional<CollectionJobRecord> job(TaskId taskId, CollectionJobId id) {
    return store.inTaskTransaction(taskId, tx -> tx.collectionJobs().get(id));
  }

  /**
   * Returns the job (task, id) as the Collector's GET on it sees it (DAP-18 "Collection Job
   * Initialization", "Asynchronous Request Handling"): empty if unknown or deleted; a ready job's
   * CollectionJobResp is recorded as answered to the Collector in the same task transaction.
   */
  public Optional<CollectionJobRecord> poll(TaskId taskId, CollectionJobId id) {
    Instant now = clock.instant();
    return store.inTaskTransaction(taskId, tx -> tx.collectionJobs().get(id)
        .filter(j -> j.state() != CollectionJobRecord.State.DELETED)
        .map(j -> {
          CollectorSelectedBatches.closeOnPoll(tx, j, now); // attribution draft 4: the rule
          return delivered(tx, j, now);
        }));
  }

  /** Records a ready job's response as answered to the Collector; returns the job. */
  private static CollectionJobRecord delivered(org.priodp.aggregator.datastore.TaskTransaction tx,
      CollectionJobRecord job, Instant now) {
    if (job.state() == CollectionJobRecord.State.READY) {
      tx.collectionJobs().markDelivered(job.jobId(), now);
    }
    return job;
  }

  /**
   * Marks the job deleted (DAP-18 "Collection Job Deletion"); returns false if it is unknown or
   * already deleted. A step working on it finds its lease gone and stores nothing.
   */
  public boolean delete(TaskId taskId, CollectionJobId id) {
    boolean deleted = store.inTaskTransaction(taskId,
        tx -> tx.collectionJobs().delete(id, clock.instant()));
    if (deleted) {
      observer.collectionJob(taskId, PipelineObserver.CollectionState.DELETED, Optional.empty());
    }
    return deleted;
  }

  /** What one {@link #step} did. */
  public enum Outcome {
    /** No pending job of the task was due. */
    IDLE,
    /** The batch is not ready yet (interval, aggregation, min_batch_size); postponed. */
    WAITING,
    /** The Helper did not answer in time or failed transiently; postponed. */
    HELPER_RETRY,
    /** The job is ready. */
    READY,
    /** The job failed. */
    FAILED,
    /** The lease was lost (expired and taken over, or the job was deleted); nothing stored. */
    LEASE_LOST
  }

  /**
   * Leases the task's oldest due pending job and steps it, renewing its lease meanwhile; logs a
   * takeover of another replica's expired lease (DAP-18 "Distributed Systems and Synchronization
   * Concerns"); {@link Outcome#IDLE} if none.
   */
  public Outcome step(TaskDefinition task) {
    if (shares == null) {
      throw new IllegalStateException("an operator's collection job service does not step jobs");
    }
    Optional<CollectionJobLease> l = store.jobLeases().leaseCollectionJob(task.taskId(), owner,
        clock.instant(), lease);
    if (l.isEmpty()) {
      return Outcome.IDLE;
    }
    CollectionJobLease leased = l.get();
    String name = "collection job " + leased.job().jobId().toBase64Url();
    leased.takeover().ifPresent(t -> LOG.warn("{} of task {}: taking over from replica {}, whose"
        + " lease expired at {} (was it stopped?)", name, task.taskId().toBase64Url(),
        t.previousOwner(), t.expiredAt()));
    try (LeaseHeartbeat.Held held = heartbeat.hold(name,
        expires -> store.jobLeases().renewCollectionJob(leased, expires))) {
      return step(task, leased);
    }
  }

  /** Steps one leased job as the class comment describes. */
  public Outcome step(TaskDefinition task, CollectionJobLease leased) {
    if (shares == null) {
      throw new IllegalStateException("an operator's collection job service does not step jobs");
    }
    CollectionJobRecord job = leased.job();
    TaskId taskId = task.taskId();
    CollectionJobReq cjr;
    try {
      cjr = CollectionJobReq.decode(job.request().toByteArray(),
          task.attribution().codePoints().collectorSelected());
    } catch (DapDecodeException e) {
      return fail(leased, DapError.INVALID_MESSAGE.type(), "the stored request no longer decodes");
    }
    if (cjr.query() instanceof Query.LeaderSelected) {
      return stepLeaderSelected(task, leased, cjr);
    }
    if (cjr.query() instanceof Query.CollectorSelected) {
      CollectorSelectedBatches.Step s = collectorSelected.step(task, job, cjr);
      return s.request().isPresent()
          ? obtainShares(task, leased, s.request().get(), s.drawnBefore(), s.span())
          : s.failure().isPresent() ? fail(leased, DapError.INVALID_BATCH_SIZE.type(),
              s.failure().get()) : postpone(leased, Outcome.WAITING);
    }
    Interval i = batchInterval(job);
    BatchSelector selector = new BatchSelector.TimeInterval(i);
    BatchIdentifier batch = BatchBuckets.batchIdentifier(selector);
    CollectionReadiness.Merged m = readiness.merge(task, i);
    AggregateShareReq req;
    Optional<NoisedAggregateShare> drawn = store.inTaskTransaction(taskId,
        tx -> tx.releases().noisedShare(batch));
    if (drawn.isPresent()) {
      // collected before (the Helper did not answer then): the byte-identical request again
      req = new AggregateShareReq(cjr, selector, drawn.get().reportCount(),
          drawn.get().checksum());
    } else {
      if (readiness.intervalWait(task, i, m).isPresent()) {
        return postpone(leased, Outcome.WAITING);
      }
      req = new AggregateShareReq(cjr, selector, m.count(), m.checksum());
    }
    return obtainShares(task, leased, req, drawn.isPresent(), m.interval(i));
  }

  /**
   * Returns why the Leader's collection job is not ready (issue 24 "See the pipeline"), by the
   * rules of {@link #step} (DAP-18 "Collection Job Initialization"): empty for a job that is not
   * pending; {@link CollectionWait.Due} if nothing holds it back. Reads only.
   */
  public Optional<CollectionWait> whyWaiting(TaskDefinition task, CollectionJobRecord job) {
    return readiness.whyWaiting(task, job);
  }

  /** Steps a leader-selected job: chooses its batch if needed, waits, then as a time interval. */
  private Outcome stepLeaderSelected(TaskDefinition task, CollectionJobLease leased,
      CollectionJobReq cjr) {
    TaskId taskId = task.taskId();
    Optional<BatchIdentifier> chosen = leased.job().batch().equals(UNCHOSEN)
        ? chooseBatch(task, leased.job()) : Optional.of(leased.job().batch());
    if (chosen.isEmpty()) {
      return postpone(leased, Outcome.WAITING);
    }
    BatchIdentifier batch = chosen.get();
    BatchSelector selector = BatchSelector.decode(batch.bytes());
    Optional<NoisedAggregateShare> drawn = store.inTaskTransaction(taskId,
        tx -> tx.releases().noisedShare(batch));
    AggregateShareReq req;
    if (drawn.isPresent()) {
      req = new AggregateShareReq(cjr, selector, drawn.get().reportCount(),
          drawn.get().checksum());
    } else {
      boolean active = store.inTaskTransaction(taskId,
          tx -> tx.aggregationJobs().leaderActive(batch));
      Optional<BatchAggregation> bucket = store.inTaskTransaction(taskId,
          tx -> tx.batchBuckets().get(batch));
      if (active || bucket.isEmpty() || Long.compareUnsigned(bucket.get().reportCount(),
          task.configuration().minBatchSize()) < 0) {
        return postpone(leased, Outcome.WAITING);
      }
      req = new AggregateShareReq(cjr, selector, bucket.get().reportCount(),
          bucket.get().checksum());
    }
    Interval span = store.inTaskTransaction(taskId,
        tx -> tx.aggregationJobs().leaderReportSpan(batch))
        .map(t -> Interval.of(t[0], t[1] - t[0] + 1)).orElse(Interval.of(0, 0));
    return obtainShares(task, leased, req, drawn.isPresent(), span);
  }

  /**
   * Releases the Leader's share (persisted, noised once) and only then asks the Helper, and
   * stores the CollectionJobResp under the lease.
   */
  private Outcome obtainShares(TaskDefinition task, CollectionJobLease leased,
      AggregateShareReq req, boolean drawnBefore, Interval interval) {
    ReleasedAggregateShare mine;
    try {
      // persists this Leader's noised share (drawn once) and its ciphertext before the Helper
      // hears of the batch
      mine = shares.release(task, req, tx -> !CollectionReadiness.stillAggregating(tx, req.batchSelector()));
    } catch (NoisedShareService.NotReady r) {
      // an aggregation job claimed reports of the batch after the readiness check: it must
      // finish (and the Helper commit them) before the batch is released
      return postpone(leased, Outcome.WAITING);
    } catch (Refusal r) {
      if (!drawnBefore && (r.is(DapError.BATCH_MISMATCH)
          || r.is(DapError.INVALID_BATCH_SIZE))) {
        // an aggregation job committed between the reads above and the release: nothing was
        // drawn (the release rolled back), try again later
        return postpone(leased, Outcome.WAITING);
      }
      return fail(leased, r.error().type(), r.detail());
    }
    AggregateShare theirs;
    try {
      theirs = helper.aggregateShare(task, req);
    } catch (HelperPeer.HelperException e) {
      if (e.retryable()) {
        return postpone(leased, Outcome.HELPER_RETRY);
      }
      return fail(leased, e.error().map(DapError::type)
          .or(() -> e.prioDpType().map(ProblemType::type)).orElse(null),
          "the Helper refused the aggregate share request: " + e.getMessage());
    }
    AggregateShare leaderShare = AggregateShare.decode(mine.aggregateShare().toByteArray());
    CollectionJobResp resp = new CollectionJobResp(req.reportCount(), interval,
        leaderShare.encryptedAggregateShare(), theirs.encryptedAggregateShare());
    Instant now = clock.instant();
    if (!store.jobLeases().finishCollectionJob(leased, CollectionJobRecord.State.READY,
        ByteString.copyOf(resp.encode()), null, null, now)) {
      return Outcome.LEASE_LOST;
    }
    observer.collectionJob(task.taskId(), PipelineObserver.CollectionState.READY,
        Optional.of(Duration.between(leased.job().createdAt(), now)));
    return Outcome.READY;
  }

  private Outcome postpone(CollectionJobLease leased, Outcome outcome) {
    Instant now = clock.instant();
    return store.jobLeases().postponeCollectionJob(leased, now.plus(retryDelay), now)
        ? outcome : Outcome.LEASE_LOST;
  }

  private Outcome fail(CollectionJobLease leased, String type, String detail) {
    if (!store.jobLeases().finishCollectionJob(leased, CollectionJobRecord.State.FAILED, null,
        type, detail, clock.instant())) {
      return Outcome.LEASE_LOST;
    }
    observer.collectionJob(leased.job().taskId(), PipelineObserver.CollectionState.FAILED,
        Optional.empty());
    return Outcome.FAILED;
  }
}
