package org.priodp.conformance.load;

import java.io.PrintWriter;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.priodp.aggregator.cli.LogFormat;
import org.priodp.aggregator.cli.PrioDp;
import org.priodp.aggregator.client.CollectionResult;
import org.priodp.aggregator.client.CollectorTask;
import org.priodp.aggregator.client.DapClient;
import org.priodp.aggregator.client.DapCollector;
import org.priodp.aggregator.core.BatchBuckets;
import org.priodp.aggregator.core.LeaderAggregationDriver;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.dap.DapMediaType;
import org.priodp.aggregator.dap.Interval;
import org.priodp.aggregator.dap.Query;
import org.priodp.aggregator.dap.Report;
import org.priodp.aggregator.dap.UploadRequest;
import org.priodp.aggregator.datastore.BatchAggregation;
import org.priodp.aggregator.datastore.Datastore;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import org.priodp.aggregator.peer.HttpHelperPeer;
import org.priodp.aggregator.server.Aggregator;
import org.priodp.aggregator.server.AggregatorConfig;
import org.priodp.aggregator.task.TaskParameters;
import org.priodp.aggregator.taskfile.ClientTaskFile;
import org.priodp.aggregator.taskfile.CollectorTaskFile;
import org.priodp.aggregator.taskfile.TaskFile;
import org.priodp.vdaf.Prio3Variant;

/**
 * The end-to-end load of issue 17 on loopback: a Leader and a Helper in this process, each its
 * own {@link Aggregator} and store (as {@code serve} builds them: the HTTP Helper client and the
 * Leader's aggregation driver with its default workers, lease and poll interval), a task
 * provisioned by {@code task new} (no DP, min_batch_size 1, time_precision 3600). Before the clock starts it prepares every report with {@link DapClient#report} (Prio3
 * shard, both input shares sealed to the advertised HPKE configs, all in the previous hour) and
 * encodes the UploadRequest bodies of {@code perRequest} reports; then {@code uploaders} threads
 * POST them (DAP-18 "Uploading Reports"), every answer must be 200 with no upload error. It
 * measures uploads/s accepted, reports/s aggregated by both aggregators (from the first upload
 * accepted to the moment the Leader's bucket holds every report; the Helper committed each job
 * before the Leader did) and, with the Collector started right after the last upload, the time
 * from the last upload to the collected result, which must be the exact aggregate.
 */
public final class EndToEndLoad {
  private EndToEndLoad() {}

  /**
   * The figures of one run.
   *
   * @param reports reports uploaded and collected
   * @param uploaders concurrent uploaders
   * @param perRequest reports per UploadRequest
   * @param prepareSeconds time to prepare the reports (before the clock)
   * @param uploadSeconds from the first POST to the last upload accepted
   * @param aggregateSeconds from the first upload accepted to the last report committed
   * @param collectSeconds from the last upload accepted to the collected result
   * @param cores processors available to the JVM
   */
  public record Result(long reports, int uploaders, int perRequest, double prepareSeconds,
      double uploadSeconds, double aggregateSeconds, double collectSeconds, int cores) {
    /** Uploads accepted per second. */
    public double uploadsPerSecond() {
      return reports / uploadSeconds;
    }

    /** Reports aggregated by both aggregators per second. */
    public double aggregatedPerSecond() {
      return reports / aggregateSeconds;
    }
  }

  /** The {@code task new} options of a VDAF of the load generator. */
  static List<String> taskNewOptions(AggregationLoad.Vdaf vdaf) {
    Prio3Variant v = vdaf.variant;
    List<String> options = new ArrayList<>(List.of("--vdaf", v.specName()));
    v.parameters().forEach((name, value) ->
        options.addAll(List.of("--" + name.replace('_', '-'), value)));
    return List.copyOf(options);
  }

