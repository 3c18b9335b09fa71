package org.priodp.aggregator.demo;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.priodp.aggregator.cli.CollectCommand;
import org.priodp.aggregator.cli.DapVersionOption;
import org.priodp.aggregator.cli.LogFormat;
import org.priodp.aggregator.cli.PrioDpSubcommand;
import org.priodp.aggregator.client.CollectionResult;
import org.priodp.aggregator.client.DapClient;
import org.priodp.aggregator.client.DapCollector;
import org.priodp.aggregator.core.LeaderAggregationDriver;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.dap.BatchMode;
import org.priodp.aggregator.dap.DapVersion;
import org.priodp.aggregator.dap.Interval;
import org.priodp.aggregator.dap.Query;
import org.priodp.aggregator.dap.UploadErrors;
import org.priodp.aggregator.datastore.DatastoreException;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import org.priodp.aggregator.peer.HttpHelperPeer;
import org.priodp.aggregator.provision.ProvisionedTask;
import org.priodp.aggregator.server.Aggregator;
import org.priodp.aggregator.server.AggregatorConfig;
import org.priodp.aggregator.server.internal.Causes;
import org.priodp.noise.Rational;
import org.priodp.vdaf.Prio3Variant;
import org.priodp.vdaf.dp.DpStrategy;
import org.priodp.vdaf.dp.Prio3DpMechanism;
import org.priodp.vdaf.dp.SensitivityRule;
import org.priodp.vdaf.dp.StatedGuarantee;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Runs a DAP-18 deployment on loopback: provisions a time_interval Prio3Histogram task in memory
 * as {@code task new} does ("Task Configuration"), starts a Leader and a Helper {@link
 * Aggregator}, each over its own store, as {@code serve} does; simulated Clients upload reports
 * over HTTP ("Uploading Reports"), the Leader aggregates them with the Helper ("Aggregating
 * Reports"), and the Collector collects the batch interval that holds them ("Collecting
 * Results") and prints the noisy histogram, its intervals and the true counts.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Runs a Leader, a Helper, Clients and a Collector on loopback.",
      "",
      "Provisions a Prio3Histogram task in memory, starts a Leader and a Helper server on"
          + " 127.0.0.1, each with its own store (SQLite files in a temporary folder unless"
          + " --db-leader/--db-helper name PostgreSQL databases); simulated Clients upload over"
          + " DAP-19 (or --dap-version), the Leader aggregates with the Helper, and the Collector collects and"
          + " prints the noisy histogram with 95%% intervals next to the true counts."
    },
    footer = {"%nExample:", "  prio-dp demo --clients 1000 --length 4 --epsilon 1/2",
      "  prio-dp demo --dap-version dap-18",
      "  prio-dp demo --attribution --clients 500 --min-dp-budget 0.5"})
public final class DemoCommand implements PrioDpSubcommand {
  /** The task's time_precision in seconds: the collection waits for its interval to end. */
  static final long TIME_PRECISION = 1;
  private static final int UPLOAD_CHUNK = 250;

  @Spec CommandSpec spec;

  @picocli.CommandLine.Mixin
  DapVersionOption dapVersion = new DapVersionOption();

  @Option(names = "--attribution",
      description = "Run the Attribution API's flow instead (draft-ietf-ppm-dap-attribution-00):"
          + " browsers with a per-site budget per epoch, Prio3L1BoundSum reports with their"
          + " privacy_budget, a website Collector that uploads them to its collection job"
          + " (collector_selected) with min_dp_budget; noise calibrated to that minimum.")
  boolean attribution;

  @Option(names = "--clients", paramLabel = "N",
      description = "Number of simulated clients (default 10000), or of browsers with"
          + " --attribution (default 2000).")
  Integer clientsOption;

  int clients;

  @Option(names = "--length", defaultValue = "10", paramLabel = "N",
      description = "Histogram buckets (the VDAF's length); with --attribution, ad sources.")
  int length;

  @Option(names = "--max-value", defaultValue = "100", paramLabel = "N",
      description = "With --attribution: the largest conversion value (Prio3L1BoundSum's"
          + " max_value).")
  long maxValue;

  @Option(names = "--min-dp-budget", defaultValue = "0.5", paramLabel = "EPSILON",
      description = "With --attribution: the website's min_dp_budget; reports that spent less"
          + " are dropped, and the noise is calibrated to it.")
  String minDpBudget;

