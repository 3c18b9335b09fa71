package org.priodp.aggregator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.net.http.HttpClient;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.client.CollectionResult;
import org.priodp.aggregator.client.DapClient;
import org.priodp.aggregator.client.DapCollector;
import org.priodp.aggregator.core.BatchBuckets;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.dap.Interval;
import org.priodp.aggregator.dap.Query;
import org.priodp.aggregator.dap.UploadErrors;
import org.priodp.aggregator.datastore.BatchAggregation;
import org.priodp.aggregator.datastore.Datastore;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import org.priodp.aggregator.peer.HttpHelperPeer;
import org.priodp.aggregator.testing.EndToEndTask;
import org.priodp.aggregator.testing.LeaderPair;
import org.priodp.aggregator.testing.LockedRandomSource;

/**
 * Issue 17, end to end over HTTP on loopback: a Leader and a Helper as two servers with their own
 * SQLite stores (each an {@link Aggregator}, as {@code serve} builds them: the HTTP Helper client,
 * the Leader's aggregation driver with the default options and the collection driver), tasks
 * provisioned by {@code task new}, Clients uploading with {@link DapClient} and the Collector
 * collecting with {@link DapCollector}. For every Prio3 type: without DP the collected aggregate is
 * the truth exactly; with discrete Laplace and discrete Gaussian noise every coordinate lies in its
 * interval (confidence 1 - 10^-6 per coordinate, so with 42 noised coordinates a false alarm has
 * probability below 5 10^-5). A rate test collects 40 independent hourly batches of one
 * Prio3Histogram(4) task with 95% intervals and checks that the number of the 160 coordinates
 * outside their interval is consistent with a coverage of at least 95% (one-sided binomial test at
 * false-alarm probability 10^-3). Measurements, report IDs and noise come from seeded streams
 * ({@code -Dpriodp.seed} fixes them; the seed is printed).
 */
class EndToEndTest {
  private static final int REPORTS = 20;
  private static final int RATE_BATCHES = 40;
  private static final int RATE_REPORTS = 5;
  private static final double RATE_ALPHA = 1e-3;
  private static final double DP_CONFIDENCE = 1 - 1e-6;

  @TempDir
  static Path dir;

  static long seed;
  static Datastore helperStore;
  static Datastore leaderStore;
  static Aggregator helper;
  static Aggregator leader;
  static final Map<String, List<EndToEndTask>> tasks = new java.util.LinkedHashMap<>();
  static EndToEndTask rateTask;
  static final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .build();

  @BeforeAll
  static void start() throws Exception {
    seed = Long.getLong("priodp.seed", System.nanoTime());
    System.out.println("EndToEndTest seed=" + seed);
    int helperPort = LeaderPair.freePort();
    int leaderPort = LeaderPair.freePort();
    String leaderUrl = "http://127.0.0.1:" + leaderPort + "/leader/";
    String helperUrl = "http://127.0.0.1:" + helperPort + "/helper/";
    List<TaskDefinition> leaderTasks = new ArrayList<>();
    List<TaskDefinition> helperTasks = new ArrayList<>();
    Map<String, List<String>> dp = Map.of("none", List.of(), "laplace",
        List.of("--epsilon", "1"), "gaussian", List.of("--rho", "1/2"));
    for (String mode : List.of("none", "laplace", "gaussian")) {
      List<EndToEndTask> list = new ArrayList<>();
      for (List<String> vdaf : EndToEndTask.everyPrio3Type()) {
        List<String> args = new ArrayList<>(vdaf);
        args.addAll(dp.get(mode));
        args.addAll(List.of("--min-batch-size", "10"));
        list.add(EndToEndTask.create(dir.resolve(mode + "-" + vdaf.get(1)), leaderUrl, helperUrl,
            args.toArray(String[]::new)));
      }
      tasks.put(mode, list);
    }
    rateTask = EndToEndTask.create(dir.resolve("rate"), leaderUrl, helperUrl, "--vdaf",
        "Prio3Histogram", "--length", "4", "--chunk-length", "2", "--epsilon", "1",
        "--min-batch-size", String.valueOf(RATE_REPORTS));
    for (List<EndToEndTask> list : tasks.values()) {
      for (EndToEndTask t : list) {
        leaderTasks.add(t.leader);
        helperTasks.add(t.helper);
      }
    }
    leaderTasks.add(rateTask.leader);
    helperTasks.add(rateTask.helper);

    helperStore = JdbcDatastore.openSqlite(dir.resolve("helper.db"));
    leaderStore = JdbcDatastore.openSqlite(dir.resolve("leader.db"));
    helper = Aggregator.start(AggregatorConfig.builder(helperTasks, helperStore).port(helperPort)
        .noise(noise(1)).hpkeKeyAtStart(true).build());
    leader = Aggregator.start(AggregatorConfig.builder(leaderTasks, leaderStore).port(leaderPort)
        .noise(noise(2)).hpkeKeyAtStart(true)
        .helperPeer(HttpHelperPeer.create(HttpHelperPeer.Options.defaults())).build());
  }