  /**
   * Runs the load: {@code leaderDb} and {@code helperDb} are JDBC URLs (null: a fresh SQLite
   * file each in a temporary directory); progress goes to {@code err}.
   */
  public static Result run(AggregationLoad.Vdaf vdaf, int reports, int uploaders,
      int perRequest, int jobSize, String leaderDb, String helperDb, Properties properties,
      PrintWriter err) throws Exception {
    if (reports < 1 || uploaders < 1 || perRequest < 1 || jobSize < 1) {
      throw new IllegalArgumentException("--reports, --concurrency, --reports-per-request and"
          + " --job-size must be >= 1");
    }
    Path dir = Files.createTempDirectory("prio-dp-e2e-load");
    int helperPort;
    int leaderPort;
    try (java.net.ServerSocket a = new java.net.ServerSocket(0, 1,
        java.net.InetAddress.getLoopbackAddress());
        java.net.ServerSocket b = new java.net.ServerSocket(0, 1,
            java.net.InetAddress.getLoopbackAddress())) {
      helperPort = a.getLocalPort();
      leaderPort = b.getLocalPort();
    }
    List<String> args = new ArrayList<>(List.of("task", "new", "--leader-url",
        "http://127.0.0.1:" + leaderPort + "/leader/", "--helper-url",
        "http://127.0.0.1:" + helperPort + "/helper/", "--min-batch-size", "1",
        "--out", dir.resolve("task").toString()));
    args.addAll(taskNewOptions(vdaf));
    picocli.CommandLine taskNew = PrioDp.commandLine();
    taskNew.setOut(new PrintWriter(java.io.Writer.nullWriter()));
    int code = taskNew.execute(args.toArray(String[]::new));
    if (code != 0) {
      throw new IllegalStateException("task new failed: " + code);
    }
    TaskDefinition leaderTask = TaskFile.read(dir.resolve("task/leader.json")).get(0);
    TaskDefinition helperTask = TaskFile.read(dir.resolve("task/helper.json")).get(0);
    CollectorTask collectorFile = CollectorTaskFile.read(dir.resolve("task/collector.json"));
    TaskParameters clientTask = ClientTaskFile.read(dir.resolve("task/client.json"));

    String lUrl = leaderDb != null ? leaderDb : "jdbc:sqlite:" + dir.resolve("leader.db");
    String hUrl = helperDb != null ? helperDb : "jdbc:sqlite:" + dir.resolve("helper.db");
    err.println("leader store " + redact(lUrl) + ", helper store " + redact(hUrl));
    err.flush();
    try (AutoCloseable quiet = LogFormat.quiet("org.priodp.aggregator.request");
        Datastore leaderStore = JdbcDatastore.open(lUrl, properties);
        Datastore helperStore = JdbcDatastore.open(hUrl, properties)) {
      LeaderAggregationDriver.Options d = LeaderAggregationDriver.Options.defaults();
      Aggregator helper = Aggregator.start(AggregatorConfig.builder(List.of(helperTask),
          helperStore).port(helperPort).hpkeKeyAtStart(true).build());
      Aggregator leader;
      try {
        leader = Aggregator.start(AggregatorConfig.builder(List.of(leaderTask), leaderStore)
            .port(leaderPort).hpkeKeyAtStart(true)
            .helperPeer(HttpHelperPeer.create(HttpHelperPeer.Options.defaults()))
            .leaderAggregation(new LeaderAggregationDriver.Options(jobSize, d.minJobSize(),
                d.leaseDuration(), d.maxAttempts(), d.retryDelay(), d.workers(),
                d.pollInterval())).build());
      } catch (RuntimeException e) {
        helper.close();
        throw e;
      }
      try {
        return measure(vdaf, reports, uploaders, perRequest, leaderTask, clientTask,
            collectorFile, leaderStore, helperStore, leaderPort, err);
      } finally {
        leader.close();
        helper.close();
      }
    }
  }

  private static Result measure(AggregationLoad.Vdaf vdaf, int n, int uploaders, int perRequest,
      TaskDefinition leaderTask, TaskParameters clientTask, CollectorTask collectorFile,
      Datastore leaderStore, Datastore helperStore, int leaderPort,
      PrintWriter err) throws Exception {
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    long hour = System.currentTimeMillis() / 1000 / 3600 - 1;
    DapClient client = new DapClient(clientTask, http, new SecureRandom(),
        Clock.fixed(Instant.ofEpochSecond(hour * 3600 + 60), ZoneOffset.UTC));
    // before the clock: measurements, reports (shard + seal) and request bodies
    long prepStart = System.nanoTime();
    SecureRandom random = new SecureRandom();
    List<List<BigInteger>> ms = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      ms.add(vdaf.measurement(random));
    }
    DapClient.AggregatorConfigs configs = client.hpkeConfigs();
    Report[] built = new Report[n];
    IntStream.range(0, n).parallel().forEach(i -> built[i] = client.report(ms.get(i), configs));
    List<byte[]> bodies = new ArrayList<>();
    for (int from = 0; from < n; from += perRequest) {
      bodies.add(new UploadRequest(Arrays.asList(built).subList(from, Math.min(n, from
          + perRequest))).encode());
    }
    double prepareSeconds = (System.nanoTime() - prepStart) / 1e9;
    err.printf("prepared %d reports in %d requests in %.1f s%n", n, bodies.size(),
        prepareSeconds);
    err.flush();