  @Option(names = "--epsilon", defaultValue = "1", paramLabel = "EPSILON",
      description = "Epsilon of the pure-DP discrete Laplace strategy, a decimal or fraction,"
          + " or none for no noise (the counts are then exact).")
  String epsilon;

  @Option(names = "--measurement-seed", defaultValue = "1", paramLabel = "N",
      description = "Seed of the simulated measurements; all cryptographic randomness and noise"
          + " come from SecureRandom.")
  long measurementSeed;

  @Option(names = "--data-dir", paramLabel = "DIR",
      description = "Keep the SQLite stores in DIR (default: a temporary folder, deleted at the"
          + " end).")
  Path dataDir;

  @Option(names = "--db-leader", paramLabel = "URL",
      description = "The Leader's store, jdbc:postgresql://... (default: SQLite).")
  String dbLeader;

  @Option(names = "--db-helper", paramLabel = "URL",
      description = "The Helper's store, jdbc:postgresql://... (default: SQLite).")
  String dbHelper;

  @Override
  public Integer call() throws IOException, InterruptedException {
    clients = clientsOption != null ? clientsOption : attribution ? 2000 : 10_000;
    if (clients < 1 || clients > 10_000_000) {
      throw new IllegalArgumentException("--clients must be in [1, 10000000], got " + clients);
    }
    if (length < 2 || length > 100_000) {
      throw new IllegalArgumentException("--length must be in [2, 100000], got " + length);
    }
    DpStrategy strategy = epsilon.strip().equalsIgnoreCase("none")
        ? new DpStrategy.NoDifferentialPrivacy()
        : new DpStrategy.PureDpDiscreteLaplace(Rational.parsePositive("--epsilon", epsilon));
    checkDb("--db-leader", dbLeader);
    checkDb("--db-helper", dbHelper);
    if (dbLeader != null && dbLeader.strip().equals(dbHelper == null ? null : dbHelper.strip())) {
      throw new IllegalArgumentException("--db-leader and --db-helper must name different"
          + " databases: the Leader and the Helper keep separate stores");
    }
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    SensitivityRule rule = SensitivityRule.parse("--sensitivity-rule", "priodp");
    Prio3Variant variant;
    if (attribution) {
      if (maxValue < 1) {
        throw new IllegalArgumentException("--max-value must be at least 1, got " + maxValue);
      }
      if (dapVersion.version() != AttributionDemo.version()) {
        throw new IllegalArgumentException("--attribution runs DAP-19 (the attribution draft's"
            + " version): drop --dap-version");
      }
      minimum = parseMinimum(minDpBudget);
      variant = AttributionDemo.variant(length, maxValue);
      strategy = AttributionDemo.strategy();
      out.printf("prio-dp demo --attribution: %d browsers, %s, %s, collector_selected,"
          + " budget_source %s, %s%n", clients, variant.describe(), strategy.describe(),
          AttributionDemo.SITE, dapVersion.version().tag().toUpperCase(java.util.Locale.ROOT));
    } else {
      int chunk = Math.max(1, (int) Math.round(Math.sqrt(length)));
      variant = new Prio3Variant.Histogram(length, chunk);
      out.printf("prio-dp demo: %d clients, Prio3Histogram(length=%d, chunk_length=%d), %s,"
          + " %s%n", clients, length, chunk,
          strategy.describeBudget().orElse("no differential privacy"),
          dapVersion.version().tag().toUpperCase(java.util.Locale.ROOT));
    }
    out.flush();

    boolean temporary = dataDir == null;
    Path dir = temporary ? Files.createTempDirectory("prio-dp-demo") : dataDir;
    Files.createDirectories(dir);
    out.printf("  stores: leader %s, helper %s%n",
        dbLeader == null ? dir.resolve("leader.sqlite") : redact(dbLeader),
        dbHelper == null ? dir.resolve("helper.sqlite") : redact(dbHelper));
    out.flush();
    boolean ok = false;
    long started = System.nanoTime();
    // the servers' request lines would break the progress bars: only warnings and errors
    List<AutoCloseable> quiet = List.of(LogFormat.quiet("org.priodp"),
        LogFormat.quiet("com.zaxxer.hikari"));
    try {
      run(out, err, variant, strategy, rule, dir);
      ok = true;
    } catch (DatastoreException | IOException | IllegalStateException e) {
      // the environment failed (a store, a port, an aggregator's answer): one line, exit 1
      if (verbose()) {
        e.printStackTrace(err);
      }
      err.println("demo: " + Causes.describe(e));
      return 1;
    } finally {
      for (AutoCloseable q : quiet) {
        try {
          q.close();
        } catch (Exception e) {
          // restoring a log level does not fail
        }
      }
      boolean sqlite = dbLeader == null || dbHelper == null;
      if (ok && temporary) {
        deleteRecursively(dir);
        if (sqlite) {
          out.printf("  deleted the temporary stores in %s%n", dir);
        }
      } else if (sqlite || !temporary) {
        (ok ? out : err).printf("  the stores were left in %s%n", dir);
      }
      (ok ? out : err).flush();
    }
    out.printf("  demo took %.1f s%n", (System.nanoTime() - started) / 1e9);
    out.flush();
    return 0;
  }

