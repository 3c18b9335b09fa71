package org.priodp.aggregator.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Date;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.priodp.aggregator.core.LeaderAggregationDriver;
import org.priodp.aggregator.core.LeaseHeartbeat;
import org.priodp.aggregator.core.PrivacyBudget;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.datastore.DatastoreException;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import org.priodp.aggregator.interop.AggregatorInteropApi;
import org.priodp.aggregator.interop.InteropApi;
import org.priodp.aggregator.server.Aggregator;
import org.priodp.aggregator.server.AggregatorConfig;
import org.priodp.aggregator.server.RetentionCollector;
import org.priodp.aggregator.server.TaskRoutes;
import org.priodp.aggregator.server.TlsCredentials;
import org.priodp.aggregator.taskfile.TaskFile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Runs the aggregator of the tasks of a JSON file until stopped (DAP-18 "HTTP Resources
 * Reference"): reads the options and files, opens the store and starts one {@link Aggregator}.
 */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Serves DAP-19 and DAP-18 Leader and Helper tasks, noising batches once.",
      "",
      "Serves the tasks in --config in their roles, noising each batch exactly once and"
          + " persisting it before it is released. Helper routes (PATH: the path of the task's"
          + " helper_aggregator_endpoint):",
      "  POST PATH/tasks/{task-id}/aggregation_jobs, then GET ?step=N and DELETE on the Location",
      "  POST PATH/tasks/{task-id}/aggregate_shares, then GET and DELETE on the Location",
      "Leader routes (PATH: the path of the task's leader_aggregator_endpoint), with the"
          + " aggregation driver and the collection jobs running in the background:",
      "  POST PATH/tasks/{task-id}/reports (Clients)",
      "  POST PATH/tasks/{task-id}/collection_jobs, then GET and DELETE on the Location",
      "Both: GET PATH/hpke_config; GET /healthz (liveness), GET /readyz (200 if the store"
          + " answers, else 503), GET /metrics (Prometheus; a Grafana dashboard and alert rules"
          + " over it are in the distribution's monitoring/, see docs/DEPLOY.md); with an admin"
          + " token, GET /admin/status (the pipeline status as JSON, as prio-dp status --json"
          + " prints it)",
      "",
      "DAP requires HTTPS: give --tls-cert and --tls-key, or terminate TLS in front of this"
          + " server. Every option can come from the environment variable in brackets. The"
          + " database password comes only from PRIODP_DB_PASSWORD or --db-password-file, never"
          + " from the command line.",
      "",
      "SIGTERM or Ctrl-C: stop accepting, finish requests in flight (up to 10 s), exit 0. Exit"
          + " status 1: the service cannot start (store, port); 2: bad options or files. Errors"
          + " are one line (a usage error adds where the help is); --verbose adds the stack trace.",
      "",
      "--interop-test-api (off by default; for interoperation tests only) also serves the"
          + " unauthenticated test API of draft-dcook-ppm-dap-interop-test-design on the same"
          + " port: POST /internal/test/ready, endpoint_for_task and add_task, which adds a"
          + " Leader or Helper task, without DP noise, held in memory until the process stops;"
          + " --config is then optional. Never enable it on a reachable server."
    },
    footer = {
      "%nExample:",
      "  export PRIODP_DB_PASSWORD=secret",
      "  prio-dp serve --config tasks.json --port 8443 \\",
      "      --tls-cert cert.pem --tls-key key.pem --log-format json \\",
      "      --db jdbc:postgresql://db.internal/priodp --db-user helper",
      "  # two Leader replicas on one database, each with its own stable name",
      "  prio-dp serve --config leader.json --port 8443 --replica-id leader-1 --lease 30s \\",
      "      --db jdbc:postgresql://db.internal/priodp --db-user leader",
      "  prio-dp serve --interop-test-api --bind 0.0.0.0 --port 8080 \\",
      "      --db jdbc:sqlite:/tmp/interop.db"
    })
public final class ServeCommand implements PrioDpSubcommand {
  private static final Logger LOG = LoggerFactory.getLogger(ServeCommand.class);

  @Spec CommandSpec spec;

  @Option(names = "--config", paramLabel = "FILE",
      defaultValue = "${env:PRIODP_CONFIG}",
      description = "The task file (JSON; see docs/DAP.md); required unless"
          + " --interop-test-api. [PRIODP_CONFIG]")
  String config;

