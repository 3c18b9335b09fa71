package org.priodp.aggregator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.client.CollectionResult;
import org.priodp.aggregator.client.DapClient;
import org.priodp.aggregator.client.DapCollector;
import org.priodp.aggregator.client.DapProblemException;
import org.priodp.aggregator.core.BatchBuckets;
import org.priodp.aggregator.dap.DapError;
import org.priodp.aggregator.dap.Interval;
import org.priodp.aggregator.dap.Query;
import org.priodp.aggregator.dap.ReportError;
import org.priodp.aggregator.dap.ReportUploadStatus;
import org.priodp.aggregator.dap.UploadErrors;
import org.priodp.aggregator.datastore.BatchAggregation;
import org.priodp.aggregator.datastore.Datastore;
import org.priodp.aggregator.datastore.LedgerRecord;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import org.priodp.aggregator.peer.HttpHelperPeer;
import org.priodp.aggregator.task.MicroEpsilon;
import org.priodp.aggregator.task.TaskParameters;
import org.priodp.aggregator.testing.EndToEndTask;
import org.priodp.aggregator.testing.LeaderPair;
import org.priodp.aggregator.testing.LockedRandomSource;
import org.priodp.noise.Rational;
import org.priodp.vdaf.dp.DpStrategy;

/**
 * The attribution draft's privacy budgets end to end (draft-ietf-ppm-dap-attribution-00,
 * sections 3 and 5) on SQLite: a Prio3Histogram time-interval task provisioned by {@code task
 * new --dp-strategy ReportBudgetDiscreteLaplace}, a Leader and a Helper started with {@link
 * Aggregator#start}, Clients ({@link DapClient#withPrivacyBudget}) whose reports carry different
 * privacy_budget values, and {@link DapCollector}. A report without privacy_budget is dropped at
 * upload. Without min_dp_budget both aggregators noise at the least budget of the batch (0.25 of
 * 0.5 and 0.25; the Collector, told that epsilon, finds the truth in its intervals); with
 * min_dp_budget 0.4 over budgets 0.5 and 1 both noise at 0.4; with min_dp_budget 0.5 over a batch
 * holding a 0.25 report the Leader fails the job (invalidMessage) and nothing is drawn or charged.
 * The seed is printed ({@code -Dpriodp.seed} fixes it).
 */
class ReportBudgetEndToEndTest {
  private static final double CONFIDENCE = 1 - 1e-6;

  @TempDir
  static Path dir;

  static long seed;
  static JdbcDatastore helperStore;
  static JdbcDatastore leaderStore;
  static Aggregator helper;
  static Aggregator leader;
  static EndToEndTask task;
  static final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .build();

  @BeforeAll
  static void start() throws Exception {
    seed = Long.getLong("priodp.seed", System.nanoTime());
    System.out.println("ReportBudgetEndToEndTest seed=" + seed);
    int helperPort = LeaderPair.freePort();
    int leaderPort = LeaderPair.freePort();
    task = EndToEndTask.create(dir.resolve("task"), "http://127.0.0.1:" + leaderPort + "/leader/",
        "http://127.0.0.1:" + helperPort + "/helper/", "--vdaf", "Prio3Histogram", "--length", "4",
        "--chunk-length", "2", "--dp-strategy", "ReportBudgetDiscreteLaplace",
        "--min-batch-size", "10");
    assertEquals(new DpStrategy.ReportBudgetDiscreteLaplace(), task.leader.dpStrategy());
    helperStore = JdbcDatastore.openSqlite(dir.resolve("helper.db"));
    leaderStore = JdbcDatastore.openSqlite(dir.resolve("leader.db"));
    helper = Aggregator.start(AggregatorConfig.builder(List.of(task.helper), helperStore)
        .port(helperPort).noise(noise(1)).hpkeKeyAtStart(true).build());
    leader = Aggregator.start(AggregatorConfig.builder(List.of(task.leader), leaderStore)
        .port(leaderPort).noise(noise(2)).hpkeKeyAtStart(true)
        .helperPeer(HttpHelperPeer.create(HttpHelperPeer.Options.defaults())).build());
  }

  private static LockedRandomSource noise(int party) {
    return new LockedRandomSource(ByteBuffer.allocate(12).putLong(seed).putInt(party).array());
  }

  @AfterAll
  static void stop() throws Exception {
    for (AutoCloseable c : new AutoCloseable[] {leader, helper, leaderStore, helperStore}) {
      if (c != null) {
        c.close();
      }
    }
  }