  /** A seeded noise stream per aggregator, derived from the test's seed. */
  private static LockedRandomSource noise(int party) {
    return new LockedRandomSource(ByteBuffer.allocate(12).putLong(seed).putInt(party).array());
  }

  @AfterAll
  static void stop() throws Exception {
    if (leader != null) {
      leader.close();
    }
    if (helper != null) {
      helper.close();
    }
    if (leaderStore != null) {
      leaderStore.close();
    }
    if (helperStore != null) {
      helperStore.close();
    }
  }

  @Test
  void everyPrio3TypeIsExactWithoutDp() throws Exception {
    for (Collected c : uploadAndCollect(tasks.get("none"), 1, 1 - 1e-6)) {
      assertEquals(REPORTS, c.result.reportCount(), c.name);
      assertEquals(c.truth, c.result.result().estimates(), c.name + ": exact without DP");
      assertEquals(BigInteger.ZERO, c.result.result().halfWidth(), c.name);
    }
  }

  @Test
  void everyPrio3TypeLiesInItsIntervalsWithDiscreteLaplace() throws Exception {
    for (Collected c : uploadAndCollect(tasks.get("laplace"), 2, DP_CONFIDENCE)) {
      assertInIntervals(c);
    }
  }

  @Test
  void everyPrio3TypeLiesInItsIntervalsWithDiscreteGaussian() throws Exception {
    for (Collected c : uploadAndCollect(tasks.get("gaussian"), 3, DP_CONFIDENCE)) {
      assertInIntervals(c);
    }
  }

  /**
   * 40 hourly batches of one task, each collected with 95% intervals: the misses among the 160
   * coordinates must not exceed the one-sided binomial critical value at p = 0.05.
   */
  @Test
  void ninetyFivePercentIntervalsCoverAtTheStatedRate() throws Exception {
    Random random = new Random(seed ^ 0x5ca1ab1eL);
    long hour = System.currentTimeMillis() / 1000 / 3600;
    List<Batch> batches = new ArrayList<>();
    for (int b = 0; b < RATE_BATCHES; b++) {
      long t = hour - 10 - b;
      List<List<BigInteger>> ms = new ArrayList<>();
      for (int i = 0; i < RATE_REPORTS; i++) {
        ms.add(rateTask.measurement(random));
      }
      DapClient client = new DapClient(rateTask.client, http, seeded(random),
          Clock.fixed(Instant.ofEpochSecond(t * 3600 + 1800), ZoneOffset.UTC));
      UploadErrors errors = client.upload(ms);
      assertTrue(errors.status().isEmpty(), "upload errors: " + errors);
      batches.add(new Batch(rateTask, "batch " + b, t, ms));
    }
    List<Collected> collected = collectAll(batches, 0.95);
    int coordinates = 0;
    int misses = 0;
    for (Collected c : collected) {
      assertEquals(RATE_REPORTS, c.result.reportCount(), c.name);
      for (int i = 0; i < c.truth.size(); i++) {
        coordinates++;
        if (!inInterval(c, i)) {
          misses++;
        }
      }
    }
    int critical = EndToEndTask.binomialCritical(coordinates, 0.05, RATE_ALPHA);
    System.out.println("EndToEndTest rate: " + misses + " of " + coordinates + " coordinates"
        + " outside their 95% interval (half-width " + collected.get(0).result.result()
        .halfWidth() + "); at most " + critical + " accepted (P(Bin(" + coordinates
        + ", 0.05) > " + critical + ") <= " + RATE_ALPHA + "), seed=" + seed);
    assertTrue(misses <= critical, misses + " of " + coordinates + " coordinates outside their"
        + " 95% intervals: more than " + critical + ", coverage below 95% (false alarm <= "
        + RATE_ALPHA + ", seed=" + seed + ")");
  }