  /** The website's min_dp_budget of an --attribution run. */
  private org.priodp.aggregator.task.MicroEpsilon minimum;

  private static org.priodp.aggregator.task.MicroEpsilon parseMinimum(String text) {
    org.priodp.aggregator.task.MicroEpsilon m;
    try {
      m = org.priodp.aggregator.task.MicroEpsilon.parseEpsilon(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--min-dp-budget: " + e.getMessage(), e);
    }
    if (m.micros() == 0) {
      throw new IllegalArgumentException("--min-dp-budget: must be positive");
    }
    return m;
  }

  private void run(PrintWriter out, PrintWriter err, Prio3Variant variant,
      DpStrategy strategy, SensitivityRule rule, Path dir)
      throws IOException, InterruptedException {
    if (attribution) {
      try (JdbcDatastore leaderStore = open(dbLeader, dir.resolve("leader.sqlite"));
          JdbcDatastore helperStore = open(dbHelper, dir.resolve("helper.sqlite"))) {
        Servers s = startServers(dapVersion.version(), variant, strategy, rule, leaderStore,
            helperStore, new SecureRandom(), AttributionDemo.batchMode(),
            AttributionDemo.settings().taskExtensions());
        try {
          out.printf("  leader at %s, helper at %s, task %s%n",
              s.task().parameters().configuration().leaderAggregatorEndpoint(),
              s.task().parameters().configuration().helperAggregatorEndpoint(),
              s.task().parameters().taskId().toBase64Url());
          AttributionDemo.run(out, err, s, leaderStore, clients, minimum, measurementSeed);
        } finally {
          s.leader().close();
          s.helper().close();
        }
      }
      return;
    }
    SecureRandom random = new SecureRandom();
    int[] buckets = measurements(clients, length, measurementSeed);
    long[] trueCounts = new long[length];
    for (int b : buckets) {
      trueCounts[b]++;
    }
    try (JdbcDatastore leaderStore = open(dbLeader, dir.resolve("leader.sqlite"));
        JdbcDatastore helperStore = open(dbHelper, dir.resolve("helper.sqlite"))) {
      Servers s = startServers(dapVersion.version(), variant, strategy, rule, leaderStore,
          helperStore, random, BatchMode.TIME_INTERVAL, List.of());
      try {
        out.printf("  leader at %s, helper at %s, task %s%n",
            s.task().parameters().configuration().leaderAggregatorEndpoint(),
            s.task().parameters().configuration().helperAggregatorEndpoint(),
            s.task().parameters().taskId().toBase64Url());
        // the noise as the servers draw it: the sampler of the task they were started with
        Prio3DpMechanism served = s.leaderTask().mechanism();
        StatedGuarantee guarantee = StatedGuarantee.of(served);
        out.printf("  noise: %s%s%n", served.describeNoise(), served.addsNoise()
            ? ", per aggregator" : "");
        out.flush();

        // the Clients
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        DapClient client = new DapClient(s.task().parameters(), http, random, Clock.systemUTC());
        long firstUnit = Math.floorDiv(Clock.systemUTC().millis() / 1000, TIME_PRECISION);
        DemoProgress upload = new DemoProgress(err, "uploading", clients);
        int refused;
        try {
          refused = uploadInParallel(client, buckets, upload);
        } catch (IOException | RuntimeException e) {
          upload.abandon();
          throw e;
        }
        double uploadSeconds = upload.finish();
        long lastUnit = Math.floorDiv(Clock.systemUTC().millis() / 1000, TIME_PRECISION);
        out.printf("  %d clients uploaded their reports to the leader (%d refused) in %.1f s%n",
            clients, refused, uploadSeconds);
        out.flush();

        // the Collector
        Interval interval = Interval.of(firstUnit, lastUnit + 1 - firstUnit);
        CollectionResult result = collect(s.task(), leaderStore, interval, clients - refused, err);
        out.printf("  collector: %d reports in the batch interval of %d s, both aggregate shares"
            + " opened%n", result.reportCount(), interval.duration().value() * TIME_PRECISION);
        DemoTable.print(out, trueCounts, result.result());
        out.printf("  %s%n", result.result().noiseNote());
        for (String line : CollectCommand.privacy(guarantee, result)) {
          out.printf("  %s%n", line);
        }
        if (guarantee.budget().isPresent()) {
          out.printf("  cost to a privacy unit: each simulated client sent 1 report, so this"
              + " release cost each client %s (a task's privacy_unit and privacy_budget make the"
              + " Leader keep a ledger: docs/PRIVACY.md)%n", guarantee.text());
        }
        out.flush();
      } finally {
        s.leader().close();
        s.helper().close();
      }
    }
  }

  /** The two running aggregators, their task and the Leader's task as it serves it. */
  record Servers(ProvisionedTask task, TaskDefinition leaderTask, Aggregator leader,
      Aggregator helper) {
  }

  /**
   * Provisions the task for two free loopback ports and starts the Leader, with its aggregation
   * driver polling every 100 ms and retrying after 1 s, and the Helper on them, each as {@code
   * serve} does. A task configuration names both endpoints, so the ports are chosen first (bound
   * to port 0, then released); if another process takes one meanwhile, the demo tries new ports.
   */
  private static Servers startServers(DapVersion version, Prio3Variant variant,
      DpStrategy strategy,
      SensitivityRule rule, JdbcDatastore leaderStore,
      JdbcDatastore helperStore, SecureRandom random, BatchMode batchMode,
      List<org.priodp.aggregator.dap.TaskExtension> extensions)
      throws IOException {
    LeaderAggregationDriver.Options d = LeaderAggregationDriver.Options.defaults();
    LeaderAggregationDriver.Options leaderOptions = new LeaderAggregationDriver.Options(
        d.jobSize(), 1, d.leaseDuration(), d.maxAttempts(), Duration.ofSeconds(1), d.workers(),
        Duration.ofMillis(100));
    IllegalStateException last = null;
    for (int attempt = 0; attempt < 5; attempt++) {
      int leaderPort = freePort();
      int helperPort = freePort();
      ProvisionedTask task = ProvisionedTask.generate(version,
          TaskDefinition.configurationFor(variant,
              "prio-dp demo".getBytes(StandardCharsets.UTF_8),
              "http://127.0.0.1:" + leaderPort + "/", "http://127.0.0.1:" + helperPort + "/",
              TIME_PRECISION, 1, batchMode, extensions),
          variant, strategy, rule, random);
      try {
        TaskDefinition leaderTask = task.leader();
        Aggregator leader = Aggregator.start(AggregatorConfig.builder(List.of(leaderTask),
            leaderStore).port(leaderPort).hpkeKeyAtStart(true)
            .helperPeer(HttpHelperPeer.create(HttpHelperPeer.Options.defaults()))
            .leaderAggregation(leaderOptions).build());
        try {
          Aggregator helper = Aggregator.start(AggregatorConfig.builder(List.of(task.helper()),
              helperStore).port(helperPort).hpkeKeyAtStart(true).build());
          return new Servers(task, leaderTask, leader, helper);
        } catch (IllegalStateException e) {
          leader.close();
          throw e;
        }
      } catch (IllegalStateException e) {
        last = e;
      }
    }
    throw last;
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  /**
   * Waits, drawing the Leader's aggregation progress (reports committed to its batch buckets),
   * until all {@code expected} reports are aggregated (or none was for 30 s) and the interval is
   * over by the clock, so that the Leader finds the collection job ready at once; then collects
   * the interval, drawing the wait for the collection job.
   */
  private static CollectionResult collect(ProvisionedTask task,
      JdbcDatastore leaderStore, Interval interval, long expected, PrintWriter err)
      throws IOException, InterruptedException {
    long endMillis = (interval.start().value() + interval.duration().value())
        * TIME_PRECISION * 1000;
    DemoProgress aggregating = new DemoProgress(err, "aggregating", expected);
    long last = -1;
    long lastProgress = System.nanoTime();
    while (true) {
      long n = leaderStore.inTaskTransaction(task.parameters().taskId(),
          tx -> tx.clientReports().aggregatedCount());
      aggregating.update(n);
      if (n != last) {
        last = n;
        lastProgress = System.nanoTime();
      }
      boolean over = Clock.systemUTC().millis() >= endMillis;
      if (over && (n >= expected || System.nanoTime() - lastProgress > 30_000_000_000L)) {
        break;
      }
      Thread.sleep(100);
    }
    aggregating.finish();

    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    DapCollector collector = DapCollector.of(task.collectorFile(), http, Duration.ofMinutes(30));
    DemoProgress collecting = new DemoProgress(err, "collecting", 1);
    ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "prio-dp-demo-progress");
      t.setDaemon(true);
      return t;
    });
    ticker.scheduleWithFixedDelay(() -> collecting.update(0), 0, 200, TimeUnit.MILLISECONDS);
    try {
      CollectionResult result =
          collector.collect(new Query.TimeInterval(interval), (poll, wait, waited) -> { });
      ticker.shutdownNow();
      ticker.awaitTermination(5, TimeUnit.SECONDS);
      collecting.finish();
      return result;
    } catch (IOException | RuntimeException e) {
      ticker.shutdownNow();
      collecting.abandon();
      throw e;
    }
  }

  /**
   * Uploads every client's measurement in requests of {@link #UPLOAD_CHUNK} reports from one
   * thread per processor (the Clients shard and seal on the machine's cores, as independent
   * Clients would; {@link DapClient} is thread-safe) and returns how many reports the Leader
   * refused.
   */
  private static int uploadInParallel(DapClient client, int[] buckets, DemoProgress progress)
      throws IOException, InterruptedException {
    int threads = Math.max(4, 2 * Runtime.getRuntime().availableProcessors());
    java.util.concurrent.ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, "prio-dp-demo-client");
      t.setDaemon(true);
      return t;
    });
    try {
      int[] done = new int[1];
      List<java.util.concurrent.Future<Integer>> requests = new ArrayList<>();
      for (int from = 0; from < buckets.length; from += UPLOAD_CHUNK) {
        int start = from;
        int to = Math.min(buckets.length, from + UPLOAD_CHUNK);
        requests.add(pool.submit(() -> {
          List<List<BigInteger>> batch = new ArrayList<>(to - start);
          for (int c = start; c < to; c++) {
            batch.add(List.of(BigInteger.valueOf(buckets[c])));
          }
          UploadErrors errors = client.upload(batch);
          synchronized (done) {
            done[0] += to - start;
            progress.update(done[0]);
          }
          return errors.status().size();
        }));
      }
      int refused = 0;
      for (java.util.concurrent.Future<Integer> f : requests) {
        try {
          refused += f.get();
        } catch (java.util.concurrent.ExecutionException e) {
          if (e.getCause() instanceof IOException io) {
            throw io;
          }
          if (e.getCause() instanceof RuntimeException re) {
            throw re;
          }
          throw new IllegalStateException(e.getCause());
        }
      }
      return refused;
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * Returns each client's bucket, drawn from a skewed distribution (bucket i with weight
   * 1/(i+1)) by a generator seeded with {@code seed}.
   */
  static int[] measurements(int clients, int length, long seed) {
    SplittableRandom measurements = new SplittableRandom(seed);
    double[] cumulative = new double[length];
    double total = 0;
    for (int i = 0; i < length; i++) {
      total += 1.0 / (i + 1);
      cumulative[i] = total;
    }
    int[] buckets = new int[clients];
    for (int c = 0; c < clients; c++) {
      double u = measurements.nextDouble() * total;
      int b = 0;
      while (b < length - 1 && u >= cumulative[b]) {
        b++;
      }
      buckets[c] = b;
    }
    return buckets;
  }

  /** Whether {@code --verbose} was given, on this command or before it. */
  private boolean verbose() {
    for (picocli.CommandLine c = spec.commandLine(); c != null; c = c.getParent()) {
      if (c.getParseResult() != null && c.getParseResult().hasMatchedOption("--verbose")) {
        return true;
      }
    }
    return false;
  }

  private static void checkDb(String option, String url) {
    if (url != null && !url.strip().startsWith("jdbc:postgresql:")) {
      throw new IllegalArgumentException(option + ": expected jdbc:postgresql://..., got '"
          + redact(url) + "'");
    }
  }

  private static String redact(String url) {
    return url.strip().replaceAll("(?i)(password=)[^&;]*", "$1***");
  }

  private static JdbcDatastore open(String url, Path sqliteFile) {
    return url == null ? JdbcDatastore.openSqlite(sqliteFile)
        : JdbcDatastore.open(url.strip(), new Properties());
  }

  private static void deleteRecursively(Path dir) throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }
}