    // the clock: N uploaders
    URI uri = URI.create("http://127.0.0.1:" + leaderPort + "/leader/tasks/"
        + leaderTask.taskId().toBase64Url() + "/reports");
    AtomicInteger next = new AtomicInteger();
    AtomicLong firstAccepted = new AtomicLong(Long.MAX_VALUE);
    AtomicLong lastAccepted = new AtomicLong();
    long uploadStart = System.nanoTime();
    ExecutorService pool = Executors.newFixedThreadPool(uploaders);
    List<Future<?>> fs = new ArrayList<>();
    for (int u = 0; u < uploaders; u++) {
      fs.add(pool.submit(() -> {
        for (int i = next.getAndIncrement(); i < bodies.size(); i = next.getAndIncrement()) {
          HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(uri)
              .header("Content-Type", DapMediaType.UPLOAD_REQ.contentType())
              .POST(HttpRequest.BodyPublishers.ofByteArray(bodies.get(i))).build(),
              HttpResponse.BodyHandlers.ofByteArray());
          if (r.statusCode() != 200 || r.body().length != 0) {
            throw new IllegalStateException("upload " + i + ": HTTP " + r.statusCode() + ", "
                + r.body().length + " bytes of upload errors");
          }
          long now = System.nanoTime();
          firstAccepted.accumulateAndGet(now, Math::min);
          lastAccepted.accumulateAndGet(now, Math::max);
        }
        return null;
      }));
    }
    // watch the Leader's bucket: the last report committed
    AtomicLong aggregated = new AtomicLong();
    Thread watch = new Thread(() -> {
      while (!Thread.currentThread().isInterrupted()) {
        long c = leaderStore.inTaskTransaction(leaderTask.taskId(),
            tx -> tx.batchBuckets().get(BatchBuckets.timeIntervalBucket(hour)))
            .map(BatchAggregation::reportCount).orElse(0L);
        if (c >= n) {
          aggregated.set(System.nanoTime());
          return;
        }
        try {
          Thread.sleep(20);
        } catch (InterruptedException e) {
          return;
        }
      }
    }, "e2e-load-watch");
    watch.setDaemon(true);
    watch.start();
    for (Future<?> f : fs) {
      f.get();
    }
    pool.shutdown();
    long uploadsDone = lastAccepted.get();
    double uploadSeconds = (uploadsDone - uploadStart) / 1e9;
    err.printf("uploaded %d reports in %.1f s; collecting%n", n, uploadSeconds);
    err.flush();
    DapCollector collector = DapCollector.of(collectorFile, http, Duration.ofMinutes(30));
    CollectionResult result = collector.collect(new Query.TimeInterval(Interval.of(hour, 1)),
        (poll, wait, waited) -> { });
    long collected = System.nanoTime();
    watch.join(60_000);
    if (aggregated.get() == 0) {
      throw new IllegalStateException("the Leader's bucket never held every report");
    }
    // check: exact aggregate, both sides counted every report
    if (result.reportCount() != n) {
      throw new IllegalStateException("collected " + result.reportCount() + " of " + n);
    }
    long helperCount = helperStore.inTaskTransaction(leaderTask.taskId(),
        tx -> tx.batchBuckets().get(BatchBuckets.timeIntervalBucket(hour)))
        .map(BatchAggregation::reportCount).orElse(0L);
    if (helperCount != n) {
      throw new IllegalStateException("the Helper counted " + helperCount + " of " + n);
    }
    List<BigInteger> truth = truth(vdaf, ms);
    if (!truth.equals(result.result().estimates())) {
      throw new IllegalStateException("collected " + result.result().estimates()
          + ", expected " + truth);
    }
    return new Result(n, uploaders, perRequest, prepareSeconds, uploadSeconds,
        (aggregated.get() - firstAccepted.get()) / 1e9, (collected - uploadsDone) / 1e9,
        Runtime.getRuntime().availableProcessors());
  }

  private static List<BigInteger> truth(AggregationLoad.Vdaf vdaf, List<List<BigInteger>> ms) {
    BigInteger[] sum = new BigInteger[vdaf.variant.outputLength()];
    Arrays.fill(sum, BigInteger.ZERO);
    for (List<BigInteger> m : ms) {
      List<BigInteger> c = vdaf.contribution(m);
      for (int i = 0; i < sum.length; i++) {
        sum[i] = sum[i].add(c.get(i));
      }
    }
    return List.of(sum);
  }

  private static String redact(String url) {
    return url.replaceAll("password=[^&]*", "password=***");
  }
}
