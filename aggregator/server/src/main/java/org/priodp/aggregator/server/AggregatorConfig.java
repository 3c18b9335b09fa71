package org.priodp.aggregator.server;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executor;
import org.priodp.aggregator.core.HelperPeer;
import org.priodp.aggregator.core.LeaderAggregationDriver;
import org.priodp.aggregator.core.LeaseHeartbeat;
import org.priodp.aggregator.core.PipelineObserver;
import org.priodp.aggregator.core.ReleaseObserver;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.datastore.Datastore;
import org.priodp.noise.RandomSource;

/**
 * The configuration of one running aggregator, from which {@link Aggregator#start} builds every
 * service, driver and route (DAP-18 "Roles", "HTTP Resources Reference"). Immutable; build it
 * with {@link #builder}, which starts from the production defaults.
 *
 * @param tasks the tasks served, of either role (each under the path of its own endpoint)
 * @param datastore the store; the caller opens and closes it
 * @param bindAddress the address to listen on (default 127.0.0.1)
 * @param port the TCP port (default 0: any free port)
 * @param tls the PEM credentials to serve HTTPS with (default: plain HTTP)
 * @param asyncAggregation whether aggregation jobs and aggregate shares are answered
 *     asynchronously (DAP-18 "Asynchronous Request Handling"; default false)
 * @param helperPeer the Leader's client of its tasks' Helpers; with it the Leader's aggregation
 *     driver and collection jobs run, idle while no Leader task is served (default: none, so
 *     Leader tasks take uploads only)
 * @param leaderAggregation the options of the Leader's aggregation driver; its lease length is
 *     the collection jobs' too
 * @param replicaId the name of this replica in every job lease it takes (DAP-18 "Distributed
 *     Systems and Synchronization Concerns"): stable across restarts of one replica, so that a
 *     restart frees the leases its previous run held, and distinct for each process on one
 *     database (default: {@code host/pid}, which a restart does not reclaim)
 * @param reportRetention how long uploaded reports, report IDs, finished jobs and collected
 *     buckets are kept (DAP-18 "Reducing Storage Requirements"; default: forever)
 * @param hpkeKeyAtStart whether an HPKE key is generated at start when none is active (default
 *     false: on first use)
 * @param metrics the metrics registry served at {@code /metrics}
 * @param clock the clock of every service (default: the system clock in UTC)
 * @param noise the random-bit source of DP noise (default {@link RandomSource#secure()})
 * @param random the generator of HPKE keys (default: a new SecureRandom)
 * @param aggregationJobExecutor where asynchronous aggregation jobs run (default: a pool of two
 *     threads the aggregator owns)
 * @param aggregateShareExecutor where asynchronous aggregate shares are released (default: a
 *     pool of one thread the aggregator owns)
 * @param releaseObserver told of each noised share persisted before it is sealed (default
 *     {@link ReleaseObserver#NONE}; crash tests inject one)
 * @param pipelineObserver told, besides the metrics, of what the pipeline does (uploads, jobs,
 *     Helper calls, collection jobs, first releases; default {@link PipelineObserver#NONE})
 * @param mount builds, from the aggregator's {@link TaskRegistry}, routes served beside the DAP
 *     ones ({@link MountedRoutes}; default: none), e.g. the interoperation test API
 * @param adminToken the bearer token of {@code GET /admin/status} (default: none, the endpoint
 *     answers 404)
 * @param collectorAuthorization how a task's collector_identity is asked whether it authorizes
 *     the task's collector HPKE configuration (draft-ietf-ppm-dap-attribution-00 section 6.1;
 *     default: {@link HttpsCollectorAuthorization#systemDefault()}, the JVM's trust store, its
 *     confirmations cached for an hour by the clock)
 * @param verification where the Helper decrypts and verifies each aggregation job's reports in
 *     parallel before the job's transaction (default {@link
 *     org.priodp.aggregator.core.ParallelReports#shared()}: one thread per processor, or the
 *     system property {@code priodp.verify.threads})
 */