  @Option(names = "--interop-test-api",
      defaultValue = "${env:PRIODP_INTEROP_TEST_API:-false}",
      description = "TESTING ONLY: also serve the unauthenticated interop test API"
          + " (/internal/test/...) that adds tasks at run time. Off by default."
          + " [PRIODP_INTEROP_TEST_API]")
  boolean interopTestApi;

  @Option(names = "--port", paramLabel = "N", defaultValue = "${env:PRIODP_PORT:-8080}",
      description = "TCP port (0 picks a free one). [PRIODP_PORT]")
  String port;

  @Option(names = "--bind", paramLabel = "ADDR", defaultValue = "${env:PRIODP_BIND:-127.0.0.1}",
      description = "Address to listen on. [PRIODP_BIND]")
  String bind;

  @Option(names = "--db", paramLabel = "URL",
      defaultValue = "${env:PRIODP_DB}",
      // not shown from the environment: the URL may hold a password
      showDefaultValue = picocli.CommandLine.Help.Visibility.NEVER,
      description = {
        "JDBC URL of the store (default: the SQLite file priodp-leader.db when --config holds"
            + " only Leader tasks, else priodp-helper.db). [PRIODP_DB]",
        "  jdbc:sqlite:FILE",
        "  jdbc:postgresql://HOST[:PORT]/DB"
      })
  String db;

  @Option(names = "--async-aggregation",
      defaultValue = "${env:PRIODP_ASYNC_AGGREGATION:-false}",
      description = "Answer aggregation jobs and aggregate shares asynchronously (Location"
          + " and Retry-After, then GET) instead of in the POST. [PRIODP_ASYNC_AGGREGATION]")
  boolean asyncAggregation;

  @Option(names = "--db-user", paramLabel = "NAME", defaultValue = "${env:PRIODP_DB_USER}",
      description = "PostgreSQL user (unless the URL has user=). [PRIODP_DB_USER]")
  String dbUser;

  @Option(names = "--db-password-file", paramLabel = "FILE",
      defaultValue = "${env:PRIODP_DB_PASSWORD_FILE}",
      description = "File whose first line is the PostgreSQL password; it wins over the"
          + " PRIODP_DB_PASSWORD variable. [PRIODP_DB_PASSWORD_FILE]")
  String dbPasswordFile;

  @Option(names = "--tls-cert", paramLabel = "FILE", defaultValue = "${env:PRIODP_TLS_CERT}",
      description = "PEM certificate chain (server certificate first); serves HTTPS. Needs"
          + " --tls-key. [PRIODP_TLS_CERT]")
  String tlsCert;

  @Option(names = "--tls-key", paramLabel = "FILE", defaultValue = "${env:PRIODP_TLS_KEY}",
      description = "PEM private key of the certificate (PKCS#8, PKCS#1 RSA or SEC1 EC)."
          + " [PRIODP_TLS_KEY]")
  String tlsKey;

  @Option(names = "--log-format", paramLabel = "FORMAT",
      defaultValue = "${env:PRIODP_LOG_FORMAT:-text}",
      description = "Log lines on stderr: text or json (one JSON object per line)."
          + " [PRIODP_LOG_FORMAT]")
  String logFormat;

  @Option(names = "--report-retention", paramLabel = "DURATION",
      defaultValue = "${env:PRIODP_REPORT_RETENTION}",
      description = "Keep report IDs, uploaded reports, finished aggregation jobs and collected"
          + " batch buckets for"
          + " this long (report time; seconds, or 30d, 12h, 90m, P30D), then delete them every"
          + " five minutes; reports older than that are rejected (report_dropped). Default:"
          + " keep forever. [PRIODP_REPORT_RETENTION]")
  String reportRetention;

  @Option(names = "--aggregation-job-size", paramLabel = "N",
      defaultValue = "${env:PRIODP_AGGREGATION_JOB_SIZE:-1000}",
      description = "Leader tasks: the most reports in one aggregation job sent to the Helper."
          + " [PRIODP_AGGREGATION_JOB_SIZE]")
  String aggregationJobSize;

