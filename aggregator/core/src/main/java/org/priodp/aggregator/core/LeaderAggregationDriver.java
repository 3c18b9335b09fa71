package org.priodp.aggregator.core;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.priodp.aggregator.dap.AggregationJobExtension;
import org.priodp.aggregator.dap.AggregationJobId;
import org.priodp.aggregator.dap.AggregationJobInitReq;
import org.priodp.aggregator.dap.AggregationJobResp;
import org.priodp.aggregator.dap.BatchId;
import org.priodp.aggregator.dap.BatchMode;
import org.priodp.aggregator.dap.BatchSelector;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.ReportError;
import org.priodp.aggregator.dap.ReportId;
import org.priodp.aggregator.dap.Role;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.dap.VerifyInit;
import org.priodp.aggregator.dap.VerifyResp;
import org.priodp.aggregator.datastore.AggregationJobRepository;
import org.priodp.aggregator.datastore.BatchIdentifier;
import org.priodp.aggregator.datastore.CollectedInterval;
import org.priodp.aggregator.datastore.Datastore;
import org.priodp.aggregator.datastore.LeaderAggregationJob;
import org.priodp.aggregator.datastore.LeasedAggregationJob;
import org.priodp.aggregator.datastore.VdafVerifyKey;
import org.priodp.field.FieldVector;
import org.priodp.vdaf.Prio3;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Leader's aggregation driver (DAP-18 "Verifying and Aggregating Reports", "Leader
 * Initialization", "Leader Continuation", "Batch Buckets", "Aggregation Job Abandonment and
 * Deletion", "Distributed Systems and Synchronization Concerns") for Prio3, whose verification
 * takes one round, over a {@link HelperPeer}.
 *
 * <p><b>Job creation</b> ({@link #createJobs}): in one task transaction, up to {@code jobSize}
 * unclaimed client reports, oldest first, are claimed by a new {@code active} job with a free
 * lease, if at least {@code minJobSize} are pending.
 *
 * <p><b>Stepping</b> ({@link #stepOnce}): one active job whose lease is free or expired is
 * leased (a fresh token, an expiry, renewed while it is stepped: {@link LeaseHeartbeat}) in a
 * short transaction of its own; then, outside any
 * transaction, each report is decoded and goes through the {@link ReportIntake} the Helper shares
 * (the Leader's input share opened with this aggregator's HPKE keys, validated, Prio3's {@code
 * verify_init}) and {@link PingPong#leaderInitialized}; a report that fails is rejected here with
 * its report error (logged, with the counts of each error per job) and not sent. The
 * AggregationJobInitReq is a function of
 * the job's reports alone (same reports, in the order of the salt fixed at the job's first
 * attempt so that no two jobs of a task send the same request, the verification_key_id chosen at
 * the job's first attempt and stored with it, see {@link VdafVerifyKeys}), so
 * a retry, by this process or by another after a crash, sends identical bytes and the Helper
 * answers from its stored job. The answer must list the same report IDs in the same order (else
 * the job is abandoned); each {@code continue} carrying the ping-pong {@code finish} completes the
 * Leader's verification ({@link PingPong#leaderContinued}). Then, in ONE task transaction: the
 * lease token must still be ours (else
 * the work is dropped: another lessee owns the job), reports already in {@code
 * aggregated_reports}, whose bucket was collected or older than the retention cutoff are
 * skipped, the output shares are merged into the same time-interval buckets the Helper writes
 * (sum, count, checksum XOR SHA-256(report ID)), the report IDs recorded, and the job marked
 * {@code finished}; reports the Helper rejected retryably (report_too_early, DAP-19
 * unknown_verification_key_id) go back to the pool, with a backoff, at most {@link
 * #MAX_PLACEMENTS} times. A Helper failure the operator can fix (unreachable, 5xx, timeouts,
 * 401/403/404) frees the lease for a later attempt with backoff; a refusal of the request itself,
 * or more than {@code maxAttempts} leases that ended without an answer, abandons the job with its
 * detail.
 *
 * <p>Leader-selected tasks: each job is assigned a batch when it is created, in the same task
 * transaction: a batch for which the task's jobs have claimed fewer than min_batch_size reports,
 * else a new random batch ID; the request carries it in the
 * leader_selected_batch_id extension and both sides add the job's output shares to that batch's
 * bucket (a batch whose noised share exists counts as collected). Thread-safe; {@link #start}
 * runs workers on the injected executor until {@link #close}; job and batch IDs and lease tokens
 * come from the injected random generator, times from the injected clock.
 */
public final class LeaderAggregationDriver implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LeaderAggregationDriver.class);

  /**
   * The driver's settings: reports per job (at most {@code jobSize}, at least {@code
   * minJobSize}), the lease duration, how many leases that ended without an answer (a crash, not
   * a Helper failure) a job gets before it is abandoned, the first delay before a job whose
   * Helper call failed is leased again (doubling per failure, at most an hour), the worker
   * threads and the idle poll interval.
   */
  public record Options(int jobSize, int minJobSize, Duration leaseDuration, int maxAttempts,
      Duration retryDelay, int workers, Duration pollInterval) {
    /**
     * The default lease: 30 s, renewed every 10 s while the job is stepped ({@link
     * LeaseHeartbeat}), so that a stopped replica's job is taken over within about 30 s plus one
     * poll; a replica paused (GC, VM) for longer than the lease loses its job to another, which
     * redoes it (safe: the commit checks the lease token and the Helper answers the repeated
     * request from its stored job).
     */
    public static final Duration DEFAULT_LEASE = Duration.ofSeconds(30);

    /** Validates the settings. */
    public Options {
      if (jobSize < 1 || minJobSize < 1 || minJobSize > jobSize) {
        throw new IllegalArgumentException("need 1 <= minJobSize <= jobSize, got " + minJobSize
            + " and " + jobSize);
      }
      if (maxAttempts < 1 || workers < 1) {
        throw new IllegalArgumentException("maxAttempts and workers must be >= 1");
      }
      for (Duration d : new Duration[] {leaseDuration, retryDelay, pollInterval}) {
        if (Objects.requireNonNull(d, "duration").isNegative() || d.isZero()) {
          throw new IllegalArgumentException("durations must be positive: " + d);
        }
      }
    }

    /**
     * The defaults: jobs of up to 1000 reports (at least 1), {@link #DEFAULT_LEASE} leases, 10
     * attempts, a retry after 30 s, 2 workers polling every second.
     */
    public static Options defaults() {
      return new Options(1000, 1, DEFAULT_LEASE, 10, Duration.ofSeconds(30), 2,
          Duration.ofSeconds(1));
    }
  }

  /** What {@link #stepOnce} did. */
  public enum Outcome {
    /** No job was available. */
    IDLE,
    /** Both sides' outcomes were committed. */
    FINISHED,
    /** The Helper failed retryably; the job stays active for a later lease. */
    RETRY_LATER,
    /** The job was given up. */
    ABANDONED,
    /** Another lessee owns the job now (our lease expired); our work was dropped. */
    LEASE_LOST
  }

  /**
   * How long a report the Helper rejected with a retryable report error (report_too_early, or at
   * DAP-19 unknown_verification_key_id) waits after its first placement before a new job may take
   * it; the wait doubles with each further placement, up to {@link #MAX_REQUEUE_DELAY}: a Helper
   * whose clock is behind, or that lacks the Leader's keys, is not asked again in a tight loop.
   */
  public static final java.time.Duration REQUEUE_DELAY = java.time.Duration.ofMinutes(1);

  /** The longest wait between two placements of a report, and between two failed attempts. */
  public static final Duration MAX_REQUEUE_DELAY = Duration.ofHours(1);

  /** How many jobs a report is placed in before a retryable rejection gives it up for good. */
  public static final int MAX_PLACEMENTS = 10;

  private final Datastore store;
  private final HelperTrouble trouble;
  private final HelperPeer peer;
  private final java.util.function.Supplier<List<TaskDefinition>> tasks;
  private final Clock clock;
  private final Options options;
  private final String owner;
  private final SecureRandom random;
  private final Executor executor;
  private final ReportIntake intake;
  private final VdafVerifyKeys verifyKeys;
  private final PipelineObserver observer;
  private final AtomicBoolean running = new AtomicBoolean();
  private final LeaseHeartbeat heartbeat;
  private final Map<AggregationJobId, LeaseHeartbeat.Held> stepping = new ConcurrentHashMap<>();
  private final Set<Thread> looping = ConcurrentHashMap.newKeySet();
  private volatile CountDownLatch stopped = new CountDownLatch(0);
  /** Per task, the Helper calls that failed in a row (for "reachable again"). */
  /** Per task, when the Helper's clock skew was last logged. */
  private final java.util.concurrent.atomic.AtomicLong givenUp =
      new java.util.concurrent.atomic.AtomicLong();

  /**
   * Creates the driver for the Leader tasks among {@code tasks} (others are ignored; a
   * task without a VDAF verification key is skipped with a warning), over the Leader's store
   * and HPKE keys, calling the Helper through {@code peer}, reading time from {@code clock},
   * drawing IDs and lease tokens from {@code random} and running {@link #start}'s workers on
   * {@code executor}, which must run {@link Options#workers()} tasks at once; {@code owner} names
   * this process in leases. The Leader tolerates the upload's clock skew ({@link
   * UploadService#DEFAULT_CLOCK_SKEW}) before a report is too early.
   */
  public LeaderAggregationDriver(Datastore store, HelperHpkeKeys keys, HelperPeer peer,
      List<TaskDefinition> tasks, Clock clock, SecureRandom random, Executor executor,
      Options options, String owner) {
    this(store, keys, peer, listOf(tasks), clock, random, executor, options, owner);
    for (TaskDefinition t : tasks) {
      if (t.role() == Role.LEADER && !t.canAggregate()) {
        LOG.warn("task {} has no vdaf_verify_key: it cannot aggregate", t.taskId().toBase64Url());
      }
    }
  }

  /**
   * Creates the driver as above for the tasks {@code tasks} supplies at each round, so that it
   * takes up tasks added while it runs (the Leader tasks among them that have a VDAF
   * verification key; the supplier must be thread-safe).
   */
  public LeaderAggregationDriver(Datastore store, HelperHpkeKeys keys, HelperPeer peer,
      java.util.function.Supplier<List<TaskDefinition>> tasks, Clock clock, SecureRandom random,
      Executor executor, Options options, String owner) {
    this(store, keys, peer, tasks, clock, random, executor, options, owner,
        PipelineObserver.NONE);
  }

  /**
   * Creates the driver as above, telling {@code observer} how each step of a job ended, with the
   * reports a finished job counted and rejected.
   */
  public LeaderAggregationDriver(Datastore store, HelperHpkeKeys keys, HelperPeer peer,
      java.util.function.Supplier<List<TaskDefinition>> tasks, Clock clock, SecureRandom random,
      Executor executor, Options options, String owner, PipelineObserver observer) {
    this.observer = Objects.requireNonNull(observer, "observer");
    this.tasks = Objects.requireNonNull(tasks, "tasks");
    this.store = Objects.requireNonNull(store, "store");
    this.peer = Objects.requireNonNull(peer, "peer");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.random = Objects.requireNonNull(random, "random");
    this.executor = Objects.requireNonNull(executor, "executor");
    this.options = Objects.requireNonNull(options, "options");
    this.owner = Objects.requireNonNull(owner, "owner");
    this.heartbeat = new LeaseHeartbeat(clock, options.leaseDuration());
    this.intake = new ReportIntake(keys, clock, UploadService.DEFAULT_CLOCK_SKEW);
    this.verifyKeys = new VdafVerifyKeys(store, clock);
    this.trouble = new HelperTrouble(clock);
    peer.addClockListener(trouble::helperClock);
  }

  /**
   * Returns how many reports this driver gave up for good after {@link #MAX_PLACEMENTS}
   * placements since it started.
   */
  public long reportsGivenUp() {
    return givenUp.get();
  }

  private static java.util.function.Supplier<List<TaskDefinition>> listOf(
      List<TaskDefinition> tasks) {
    List<TaskDefinition> copy = List.copyOf(tasks);
    return () -> copy;
  }

  /** Returns the tasks it aggregates now, by ID: the Leader tasks with a verification key. */
  private Map<TaskId, TaskDefinition> served() {
    Map<TaskId, TaskDefinition> m = new LinkedHashMap<>();
    for (TaskDefinition t : tasks.get()) {
      if (t.role() == Role.LEADER && t.canAggregate()) {
        m.put(t.taskId(), t);
      }
    }
    return m;
  }

  /** Returns the tasks this driver aggregates. */
  public List<TaskDefinition> tasks() {
    return List.copyOf(served().values());
  }

  private Instant now() {
    return clock.instant().truncatedTo(ChronoUnit.MILLIS);
  }

  /** Creates jobs of every task while enough unclaimed reports are pending; returns how many. */
  public int createJobs() {
    int created = 0;
    for (TaskDefinition t : served().values()) {
      while (true) {
        AggregationJobId id = AggregationJobId.random(random);
        Optional<LeaderAggregationJob> job = store.inTaskTransaction(t.taskId(),
            tx -> t.configuration().batchMode() == BatchMode.COLLECTOR_SELECTED // attribution 4
                ? tx.aggregationJobs().createLeaderOfUploadedBatch(id, options.jobSize(), now())
                : tx.aggregationJobs().createLeader(id, options.jobSize(), options.minJobSize(),
                batchFor(t, tx), now()));
        if (job.isEmpty()) {
          break;
        }
        created++;
        LOG.debug("task {}: aggregation job {} with {} reports", t.taskId().toBase64Url(),
            id.toBase64Url(), job.get().reportCount());
      }
    }
    return created;
  }

  /**
   * Returns the batch a new job of a leader-selected task goes to (empty for time-interval): a
   * batch for which the task's jobs have claimed fewer than min_batch_size reports, else a new
   * random batch ID (DAP-18 "Leader-Selected Batch Mode": the Leader assigns
   * reports to batches).
   */
  private Optional<BatchIdentifier> batchFor(TaskDefinition task,
      org.priodp.aggregator.datastore.TaskTransaction tx) {
    if (task.configuration().batchMode() != BatchMode.LEADER_SELECTED) {
      return Optional.empty();
    }
    long target = Math.max(1, task.configuration().minBatchSize());
    Optional<org.priodp.aggregator.datastore.AggregationJobRepository.LeaderBatchFill> open =
        tx.aggregationJobs().openLeaderBatch(target);
    if (open.isPresent()) {
      return Optional.of(open.get().batch());
    }
    byte[] b = new byte[BatchId.LENGTH];
    random.nextBytes(b);
    return Optional.of(BatchBuckets.leaderSelectedBucket(new BatchId(b)));
  }

  /** Returns the batch ID of a leader-selected bucket identifier. */
  private static BatchId batchId(BatchIdentifier bucket) {
    return ((BatchSelector.LeaderSelected) BatchSelector.decode(bucket.bytes())).batchId();
  }

  /** Leases one available job and steps it to its end or to a retry; returns what happened. */
  public Outcome stepOnce() {
    Optional<LeaderAggregationJob> job = lease();
    return job.isEmpty() ? Outcome.IDLE : step(job.get());
  }

  /** Creates jobs, then steps jobs until none is available; returns the jobs finished. */
  public int runOnce() {
    createJobs();
    int finished = 0;
    for (Outcome o = stepOnce(); o != Outcome.IDLE; o = stepOnce()) {
      if (o == Outcome.FINISHED) {
        finished++;
      }
    }
    return finished;
  }

  /**
   * Leases one active job whose lease is free or expired, with a fresh token; logs a takeover of
   * another replica's expired lease (DAP-18 "Distributed Systems and Synchronization Concerns").
   */
  public Optional<LeaderAggregationJob> lease() {
    byte[] token = new byte[16];
    random.nextBytes(token);
    Optional<LeasedAggregationJob> leased = store.jobLeases().takeAggregationJob(
        served().keySet(), owner, ByteString.copyOf(token), now(), options.leaseDuration());
    leased.ifPresent(l -> l.takeover().ifPresent(t -> LOG.warn("aggregation job {} of task {}:"
        + " taking over from replica {}, whose lease expired at {} (was it stopped?)",
        l.job().jobId().toBase64Url(), l.job().taskId().toBase64Url(), t.previousOwner(),
        t.expiredAt())));
    return leased.map(LeasedAggregationJob::job);
  }

  /**
   * Frees every lease held under this driver's owner name, aggregation and collection jobs of
   * any task (DAP-18 "Distributed Systems and Synchronization Concerns"): called at startup
   * before any worker runs, when no worker of this replica holds one, so the jobs its previous
   * run held (stopped, or killed) are taken up at once instead of after their lease. Returns how
   * many it freed.
   */
  public int reclaimLeases() {
    int freed = store.jobLeases().releaseLeasesOf(owner, now());
    if (freed > 0) {
      LOG.info("replica {}: freed {} job lease(s) held by its previous run, to be taken up now",
          owner, freed);
    }
    return freed;
  }

  /**
   * Renews the lease of every job being stepped to now plus the lease (the heartbeat does so
   * every third of the lease); returns how many were found lost.
   */
  public int renewLeases() {
    return heartbeat.renewAll();
  }

  /** Keeps the lease of a job being stepped until the returned handle is closed. */
  private LeaseHeartbeat.Held keepLease(LeaderAggregationJob job, ByteString token) {
    LeaseHeartbeat.Held held = heartbeat.hold("aggregation job " + job.jobId().toBase64Url(),
        expires -> renew(job, token, expires));
    stepping.put(job.jobId(), held);
    return held;
  }

  private boolean renew(LeaderAggregationJob job, ByteString token, Instant expires) {
    if (store.jobLeases().renewAggregationJob(job.taskId(), job.jobId(), token, expires)) {
      return true;
    }
    LeaseHeartbeat.lost("aggregation job " + job.jobId().toBase64Url(), owner,
        store.inTaskTransaction(job.taskId(), tx -> tx.aggregationJobs().leader(job.jobId()))
            .flatMap(LeaderAggregationJob::leaseOwner));
    return false;
  }

  /** Throws LeaseLost if the heartbeat found the job's lease gone. */
  private void checkLease(AggregationJobId jobId) {
    LeaseHeartbeat.Held held = stepping.get(jobId);
    if (held != null && held.lost()) {
      throw new LeaseLost();
    }
  }

  /** Steps a job this driver leased ({@link #lease}); returns what happened. */
  public Outcome step(LeaderAggregationJob job) {
    Outcome o = stepLeased(job);
    if (o != Outcome.FINISHED) { // a finished job is told with its counts by run
      observer.leaderJob(job.taskId(), switch (o) {
        case ABANDONED -> PipelineObserver.JobOutcome.ABANDONED;
        case LEASE_LOST -> PipelineObserver.JobOutcome.LEASE_LOST;
        default -> PipelineObserver.JobOutcome.RETRY;
      }, 0, Map.of());
    }
    return o;
  }

  private Outcome stepLeased(LeaderAggregationJob job) {
    TaskDefinition task = served().get(job.taskId());
    ByteString token = job.leaseToken().orElseThrow(() ->
        new IllegalArgumentException("the job is not leased"));
    if (task == null) {
      store.jobLeases().releaseAggregationJob(job.taskId(), job.jobId(), token, now(),
          "task not served by this driver");
      return Outcome.RETRY_LATER;
    }
    // attempts a fixable Helper failure explains do not count: only leases that ended some
    // other way (a crash, a lease lost) are bounded
    int failures = store.inTaskTransaction(job.taskId(),
        tx -> tx.aggregationJobs().leaderHelperFailures(job.jobId()));
    if (job.leaseAttempts() - failures > options.maxAttempts()) {
      return abandon(job, token, "gave up after " + options.maxAttempts() + " attempts"
          + job.errorDetail().map(d -> "; last: " + d).orElse(""));
    }
    try (LeaseHeartbeat.Held held = keepLease(job, token)) {
      Outcome done;
      try {
        done = run(task, job, token);
      } finally {
        stepping.remove(job.jobId(), held);
      }
      if (done == Outcome.FINISHED) {
        trouble.answered(job.taskId());
      }
      return done;
    } catch (HelperPeer.HelperException e) {
      if (e.interrupted()) { // stopping: the next run (or another replica) takes the job now
        LOG.info("aggregation job {}: stopped while talking to the Helper; its lease is freed",
            job.jobId().toBase64Url());
        store.jobLeases().releaseAggregationJob(job.taskId(), job.jobId(), token, now(),
            "stopped while talking to the Helper");
        return Outcome.RETRY_LATER;
      }
      if (!e.fixable()) {
        return abandon(job, token, e.getMessage());
      }
      return failed(task, job, token, failures + 1, e);
    } catch (LeaseLost e) {
      LOG.info("aggregation job {}: lease lost to another lessee; work dropped",
          job.jobId().toBase64Url());
      return Outcome.LEASE_LOST;
    }
  }

  /**
   * Keeps a job whose Helper call failed for a cause the operator can fix (see {@link
   * HelperPeer.HelperException#fixable}) for a later attempt with the same request, after {@code
   * retryDelay} doubled per failure up to {@link #MAX_REQUEUE_DELAY}, with one WARN naming the
   * cause and the fix.
   */
  private Outcome failed(TaskDefinition task, LeaderAggregationJob job, ByteString token,
      int failure, HelperPeer.HelperException e) {
    Duration delay = trouble.failed(task, job, failure, e, options.retryDelay());
    store.jobLeases().failAggregationJob(job.taskId(), job.jobId(), token, now().plus(delay),
        e.getMessage());
    return Outcome.RETRY_LATER;
  }

  private Outcome abandon(LeaderAggregationJob job, ByteString token, String detail) {
    LOG.warn("aggregation job {} abandoned: {}", job.jobId().toBase64Url(), detail);
    return store.jobLeases().abandonAggregationJob(job.taskId(), job.jobId(), token, detail, now())
        ? Outcome.ABANDONED : Outcome.LEASE_LOST;
  }

  private Outcome run(TaskDefinition task, LeaderAggregationJob job, ByteString token) {
    TaskId taskId = task.taskId();
    Prio3 prio3 = new Prio3(task.variant());
    Optional<VdafVerifyKey> chosen = LeaderJobRequest.key(store, verifyKeys, task, job, token);
    if (chosen.isEmpty()) {
      LOG.error("task {} has no active VDAF verification key (all retired?): its aggregation job"
          + " {} waits; add one with verify-keys add", taskId.toBase64Url(),
          job.jobId().toBase64Url());
      store.jobLeases().releaseAggregationJob(taskId, job.jobId(), token,
          now().plus(options.retryDelay()), "no active VDAF verification key");
      return Outcome.RETRY_LATER;
    }
    VdafVerifyKey key = chosen.get();
    ReportIntake.Job reports = intake.job(task, prio3, key.key().toByteArray());
    PingPong pingPong = new PingPong(prio3, task.dapVersion(), taskId);
    List<VerifyInit> inits = new ArrayList<>();
    Map<ReportError, Integer> rejected = new EnumMap<>(ReportError.class);
    List<LeaderReports.Initialized> initialized = LeaderReports.initializeClaimed(store, job,
        reports, pingPong, inits, rejected);
    List<FieldVector> outShares = new ArrayList<>();
    List<LeaderReports.Initialized> accepted = new ArrayList<>();
    // reports back to the pool, by the time they wait there
    Map<Duration, List<ReportId>> retry = new LinkedHashMap<>();
    List<ReportId> unsent = new ArrayList<>();
    Map<ReportError, Integer> gaveUp = new EnumMap<>(ReportError.class);
    boolean helperKnewKey = true;
    boolean answered = false;
    if (!inits.isEmpty()) {
      List<AggregationJobExtension> extensions = job.batch().isEmpty() ? List.of()
          : List.of(AggregationJobExtension.leaderSelectedBatchId(batchId(job.batch().get())));
      Map<ReportId, Integer> placements = store.inTaskTransaction(taskId,
          tx -> tx.clientReports().placements(job.jobId()));
      Optional<LeaderJobRequest> fixed = LeaderJobRequest.fix(store, task, job, token, key, extensions, initialized, inits);
      if (fixed.isEmpty()) {
        // every order of these reports was sent before: they wait in the pool for company
        initialized.forEach(in -> unsent.add(in.reportId()));
        initialized = List.of();
      } else {
        initialized = fixed.get().order();
      }
      if (fixed.isPresent()) {
        checkLease(job.jobId());
      }
      AggregationJobResp resp = fixed.isEmpty() ? null
          : peer.initializeAggregationJob(task, fixed.get().req());
      answered = resp != null;
      if (resp != null && !resp.reportIds().equals(fixed.get().req().reportIds())) {
        return abandon(job, token, "the Helper's AggregationJobResp lists other report IDs"
            + " (or another order) than the request");
      }
      for (int i = 0; i < initialized.size(); i++) {
        LeaderReports.Initialized in = initialized.get(i);
        VerifyResp answer = resp.verifyResps().get(i);
        if (answer.result() instanceof VerifyResp.Reject r
            && task.dapVersion().mayRetry(r.reportError())) {
          // DAP-19 (and DAP-18) "Leader Initialization": the report may go into a later job
          // (a clock that catches up, a key the Helper knows); it returns to the pool,
          // unaggregated, after a wait that doubles per placement, and is given up after
          // MAX_PLACEMENTS (it stays claimed by this finished job)
          LeaderReports.reject(rejected, in.reportId(), r.reportError());
          if (r.reportError() == ReportError.UNKNOWN_VERIFICATION_KEY_ID) {
            helperKnewKey = false;
          }
          int placed = placements.getOrDefault(in.reportId(), 1);
          if (placed >= MAX_PLACEMENTS) {
            gaveUp.merge(r.reportError(), 1, Integer::sum);
          } else {
            retry.computeIfAbsent(HelperTrouble.backoff(REQUEUE_DELAY, placed), d -> new ArrayList<>())
                .add(in.reportId());
          }
          continue;
        }
        Optional<FieldVector> out = LeaderReports.finish(pingPong, in, answer, rejected);
        if (out.isPresent()) {
          accepted.add(in);
          outShares.add(out.get());
        }
      }
    }
    int[] counted = {0};
    boolean knew = helperKnewKey;
    boolean sent = answered;
    store.inTaskTransaction(taskId, tx -> {
      Optional<LeaderAggregationJob> now = tx.aggregationJobs().leader(job.jobId());
      if (now.isEmpty() || now.get().state() != LeaderAggregationJob.State.ACTIVE
          || !now.get().leasedWith(token)) {
        throw new LeaseLost();
      }
      Map<BatchIdentifier, AggregationJobService.Bucket> buckets = new LinkedHashMap<>();
      Optional<Long> cutoff = tx.retention().cutoff();
      List<CollectedInterval> collected = tx.releases().collectedIntervals();
      java.util.Set<ReportId> replayed = tx.clientReports().aggregatedAmong(
          accepted.stream().map(LeaderReports.Initialized::reportId).toList());
      Map<ReportId, Long> committed = new LinkedHashMap<>();
      for (int i = 0; i < accepted.size(); i++) {
        LeaderReports.Initialized in = accepted.get(i);
        long time = in.time();
        if (cutoff.isPresent() && Long.compareUnsigned(time, cutoff.get()) < 0) {
          continue; // report_dropped on the Helper too
        }
        BatchIdentifier bucket = job.batch().orElseGet(() -> BatchBuckets.timeIntervalBucket(time));
        if (job.batch().isPresent() ? tx.releases().noisedShare(bucket).isPresent()
            : LeaderReports.collected(collected, time)) {
          continue; // batch_collected
        }
        if (replayed.contains(in.reportId())) {
          continue; // already counted (report_replayed)
        }
        buckets.computeIfAbsent(bucket,
            k -> AggregationJobService.Bucket.load(tx, task, prio3, k))
            .add(outShares.get(i), in.reportId(), time, in.budget());
        committed.put(in.reportId(), time);
      }
      tx.clientReports().insertAggregated(job.jobId(), committed);
      retry.forEach((wait, ids) -> tx.clientReports().unclaim(job.jobId(), ids, now().plus(wait)));
      if (!unsent.isEmpty()) {
        tx.clientReports().unclaimUnsent(job.jobId(), unsent, now().plus(MAX_REQUEUE_DELAY));
      }
      if (sent) {
        VdafVerifyKeys.recordHelperAnswer(tx, key, knew, now());
      }
      counted[0] = committed.size();
      PipelineCounters.add(tx, PipelineCounters.LEADER_COUNTED, committed.size(),
          PipelineCounters.LEADER_REJECTED, rejected);
      for (AggregationJobService.Bucket b : buckets.values()) {
        b.store(tx, task);
      }
      tx.aggregationJobs().finishLeader(job.jobId(), now());
      return null;
    });
    LeaderReports.logJob(job, counted[0], rejected, retry, unsent, gaveUp, helperKnewKey, key);
    givenUp.addAndGet(gaveUp.values().stream().mapToInt(Integer::intValue).sum());
    observer.leaderJob(taskId, PipelineObserver.JobOutcome.FINISHED, counted[0], rejected);
    return Outcome.FINISHED;
  }

  /**
   * Starts {@link Options#workers()} workers on the executor: each creates jobs, steps jobs until
   * idle, then sleeps.
   */
  public synchronized void start() {
    if (!running.compareAndSet(false, true)) {
      throw new IllegalStateException("already started");
    }
    stopped = new CountDownLatch(options.workers());
    heartbeat.start();
    for (int i = 0; i < options.workers(); i++) {
      executor.execute(this::loop);
    }
  }

  private void loop() {
    Thread self = Thread.currentThread();
    looping.add(self);
    try {
      work();
    } finally {
      looping.remove(self);
      stopped.countDown();
    }
  }

  private void work() {
    while (running.get()) {
      try {
        createJobs();
        while (running.get() && stepOnce() != Outcome.IDLE) {
          // next job
        }
      } catch (RuntimeException e) {
        if (!running.get()) {
          break;
        }
        LOG.error("aggregation driver: {}", e.toString());
      }
      try {
        Thread.sleep(options.pollInterval().toMillis());
      } catch (InterruptedException e) {
        break;
      }
    }
  }

  /**
   * Stops the workers: no new lease is taken, a job being stepped finishes (10 s at most; one
   * cut short stays active and is leased again once its lease expires).
   */
  @Override
  public synchronized void close() {
    if (!running.compareAndSet(true, false)) {
      return;
    }
    try {
      if (!stopped.await(10, TimeUnit.SECONDS)) {
        looping.forEach(Thread::interrupt);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      heartbeat.close();
    }
  }
}