public record AggregatorConfig(List<TaskDefinition> tasks, Datastore datastore,
    String bindAddress, int port, Optional<TlsCredentials> tls, boolean asyncAggregation,
    Optional<HelperPeer> helperPeer, LeaderAggregationDriver.Options leaderAggregation,
    String replicaId, Optional<Duration> reportRetention, boolean hpkeKeyAtStart,
    ServiceMetrics metrics, Clock clock, RandomSource noise, SecureRandom random,
    Optional<Executor> aggregationJobExecutor, Optional<Executor> aggregateShareExecutor,
    ReleaseObserver releaseObserver, PipelineObserver pipelineObserver,
    Optional<java.util.function.Function<TaskRegistry, MountedRoutes>> mount,
    Optional<org.priodp.aggregator.task.AuthToken> adminToken,
    org.priodp.aggregator.core.CollectorAuthorization collectorAuthorization,
    org.priodp.aggregator.core.ParallelReports verification) {

  /**
   * Validates the configuration: throws IllegalArgumentException for a port outside [0, 65535],
   * a blank bind address, a retention that is not positive, a task ID given twice or a task
   * endpoint that is not an absolute http(s) URL.
   */
  public AggregatorConfig {
    tasks = List.copyOf(tasks);
    Objects.requireNonNull(datastore, "datastore");
    if (Objects.requireNonNull(bindAddress, "bindAddress").isBlank()) {
      throw new IllegalArgumentException("the bind address must not be blank");
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port must be in [0, 65535], got " + port);
    }
    Objects.requireNonNull(tls, "tls");
    Objects.requireNonNull(helperPeer, "helperPeer");
    Objects.requireNonNull(leaderAggregation, "leaderAggregation");
    if (Objects.requireNonNull(replicaId, "replicaId").isBlank() || replicaId.length() > 100) {
      throw new IllegalArgumentException("the replica id must be 1 to 100 characters, not"
          + " blank, got \"" + replicaId + "\"");
    }
    Objects.requireNonNull(reportRetention, "reportRetention").ifPresent(r -> {
      if (r.isNegative() || r.isZero()) {
        throw new IllegalArgumentException("the report retention must be positive, got " + r);
      }
    });
    Objects.requireNonNull(metrics, "metrics");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(noise, "noise");
    Objects.requireNonNull(random, "random");
    Objects.requireNonNull(aggregationJobExecutor, "aggregationJobExecutor");
    Objects.requireNonNull(aggregateShareExecutor, "aggregateShareExecutor");
    Objects.requireNonNull(releaseObserver, "releaseObserver");
    Objects.requireNonNull(pipelineObserver, "pipelineObserver");
    Objects.requireNonNull(mount, "mount");
    Objects.requireNonNull(adminToken, "adminToken");
    Objects.requireNonNull(collectorAuthorization, "collectorAuthorization");
    Objects.requireNonNull(verification, "verification");
    TaskRoutes.of(tasks);
  }

  /** Starts a configuration of the tasks over the store with the production defaults. */
  public static Builder builder(List<TaskDefinition> tasks, Datastore datastore) {
    return new Builder(tasks, datastore);
  }

  /** Builds an {@link AggregatorConfig}; every setter replaces one default. */
  public static final class Builder {
    private final List<TaskDefinition> tasks;
    private final Datastore datastore;
    private String bindAddress = "127.0.0.1";
    private int port;
    private TlsCredentials tls;
    private boolean asyncAggregation;
    private HelperPeer helperPeer;
    private LeaderAggregationDriver.Options leaderAggregation =
        LeaderAggregationDriver.Options.defaults();
    private String replicaId;
    private Duration reportRetention;
    private boolean hpkeKeyAtStart;
    private ServiceMetrics metrics;
    private Clock clock = Clock.systemUTC();
    private RandomSource noise;
    private SecureRandom random;
    private Executor aggregationJobExecutor;
    private Executor aggregateShareExecutor;
    private ReleaseObserver releaseObserver = ReleaseObserver.NONE;
    private PipelineObserver pipelineObserver = PipelineObserver.NONE;
    private org.priodp.aggregator.task.AuthToken adminToken;
    private java.util.function.Function<TaskRegistry, MountedRoutes> mount;
    private org.priodp.aggregator.core.CollectorAuthorization collectorAuthorization;
    private org.priodp.aggregator.core.ParallelReports verification;

    private Builder(List<TaskDefinition> tasks, Datastore datastore) {
      this.tasks = List.copyOf(tasks);
      this.datastore = Objects.requireNonNull(datastore, "datastore");
    }

    /** Sets the address to listen on. */
    public Builder bindAddress(String bindAddress) {
      this.bindAddress = bindAddress;
      return this;
    }

    /** Sets the TCP port (0: any free port). */
    public Builder port(int port) {
      this.port = port;
      return this;
    }

    /** Serves HTTPS with these credentials (null: plain HTTP). */
    public Builder tls(TlsCredentials tls) {
      this.tls = tls;
      return this;
    }

    /** Answers aggregation jobs and aggregate shares asynchronously. */
    public Builder asyncAggregation(boolean asyncAggregation) {
      this.asyncAggregation = asyncAggregation;
      return this;
    }

    /** Sets the Leader's client of its Helpers (null: Leader tasks take uploads only). */
    public Builder helperPeer(HelperPeer helperPeer) {
      this.helperPeer = helperPeer;
      return this;
    }

    /** Sets the options of the Leader's aggregation driver. */
    public Builder leaderAggregation(LeaderAggregationDriver.Options options) {
      this.leaderAggregation = options;
      return this;
    }

    /** Sets the replica's name in job leases (null: {@code host/pid}). */
    public Builder replicaId(String replicaId) {
      this.replicaId = replicaId;
      return this;
    }

    /** Sets how long reports are kept (null: forever). */
    public Builder reportRetention(Duration reportRetention) {
      this.reportRetention = reportRetention;
      return this;
    }

    /** Generates an HPKE key at start when none is active. */
    public Builder hpkeKeyAtStart(boolean hpkeKeyAtStart) {
      this.hpkeKeyAtStart = hpkeKeyAtStart;
      return this;
    }

    /** Sets the metrics registry. */
    public Builder metrics(ServiceMetrics metrics) {
      this.metrics = metrics;
      return this;
    }

    /** Sets the clock of every service. */
    public Builder clock(Clock clock) {
      this.clock = clock;
      return this;
    }

    /** Sets the random-bit source of DP noise. */
    public Builder noise(RandomSource noise) {
      this.noise = noise;
      return this;
    }

    /** Sets the generator of HPKE keys. */
    public Builder random(SecureRandom random) {
      this.random = random;
      return this;
    }

    /** Runs asynchronous aggregation jobs on this executor, owned by the caller. */
    public Builder aggregationJobExecutor(Executor executor) {
      this.aggregationJobExecutor = executor;
      return this;
    }

    /** Releases asynchronous aggregate shares on this executor, owned by the caller. */
    public Builder aggregateShareExecutor(Executor executor) {
      this.aggregateShareExecutor = executor;
      return this;
    }

    /** Tells {@code observer} of each noised share persisted before it is sealed. */
    public Builder releaseObserver(ReleaseObserver observer) {
      this.releaseObserver = Objects.requireNonNull(observer, "observer");
      return this;
    }

    /** Tells {@code observer}, besides the metrics, of what the pipeline does. */
    public Builder pipelineObserver(PipelineObserver observer) {
      this.pipelineObserver = Objects.requireNonNull(observer, "observer");
      return this;
    }

    /** Serves the routes {@code mount} builds from the aggregator's task registry. */
    public Builder mount(java.util.function.Function<TaskRegistry, MountedRoutes> mount) {
      this.mount = Objects.requireNonNull(mount, "mount");
      return this;
    }

    /** Serves GET /admin/status to this bearer token (null: the endpoint answers 404). */
    public Builder adminToken(org.priodp.aggregator.task.AuthToken token) {
      this.adminToken = token;
      return this;
    }

    /**
     * Asks collector identities with {@code authorization} (tests: a test CA's trust; wrap it in a
     * {@link org.priodp.aggregator.core.CachedCollectorAuthorization} to cache confirmations).
     */
    public Builder collectorAuthorization(
        org.priodp.aggregator.core.CollectorAuthorization authorization) {
      this.collectorAuthorization = Objects.requireNonNull(authorization, "authorization");
      return this;
    }

    /** Decrypts and verifies the Helper's reports of each job on {@code verification}. */
    public Builder verification(org.priodp.aggregator.core.ParallelReports verification) {
      this.verification = Objects.requireNonNull(verification, "verification");
      return this;
    }

    /** Returns the validated configuration (see {@link AggregatorConfig#AggregatorConfig}). */
    public AggregatorConfig build() {
      return new AggregatorConfig(tasks, datastore, bindAddress, port, Optional.ofNullable(tls),
          asyncAggregation, Optional.ofNullable(helperPeer), leaderAggregation,
          replicaId != null ? replicaId : LeaseHeartbeat.defaultOwner(),
          Optional.ofNullable(reportRetention), hpkeKeyAtStart,
          metrics != null ? metrics : new ServiceMetrics(), clock,
          noise != null ? noise : RandomSource.secure(),
          random != null ? random : new SecureRandom(),
          Optional.ofNullable(aggregationJobExecutor), Optional.ofNullable(aggregateShareExecutor),
          releaseObserver, pipelineObserver, Optional.ofNullable(mount),
          Optional.ofNullable(adminToken), collectorAuthorization != null ? collectorAuthorization
              : new org.priodp.aggregator.core.CachedCollectorAuthorization(
                  HttpsCollectorAuthorization.systemDefault(), clock),
          verification != null ? verification
              : org.priodp.aggregator.core.ParallelReports.shared());
    }
  }
}