  @Option(names = "--aggregation-workers", paramLabel = "N",
      defaultValue = "${env:PRIODP_AGGREGATION_WORKERS:-2}",
      description = "Leader tasks: threads that drive aggregation jobs."
          + " [PRIODP_AGGREGATION_WORKERS]")
  String aggregationWorkers;

  @Option(names = {"--lease", "--lease-duration"}, paramLabel = "DURATION",
      defaultValue = "${env:PRIODP_LEASE_DURATION:-30s}",
      description = "Leader tasks: the lease on an aggregation or collection job, renewed every"
          + " third of it while the job runs; a stopped replica's jobs are taken over after it"
          + " (seconds, or 90s, 10m, PT10M). Shorter: faster takeover, more database writes."
          + " [PRIODP_LEASE_DURATION]")
  String leaseDuration;

  @Option(names = "--replica-id", paramLabel = "NAME",
      defaultValue = "${env:PRIODP_REPLICA_ID}",
      description = "Leader tasks: this replica's name in job leases, stable across its"
          + " restarts and unique among the processes on one database; at start it frees the"
          + " leases held under it. Default: HOST:PORT (HOST/PID with --port 0)."
          + " [PRIODP_REPLICA_ID]")
  String replicaId;

  @Option(names = "--admin-token-file", paramLabel = "FILE",
      defaultValue = "${env:PRIODP_ADMIN_TOKEN_FILE}",
      description = "File whose first line is the admin_token: GET /admin/status (the pipeline"
          + " status as JSON) answers requests with 'Authorization: Bearer TOKEN'; it wins over"
          + " the PRIODP_ADMIN_TOKEN variable. Without a token the endpoint is off (404)."
          + " [PRIODP_ADMIN_TOKEN_FILE]")
  String adminTokenFile;

  /** The environment, read for PRIODP_DB_PASSWORD (replaceable in tests). */
  java.util.Map<String, String> environment = System.getenv();

  /** Hears of each noised share persisted before its release: none (replaceable in tests). */
  org.priodp.aggregator.core.ReleaseObserver releaseObserver =
      org.priodp.aggregator.core.ReleaseObserver.NONE;

  /**
   * Asks the collector identities of the tasks (attribution-00 section 6.1); null: the JVM's
   * trust store with confirmations cached for an hour (replaceable in tests).
   */
  org.priodp.aggregator.core.CollectorAuthorization collectorAuthorization;