  // ------------------------------------------------------------------ helpers

  private record Batch(EndToEndTask task, String name, long time, List<List<BigInteger>> ms) {}

  private record Collected(String name, List<BigInteger> truth, CollectionResult result) {}

  private static boolean inInterval(Collected c, int i) {
    BigInteger v = c.truth.get(i);
    return v.compareTo(c.result.result().lower(i)) >= 0
        && v.compareTo(c.result.result().upper(i)) <= 0;
  }

  private static void assertInIntervals(Collected c) {
    assertEquals(REPORTS, c.result.reportCount(), c.name);
    assertTrue(c.result.result().halfWidth().signum() > 0, c.name + ": noised");
    for (int i = 0; i < c.truth.size(); i++) {
      assertTrue(inInterval(c, i), c.name + " coordinate " + i + ": truth " + c.truth.get(i)
          + " outside [" + c.result.result().lower(i) + ", " + c.result.result().upper(i)
          + "] (seed=" + seed + ")");
    }
  }

  private static SecureRandom seeded(Random random) throws Exception {
    SecureRandom r = SecureRandom.getInstance("SHA1PRNG");
    r.setSeed(random.nextLong());
    return r;
  }

  /** Uploads REPORTS measurements to each task in the hour {@code ago} hours back, collects. */
  private static List<Collected> uploadAndCollect(List<EndToEndTask> list, int ago,
      double confidence) throws Exception {
    Random random = new Random(seed + ago);
    long t = System.currentTimeMillis() / 1000 / 3600 - ago;
    List<Batch> batches = new ArrayList<>();
    for (EndToEndTask task : list) {
      List<List<BigInteger>> ms = new ArrayList<>();
      for (int i = 0; i < REPORTS; i++) {
        ms.add(task.measurement(random));
      }
      DapClient client = new DapClient(task.client, http, seeded(random),
          Clock.fixed(Instant.ofEpochSecond(t * 3600 + 60), ZoneOffset.UTC));
      UploadErrors errors = client.upload(ms);
      assertTrue(errors.status().isEmpty(), task.variant.describe() + ": " + errors);
      batches.add(new Batch(task, task.variant.describe() + " "
          + task.leader.dpStrategy().describe(), t, ms));
    }
    return collectAll(batches, confidence);
  }

  /**
   * Waits until the Leader's buckets hold every uploaded report (so the collection is not
   * started before aggregation and does not wait for a second readiness round), then collects
   * every batch concurrently.
   */
  private static List<Collected> collectAll(List<Batch> batches, double confidence)
      throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    for (Batch b : batches) {
      while (true) {
        long n = leaderStore.inTaskTransaction(b.task.leader.taskId(),
            tx -> tx.batchBuckets().get(BatchBuckets.timeIntervalBucket(b.time)))
            .map(BatchAggregation::reportCount).orElse(0L);
        if (n >= b.ms.size()) {
          break;
        }
        assertTrue(System.nanoTime() < deadline, b.name + ": aggregated " + n + " of "
            + b.ms.size() + " after 60 s");
        Thread.sleep(20);
      }
    }
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<Collected>> futures = new ArrayList<>();
      for (Batch b : batches) {
        futures.add(pool.submit(() -> {
          DapCollector collector = new DapCollector(b.task.collector.parameters(),
              b.task.collector.collectorAuthToken(), b.task.collector.hpkeConfig(),
              b.task.collector.hpkeKey(), http, d -> Thread.sleep(d.toMillis()),
              Duration.ofSeconds(60), confidence);
          CollectionResult r = collector.collect(new Query.TimeInterval(Interval.of(b.time, 1)),
              (poll, wait, waited) -> { });
          return new Collected(b.name, EndToEndTask.truth(b.task.variant, b.ms), r);
        }));
      }
      List<Collected> out = new ArrayList<>();
      for (Future<Collected> f : futures) {
        out.add(f.get());
      }
      return out;
    } finally {
      pool.shutdownNow();
    }
  }
}
