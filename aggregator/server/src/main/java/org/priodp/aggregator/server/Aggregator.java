package org.priodp.aggregator.server;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.priodp.aggregator.core.AggregationJobService;
import org.priodp.aggregator.core.CollectionJobService;
import org.priodp.aggregator.core.CollectorIdentityCheck;
import org.priodp.aggregator.core.HelperHpkeKeys;
import org.priodp.aggregator.core.HelperPeer;
import org.priodp.aggregator.core.LeaderAggregationDriver;
import org.priodp.aggregator.core.NoisedShareService;
import org.priodp.aggregator.core.PipelineObserver;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.core.UploadService;
import org.priodp.aggregator.datastore.Datastore;

/**
 * A running aggregator built from one {@link AggregatorConfig}: the one place that wires the
 * services of both DAP-18 roles ("Uploading Reports", "Aggregating Reports", "Collecting
 * Results"), their routes ({@link DapRouter}), the HTTP server ({@link AggregatorServer}) and the
 * background work. Every service shares the configuration's store, clock, randomness and HPKE key
 * ring, and the routes and drivers read the tasks from one {@link TaskRegistry}, which starts
 * with the configuration's tasks and may grow ({@link #tasks()}); every task's resources are
 * served:
 *
 * <ul>
 *   <li>Helper tasks: aggregation jobs and aggregate shares, synchronous or asynchronous;
 *   <li>Leader tasks: reports; with a {@link AggregatorConfig#helperPeer} also the collection
 *       jobs, stepped by a {@link CollectionJobDriver}, and the {@link LeaderAggregationDriver};
 *   <li>both: {@code hpke_config}, and with a report retention a {@link RetentionCollector}.
 * </ul>
 *
 * {@link #start} listens and starts the background work; {@link #close} stops it all: the
 * retention rounds, the Leader's drivers, then the HTTP server (requests in flight finish, 10 s
 * at most), then the pools it owns (running jobs finish, 10 s at most; a job not started stays
 * pending in the store). The caller owns and closes the store.
 */
public final class Aggregator implements AutoCloseable {
  /** How long after start the first retention round runs. */
  static final Duration RETENTION_FIRST_ROUND = Duration.ofSeconds(30);
  /** The Retry-After (seconds) of the asynchronous answers. */
  private static final int RETRY_AFTER_SECONDS = 1;

  private final AggregatorConfig config;
  private final TaskRegistry tasks;
  private final HelperHpkeKeys hpkeKeys;
  private final NoisedShareService noisedShares;
  private final AggregationJobService aggregationJobs;
  private final AggregatorServer server;
  private final Optional<CollectionJobDriver> collectionJobs;
  private final Optional<LeaderAggregationDriver> leaderAggregation;
  private final Optional<RetentionCollector> retention;
  private final Optional<PipelineGauges> gauges;
  private final List<ExecutorService> pools = new ArrayList<>();
  private boolean closed;

  private Aggregator(AggregatorConfig config) {
    this.config = config;
    Datastore store = config.datastore();
    PipelineObserver observer = config.metrics().andThen(config.pipelineObserver());
    tasks = new TaskRegistry(config.tasks());
    hpkeKeys = new HelperHpkeKeys(store, config.random(), config.clock());
    noisedShares = new NoisedShareService(store, config.noise(), config.clock(),
        config.releaseObserver(), observer,
        new CollectorIdentityCheck(config.collectorAuthorization()));
    aggregationJobs = new AggregationJobService(store, hpkeKeys, config.clock(),
        AggregationJobService.DEFAULT_CLOCK_SKEW, observer, config.verification());
    DapRouter.Builder router = DapRouter.builder(tasks, store)
        .metrics(config.metrics()).clock(config.clock()).hpkeKeys(hpkeKeys)
        .reports(new ReportsRoute(new UploadService(store, hpkeKeys, config.clock(),
            UploadService.DEFAULT_CLOCK_SKEW, observer)));
    if (config.asyncAggregation()) {
      router.aggregationJobs(AggregationJobsRoute.asynchronous(aggregationJobs,
          executor(config.aggregationJobExecutor(), 2, "priodp-aggregation-job"),
          RETRY_AFTER_SECONDS));
      router.aggregateShares(noisedShares, new AggregateSharesRoute.AsyncShares(
          executor(config.aggregateShareExecutor(), 1, "priodp-aggregate-share"),
          RETRY_AFTER_SECONDS));
    } else {
      router.aggregationJobs(AggregationJobsRoute.synchronous(aggregationJobs));
      router.aggregateShares(noisedShares);
    }
    config.mount().ifPresent(m -> router.mount(m.apply(tasks)));
    config.adminToken().ifPresent(router::adminToken);
    Optional<HelperPeer> peer = config.helperPeer().map(p -> p.observedBy(observer));
    collectionJobs = peer.map(p -> {
      CollectionJobService service = new CollectionJobService(store, noisedShares, p,
          config.clock(), config.leaderAggregation().leaseDuration(),
          CollectionJobService.DEFAULT_RETRY_DELAY, config.replicaId(), observer);
      router.collectionJobs(new CollectionJobsRoute(service, RETRY_AFTER_SECONDS,
          DapRouter.DEFAULT_MAX_BODY, store, config.clock()));
      return new CollectionJobDriver(service, tasks::leaderTasks,
          CollectionJobDriver.DEFAULT_WORKERS,
          CollectionJobDriver.DEFAULT_POLL);
    });
    leaderAggregation = peer.map(p -> new LeaderAggregationDriver(store, hpkeKeys, p,
        tasks::leaderTasks,
        config.clock(), config.random(), new DaemonThreads("priodp-leader-aggregation"),
        config.leaderAggregation(), config.replicaId(), observer));
    // the pipeline gauges of the Leader's tasks (with a Helper peer), the budget gauges of all
    gauges = Optional.of(new PipelineGauges(store,
        peer.isPresent() ? tasks::leaderTasks : List::of, tasks::tasks, config.metrics(),
        config.clock()));
    retention = config.reportRetention().map(r -> new RetentionCollector(aggregationJobs,
        tasks::tasks, r, config.metrics().registry()));
    server = new AggregatorServer(router.build());
  }