  @Override
  public Integer call() throws IOException, InterruptedException {
    // 1. options, without touching the outside world
    String configFile = blankToNull(config);
    if (configFile == null && !interopTestApi) {
      throw new IllegalArgumentException("--config FILE (or PRIODP_CONFIG) is required");
    }
    int port = parsePort(blankToNull(this.port) == null ? "8080" : this.port.strip());
    String bind = blankToNull(this.bind) == null ? "127.0.0.1" : this.bind.strip();
    String cert = blankToNull(tlsCert);
    String key = blankToNull(tlsKey);
    if ((cert == null) != (key == null)) {
      throw new IllegalArgumentException(cert == null
          ? "--tls-key needs --tls-cert (or PRIODP_TLS_CERT) too"
          : "--tls-cert needs --tls-key (or PRIODP_TLS_KEY) too");
    }
    java.time.Duration retention;
    try {
      retention = blankToNull(reportRetention) == null ? null
          : RetentionCollector.parseDuration(reportRetention);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--report-retention: " + e.getMessage(), e);
    }
    LogFormat format = blankToNull(logFormat) == null ? LogFormat.TEXT : LogFormat.parse(logFormat);
    format.apply();
    if (PrioDp.isVerbose(spec.commandLine())) {
      LogFormat.verbose();
    }

    // 2. files: TLS material, tasks, password; the Leader's options if a task needs them
    TlsCredentials tls = cert == null ? null : TlsCredentials.load(Path.of(cert), Path.of(key));
    List<TaskDefinition> tasks = configFile == null ? List.of() : TaskFile.read(Path.of(configFile));
    TaskRoutes routes = TaskRoutes.of(tasks);
    // with the interop test API a Leader task may come later: the Leader's drivers run anyway
    boolean leader = !routes.leaderTasks().isEmpty() || interopTestApi;
    LeaderAggregationDriver.Options leaderOptions = leader ? leaderAggregationOptions()
        : LeaderAggregationDriver.Options.defaults();
    this.db = blankToNull(this.db) == null ? "jdbc:sqlite:" + defaultStoreFile(routes)
        : this.db.strip();
    String replica = replicaId(port);
    Properties dbProperties = dbProperties();
    org.priodp.aggregator.task.AuthToken adminToken = adminToken(adminTokenFile, environment);

    // 3. the port, checked free before anything is written (the store file, an HPKE key)
    checkPortFree(bind, port);

    // 4. the store, then the aggregator (the HPKE key, the socket, the background work)
    JdbcDatastore store = openStore(dbProperties);
    // DP settings are fixed once a task has released (issue 25): one line naming the field
    for (TaskDefinition t : tasks) {
      try {
        PrivacyBudget.checkSettingsUnchanged(store, t);
      } catch (IllegalStateException e) {
        store.close();
        throw new IllegalArgumentException(e.getMessage());
      }
    }
    // collector_identity (attribution-00 section 6.1): an identity that answers without the
    // task's collector key stops startup (one line); one that cannot be asked is a WARN
    org.priodp.aggregator.core.CollectorAuthorization identities = collectorAuthorization != null
        ? collectorAuthorization : new org.priodp.aggregator.core.CachedCollectorAuthorization(
            org.priodp.aggregator.server.HttpsCollectorAuthorization.systemDefault(),
            java.time.Clock.systemUTC());
    var identityCheck = new org.priodp.aggregator.core.CollectorIdentityCheck(identities);
    for (TaskDefinition t : tasks) {
      java.util.Optional<String> refused = identityCheck.atStart(t);
      if (refused.isPresent()) {
        store.close();
        throw new IllegalArgumentException(refused.get());
      }
    }
    Aggregator aggregator;
    try {
      AggregatorConfig.Builder builder = AggregatorConfig.builder(tasks, store)
          .bindAddress(bind).port(port).tls(tls).asyncAggregation(asyncAggregation)
          .helperPeer(leader ? helperPeer() : null).leaderAggregation(leaderOptions)
          .replicaId(replica)
          .reportRetention(retention).hpkeKeyAtStart(true).releaseObserver(releaseObserver)
          .adminToken(adminToken).collectorAuthorization(identities);
      if (interopTestApi) {
        builder.mount(AggregatorInteropApi::new);
      }
      aggregator = Aggregator.start(builder.build());
    } catch (RuntimeException e) {
      store.close();
      throw new CliIo.Failure(e.getMessage(), e);
    }
    LOG.info("HPKE config {} advertised at {}hpke_config",
        aggregator.hpkeKeys().ensureActive().config().id().value(), "/");
    for (TaskDefinition t : routes.helperTasks()) {
      LOG.info("task {} (helper, {}): POST {}", t.taskId().toBase64Url(), t.dapVersion().tag(),
          TaskRoutes.aggregateSharesPath(t));
      if (t.addsNoise() && !t.bindsDpSettings()) {
        LOG.info("task {} adds noise ({}) without the opt-in dp_binding extension: a Collector"
            + " configured with other DP settings still opens its shares (see docs/DAP.md)",
            t.taskId().toBase64Url(), t.dpStrategy().describe());
      }
      if (!t.canAggregate()) {
        LOG.warn("task {} has no vdaf_verify_key in its task file: it aggregates only with keys"
            + " added by verify-keys add", t.taskId().toBase64Url());
      }
    }
    for (TaskDefinition t : routes.leaderTasks()) {
      LOG.info("task {} (leader, {}): POST {}tasks/{}/reports{}", t.taskId().toBase64Url(),
          t.dapVersion().tag(),
          TaskRoutes.basePath(t.configuration().leaderAggregatorEndpoint()),
          t.taskId().toBase64Url(), t.configuration().batchMode()
              == org.priodp.aggregator.dap.BatchMode.COLLECTOR_SELECTED
              ? "/{collection-job-id} (collector_selected)" : "");
    }
    for (List<TaskDefinition> byRole : List.of(routes.helperTasks(), routes.leaderTasks())) {
      for (TaskDefinition t : byRole) { // the sampler of every DP task, named (issue 25: no silent fallback)
        if (t.addsNoise()) {
          LOG.info("task {}: {}; privacy unit {}, {}", t.taskId().toBase64Url(),
              t.dpStrategy().budgetFromReports()
                  ? t.dpStrategy().describe() + " at each release's epsilon, "
                      + (t.hardenedSampler() ? "fixed-work" : "exact") + " sampler"
                  : t.mechanism().describeSettings(), t.privacy().unit().describe(),
              t.privacy().cap().map(c -> "budget " + c.describe(t.privacy().unit()))
                  .orElse("no privacy budget (the ledger records, nothing caps)"));
        }
      }
    }
    if (tls == null) {
      LOG.warn("serving plain HTTP: DAP requires TLS, so it must be terminated in front of this"
          + " server (or give --tls-cert and --tls-key)");
    } else if (tls.expiredOrNotYetValid(new Date())) {
      LOG.warn("the TLS certificate in {} is outside its validity period (not after {})",
          tls.certFile(), tls.certificate().getNotAfter().toInstant());
    }
    if (retention != null) {
      LOG.info("report retention {}: report IDs, uploaded reports, finished aggregation jobs and"
          + " collected buckets"
          + " older than that are deleted every {}; older reports are dropped", retention,
          RetentionCollector.DEFAULT_PERIOD);
    } else {
      LOG.info("report retention: keep forever (no --report-retention)");
    }
    aggregator.leaderAggregation().ifPresent(d -> LOG.info("aggregating {} Leader task(s): jobs"
        + " of up to {} reports, {} worker(s), lease {}, replica {}", d.tasks().size(),
        leaderOptions.jobSize(), leaderOptions.workers(), leaderOptions.leaseDuration(),
        replica));

    Shutdown shutdown = new Shutdown(aggregator, store);
    shutdown.install();
    PrintWriter out = spec.commandLine().getOut();
    if (interopTestApi) {
      LOG.warn("--interop-test-api: the UNAUTHENTICATED interop test API is enabled at {}"
          + " (ready, endpoint_for_task, add_task): anyone who reaches this port can add tasks;"
          + " for interoperation tests only, never in production", InteropApi.PREFIX);
      out.println("prio-dp serve: WARNING: --interop-test-api: the unauthenticated interop test"
          + " API is enabled at " + InteropApi.PREFIX + "; it must never be exposed in"
          + " production");
    }
    out.println("prio-dp serve: " + tasks.size() + " task(s), listening on "
        + (tls == null ? "http" : "https") + "://" + bind + ":" + aggregator.port());
    out.flush();
    shutdown.requested.await();
    shutdown.drain();
    return 0;
  }