  /** Uploads n measurements with the given budget (null: none) in hour t; returns them. */
  private static List<List<BigInteger>> upload(long t, int n, String budget, Random random,
      List<ReportError> expectedErrors) throws Exception {
    List<List<BigInteger>> ms = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ms.add(task.measurement(random));
    }
    SecureRandom r = SecureRandom.getInstance("SHA1PRNG");
    r.setSeed(random.nextLong());
    DapClient client = new DapClient(task.client, http, r,
        Clock.fixed(Instant.ofEpochSecond(t * 3600 + 60), ZoneOffset.UTC));
    if (budget != null) {
      client = client.withPrivacyBudget(MicroEpsilon.parseEpsilon(budget));
    }
    UploadErrors errors = client.upload(ms);
    assertEquals(expectedErrors, errors.status().stream().map(ReportUploadStatus::error).toList());
    return ms;
  }

  /** Waits until both aggregators' bucket of hour t counts n reports. */
  private static void awaitAggregated(long t, long n) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    for (Datastore store : List.of(leaderStore, helperStore)) {
      while (store.inTaskTransaction(task.leader.taskId(),
          tx -> tx.batchBuckets().get(BatchBuckets.timeIntervalBucket(t)))
          .map(BatchAggregation::reportCount).orElse(0L) < n) {
        assertTrue(System.nanoTime() < deadline, "not aggregated after 60 s");
        Thread.sleep(20);
      }
    }
  }

  private static DapCollector collector(TaskParameters p) {
    return new DapCollector(p, task.collector.collectorAuthToken(), task.collector.hpkeConfig(),
        task.collector.hpkeKey(), http, d -> Thread.sleep(d.toMillis()), Duration.ofSeconds(60),
        CONFIDENCE);
  }

  /** Returns the epsilon each aggregator's ledger charged for the batch of hour t, if any. */
  private static List<Rational> charged(long t) {
    List<Rational> out = new ArrayList<>();
    for (Datastore store : List.of(leaderStore, helperStore)) {
      store.inTaskTransaction(task.leader.taskId(), tx -> tx.ledger().entries()).stream()
          .filter(r -> r.batch().equals(BatchBuckets.timeIntervalBucket(t))
              || r.entry().batch().startsWith(Instant.ofEpochSecond(t * 3600).toString()))
          .map(LedgerRecord::entry)
          .forEach(e -> out.add(e.perReport().perRelease().parameter()));
    }
    return out;
  }

  private static void assertInIntervals(CollectionResult c, List<BigInteger> truth) {
    assertTrue(c.result().halfWidth().signum() > 0, "noised");
    for (int i = 0; i < truth.size(); i++) {
      BigInteger v = truth.get(i);
      assertTrue(v.compareTo(c.result().lower(i)) >= 0 && v.compareTo(c.result().upper(i)) <= 0,
          "coordinate " + i + ": truth " + v + " outside [" + c.result().lower(i) + ", "
              + c.result().upper(i) + "] (seed=" + seed + ")");
    }
  }

  @Test
  void withoutMinDpBudgetBothAggregatorsNoiseAtTheBatchsLeastBudget() throws Exception {
    Random random = new Random(seed + 1);
    long t = System.currentTimeMillis() / 1000 / 3600 - 2;
    List<List<BigInteger>> ms = new ArrayList<>(upload(t, 6, "0.5", random, List.of()));
    ms.addAll(upload(t, 5, "0.25", random, List.of()));
    upload(t, 2, null, random, List.of(ReportError.REPORT_DROPPED, ReportError.REPORT_DROPPED));
    awaitAggregated(t, 11);
    // the job carries no min_dp_budget: a Collector that knows the release is at the least
    // budget, 1/4, decodes with that epsilon
    TaskParameters p = task.collector.parameters();
    TaskParameters atQuarter = new TaskParameters(p.taskId(), p.dapVersion(), p.configuration(),
        p.variant(), DpStrategy.PureDpDiscreteLaplace.parse("1/4"), p.sensitivityRule(),
        p.attributionCodePoints());
    CollectionResult r = collector(atQuarter).collect(new Query.TimeInterval(Interval.of(t, 1)),
        (poll, wait, waited) -> { });
    assertEquals(11, r.reportCount());
    assertInIntervals(r, EndToEndTask.truth(task.variant, ms));
    assertEquals(List.of(Rational.of(1, 4), Rational.of(1, 4)), charged(t), "Leader and Helper");
  }

  @Test
  void minDpBudgetSetsTheEpsilonOfTheRelease() throws Exception {
    Random random = new Random(seed + 2);
    long t = System.currentTimeMillis() / 1000 / 3600 - 3;
    List<List<BigInteger>> ms = new ArrayList<>(upload(t, 6, "0.5", random, List.of()));
    ms.addAll(upload(t, 5, "1", random, List.of()));
    awaitAggregated(t, 11);
    DapCollector c = collector(task.collector.parameters())
        .withMinDpBudget(MicroEpsilon.parseEpsilon("0.4"));
    CollectionResult r = c.collect(new Query.TimeInterval(Interval.of(t, 1)),
        (poll, wait, waited) -> { });
    assertEquals(11, r.reportCount());
    assertInIntervals(r, EndToEndTask.truth(task.variant, ms));
    assertEquals(List.of(Rational.of(2, 5), Rational.of(2, 5)), charged(t), "Leader and Helper");
  }

  @Test
  void aMinDpBudgetAboveAReportsBudgetFailsTheJobWithoutNoise() throws Exception {
    Random random = new Random(seed + 3);
    long t = System.currentTimeMillis() / 1000 / 3600 - 4;
    upload(t, 6, "0.5", random, List.of());
    upload(t, 5, "0.25", random, List.of());
    awaitAggregated(t, 11);
    DapCollector c = collector(task.collector.parameters())
        .withMinDpBudget(MicroEpsilon.parseEpsilon("0.5"));
    DapProblemException e = assertThrows(DapProblemException.class,
        () -> c.collect(new Query.TimeInterval(Interval.of(t, 1)), (poll, wait, waited) -> { }));
    assertEquals(java.util.Optional.of(DapError.INVALID_MESSAGE), e.error(), e.getMessage());
    assertTrue(e.getMessage().contains("min_dp_budget"), e.getMessage());
    assertEquals(List.of(), charged(t), "nothing charged");
  }
}