  /**
   * Builds the aggregator of the configuration and starts it: generates an HPKE key if so
   * configured, listens (throws IllegalStateException naming the address and the reason when it
   * cannot, having released everything), then frees the job leases held under the
   * configuration's replica ID (its previous run's: none of its workers runs yet), starts the
   * Leader's collection and aggregation drivers and the retention rounds.
   */
  public static Aggregator start(AggregatorConfig config) {
    Aggregator a = new Aggregator(config);
    try {
      if (config.hpkeKeyAtStart()) {
        a.hpkeKeys.ensureActive();
      }
      a.server.start(config.bindAddress(), config.port(), config.tls().orElse(null));
      // no worker of this replica runs yet: the leases under its name are its previous run's
      a.leaderAggregation.ifPresent(LeaderAggregationDriver::reclaimLeases);
      a.collectionJobs.ifPresent(CollectionJobDriver::start);
      a.retention.ifPresent(r -> r.start(RETENTION_FIRST_ROUND, RetentionCollector.DEFAULT_PERIOD));
      a.leaderAggregation.ifPresent(LeaderAggregationDriver::start);
      a.gauges.ifPresent(g -> g.start(PipelineGauges.DEFAULT_PERIOD));
      return a;
    } catch (RuntimeException e) {
      a.close();
      throw e;
    }
  }

  /** Returns the configuration it was built from. */
  public AggregatorConfig config() {
    return config;
  }

  /**
   * Returns the tasks it serves: the configuration's, and those {@link TaskRegistry#add added}
   * since, which its routes and drivers take up from their next request or round.
   */
  public TaskRegistry tasks() {
    return tasks;
  }

  /** Returns the bound port. */
  public int port() {
    return server.port();
  }

  /** Returns the router of every request. */
  public DapRouter router() {
    return server.router();
  }

  /** Returns the metrics served at {@code /metrics}. */
  public ServiceMetrics metrics() {
    return config.metrics();
  }

  /** Returns the HPKE key ring advertised at {@code hpke_config}. */
  public HelperHpkeKeys hpkeKeys() {
    return hpkeKeys;
  }

  /** Returns the once-only release of noised aggregate shares (e.g. for its draw counter). */
  public NoisedShareService noisedShares() {
    return noisedShares;
  }

  /** Returns the Helper's aggregation-job service. */
  public AggregationJobService aggregationJobs() {
    return aggregationJobs;
  }

  /** Returns the Leader's aggregation driver, if this aggregator runs one. */
  public Optional<LeaderAggregationDriver> leaderAggregation() {
    return leaderAggregation;
  }

  /** Returns the driver of the Leader's collection jobs, if this aggregator runs one. */
  public Optional<CollectionJobDriver> collectionJobs() {
    return collectionJobs;
  }

  /** Returns the retention collector, if a report retention is configured. */
  public Optional<RetentionCollector> retention() {
    return retention;
  }

  /** Stops everything it started, in order (see the class comment); idempotent. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    retention.ifPresent(RetentionCollector::close);
    gauges.ifPresent(PipelineGauges::close);
    leaderAggregation.ifPresent(LeaderAggregationDriver::close);
    collectionJobs.ifPresent(CollectionJobDriver::close);
    server.stop();
    for (ExecutorService pool : pools) {
      pool.shutdown();
      try {
        pool.awaitTermination(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Returns the given executor, or a pool of daemon threads this aggregator owns. */
  private Executor executor(Optional<Executor> given, int threads, String name) {
    if (given.isPresent()) {
      return given.get();
    }
    ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    });
    pools.add(pool);
    return pool;
  }
}