  /**
   * Returns the options of the Leader's aggregation driver (DAP-18 "Leader Initialization") from
   * --aggregation-job-size, --aggregation-workers and --lease-duration, the rest as defaulted.
   */
  private LeaderAggregationDriver.Options leaderAggregationOptions() {
    LeaderAggregationDriver.Options defaults = LeaderAggregationDriver.Options.defaults();
    int jobSize = positive("--aggregation-job-size", aggregationJobSize, 1000);
    int workers = positive("--aggregation-workers", aggregationWorkers, 2);
    java.time.Duration lease;
    try {
      lease = blankToNull(leaseDuration) == null ? defaults.leaseDuration()
          : RetentionCollector.parseDuration(leaseDuration);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--lease: " + e.getMessage(), e);
    }
    if (lease.isZero()) {
      throw new IllegalArgumentException("--lease: must be positive");
    }
    return new LeaderAggregationDriver.Options(jobSize, 1, lease, defaults.maxAttempts(),
        defaults.retryDelay(), workers, defaults.pollInterval());
  }

  /**
   * Returns the replica's name in job leases (DAP-18 "Distributed Systems and Synchronization
   * Concerns"): --replica-id, else {@code HOST:PORT}, stable across restarts of one instance
   * (with --port 0, {@code HOST/PID}: a port picked at random names nothing stable).
   */
  private String replicaId(int port) {
    String given = blankToNull(replicaId);
    if (given != null) {
      String name = given.strip();
      if (name.length() > 100) {
        throw new IllegalArgumentException("--replica-id: at most 100 characters, got "
            + name.length());
      }
      return name;
    }
    if (port == 0) {
      return LeaseHeartbeat.defaultOwner();
    }
    String host;
    try {
      host = java.net.InetAddress.getLocalHost().getHostName();
    } catch (java.net.UnknownHostException e) {
      host = "localhost";
    }
    String name = host + ":" + port;
    return name.length() <= 100 ? name : name.substring(name.length() - 100);
  }

  /**
   * Returns the Leader's HTTP client of its tasks' Helpers (DAP-18 "Leader Initialization",
   * "Obtaining Aggregate Shares"), used by the aggregation driver and the collection jobs.
   */
  org.priodp.aggregator.core.HelperPeer helperPeer() {
    return org.priodp.aggregator.peer.HttpHelperPeer.create(
        org.priodp.aggregator.peer.HttpHelperPeer.Options.defaults());
  }

  /**
   * Returns the SQLite file of the store when --db is not given (docs/DAP.md "Serving a task"):
   * {@code priodp-leader.db} for a task file of Leader tasks only, else {@code priodp-helper.db}.
   */
  static String defaultStoreFile(TaskRoutes routes) {
    return !routes.leaderTasks().isEmpty() && routes.helperTasks().isEmpty()
        ? "priodp-leader.db" : "priodp-helper.db";
  }

  /** Returns the default store file of a task file's {@code tasks}, as for {@link TaskRoutes}. */
  static String defaultStoreFile(List<TaskDefinition> tasks) {
    return tasks.stream().allMatch(t -> t.role() == org.priodp.aggregator.dap.Role.LEADER)
        ? "priodp-leader.db" : "priodp-helper.db";
  }

  /**
   * Checks that {@code bind:port} can be listened on (DAP-18 "HTTP Resources Reference": the
   * server's one port) before the store and an HPKE key are created, so that a port in use stops
   * startup with nothing written; port 0 (any free port) is not checked.
   *
   * @throws CliIo.Failure naming the address when the port is in use or cannot be bound
   */
  static void checkPortFree(String bind, int port) {
    if (port == 0) {
      return;
    }
    try (java.net.ServerSocket probe = new java.net.ServerSocket()) {
      // as the server binds it (Vert.x sets SO_REUSEADDR): a socket in TIME_WAIT is no conflict
      probe.setReuseAddress(true);
      probe.bind(new java.net.InetSocketAddress(bind, port));
    } catch (java.net.BindException e) {
      throw new CliIo.Failure("cannot listen on " + bind + ":" + port + ": the port is in use"
          + " (another prio-dp serve?); stop that process or choose another --port", null);
    } catch (IOException | IllegalArgumentException | SecurityException e) {
      throw new CliIo.Failure("cannot listen on " + bind + ":" + port, e);
    }
  }

  /** Returns the --port value in [0, 65535]; IllegalArgumentException otherwise. */
  static int parsePort(String s) {
    int p;
    try {
      p = Integer.parseInt(s);
    } catch (NumberFormatException e) {
      p = -1;
    }
    if (p < 0 || p > 65535) {
      throw new IllegalArgumentException("--port: expected a number in [0, 65535], got " + s);
    }
    return p;
  }

  private static int positive(String option, String value, int fallback) {
    if (blankToNull(value) == null) {
      return fallback;
    }
    try {
      int n = Integer.parseInt(value.strip());
      if (n >= 1) {
        return n;
      }
    } catch (NumberFormatException e) {
      // below
    }
    throw new IllegalArgumentException(option + ": expected a positive number, got " + value);
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s;
  }

  Properties dbProperties() throws IOException {
    return dbProperties(db, dbUser, dbPasswordFile, environment);
  }

  /**
   * The JDBC properties of a PostgreSQL store: {@code user} from {@code dbUser}, {@code password}
   * from the first line of {@code passwordFile}, else from PRIODP_DB_PASSWORD in
   * {@code environment}; none for SQLite. Shared by {@code serve} and {@code keys}.
   */
  /**
   * Returns the admin_token of GET /admin/status from the file's first line, else from
   * PRIODP_ADMIN_TOKEN; null if neither is set. A missing file or an unusable token is an error.
   */
  static org.priodp.aggregator.task.AuthToken adminToken(String file,
      java.util.Map<String, String> environment) throws IOException {
    String token = null;
    String where = "PRIODP_ADMIN_TOKEN";
    if (blankToNull(file) != null) {
      Path f = Path.of(file.strip());
      where = "--admin-token-file " + f;
      if (!Files.isRegularFile(f)) {
        throw new IOException(where + ": no such file");
      }
      token = Files.readString(f, StandardCharsets.UTF_8).lines().findFirst().orElse("").strip();
    } else if (blankToNull(environment.get("PRIODP_ADMIN_TOKEN")) != null) {
      token = environment.get("PRIODP_ADMIN_TOKEN").strip();
    }
    if (token == null) {
      return null;
    }
    try {
      return org.priodp.aggregator.task.AuthToken.of(token);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
    }
  }

  static Properties dbProperties(String db, String dbUser, String passwordFile,
      java.util.Map<String, String> environment) throws IOException {
    Properties p = new Properties();
    if (!db.startsWith("jdbc:postgresql:")) {
      return p; // SQLite takes neither user nor password
    }
    String user = blankToNull(dbUser);
    if (user != null) {
      p.setProperty("user", user);
    }
    String password = null;
    String file = blankToNull(passwordFile);
    if (file != null) {
      Path f = Path.of(file);
      if (!Files.isRegularFile(f)) {
        throw new IOException("--db-password-file " + f + ": no such file");
      }
      try {
        password = Files.readString(f, StandardCharsets.UTF_8).lines().findFirst().orElse("");
      } catch (IOException e) {
        throw new IOException("--db-password-file " + f + ": cannot read ("
            + e.getClass().getSimpleName() + ")", e);
      }
    } else if (blankToNull(environment.get("PRIODP_DB_PASSWORD")) != null) {
      password = environment.get("PRIODP_DB_PASSWORD");
    }
    if (password != null) {
      p.setProperty("password", password);
    }
    return p;
  }

  private JdbcDatastore openStore(Properties properties) {
    String where = redact(db);
    if (db.startsWith("jdbc:sqlite:")) {
      String file = db.substring("jdbc:sqlite:".length());
      int q = file.indexOf('?');
      file = q < 0 ? file : file.substring(0, q);
      if (file.startsWith("file:")) {
        file = file.substring("file:".length());
      }
      if (!file.isEmpty() && !file.startsWith(":memory:")) {
        Path parent = Path.of(file).toAbsolutePath().getParent();
        if (parent != null && !Files.isDirectory(parent)) {
          throw new CliIo.Failure("cannot open store " + where + ": directory " + parent
              + " does not exist", null);
        }
      }
    } else if (!db.startsWith("jdbc:postgresql:")) {
      throw new IllegalArgumentException("--db: expected jdbc:sqlite:FILE or"
          + " jdbc:postgresql://..., got " + where);
    }
    try {
      return JdbcDatastore.open(db, properties);
    } catch (DatastoreException | IllegalArgumentException e) {
      throw new CliIo.Failure("cannot open store " + where, e);
    }
  }

  /** Hides a password given in the URL. */
  static String redact(String url) {
    return url.replaceAll("(?i)(password=)[^&;]*", "$1***");
  }

  /**
   * Stops the aggregator once: on SIGTERM or SIGINT through a signal handler (so that the process
   * exits 0 after draining, not 143), and from a shutdown hook for any other way the JVM ends.
   */
  private static final class Shutdown {
    final CountDownLatch requested = new CountDownLatch(1);
    private final Aggregator aggregator;
    private final JdbcDatastore store;
    private final AtomicBoolean drained = new AtomicBoolean();

    Shutdown(Aggregator aggregator, JdbcDatastore store) {
      this.aggregator = aggregator;
      this.store = store;
    }

    void install() {
      for (String name : new String[] {"TERM", "INT"}) {
        try {
          sun.misc.Signal.handle(new sun.misc.Signal(name), sig -> {
            LOG.info("SIG{} received", sig.getName().toUpperCase(Locale.ROOT));
            requested.countDown();
          });
        } catch (IllegalArgumentException | UnsupportedOperationException e) {
          // the JVM keeps this signal (e.g. -Xrs); the shutdown hook still drains
          LOG.debug("cannot handle SIG{}: {}", name, e.toString());
        }
      }
      Runtime.getRuntime().addShutdownHook(new Thread(this::drain, "prio-dp-serve-shutdown"));
    }

    void drain() {
      if (!drained.compareAndSet(false, true)) {
        return;
      }
      LOG.info("draining requests (up to 10 s)");
      try {
        aggregator.close();
      } finally {
        store.close();
      }
      LOG.info("stopped");
      requested.countDown();
    }
  }
}
