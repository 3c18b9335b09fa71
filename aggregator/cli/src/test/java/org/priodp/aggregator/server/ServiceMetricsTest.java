package org.priodp.aggregator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.client.CollectionResult;
import org.priodp.aggregator.client.DapClient;
import org.priodp.aggregator.client.DapCollector;
import org.priodp.aggregator.core.BatchBuckets;
import org.priodp.aggregator.core.LeaderAggregationDriver;
import org.priodp.aggregator.dap.DapMediaType;
import org.priodp.aggregator.dap.HpkeCiphertext;
import org.priodp.aggregator.dap.Interval;
import org.priodp.aggregator.dap.Query;
import org.priodp.aggregator.dap.Report;
import org.priodp.aggregator.dap.UploadErrors;
import org.priodp.aggregator.dap.UploadRequest;
import org.priodp.aggregator.datastore.BatchAggregation;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import org.priodp.aggregator.peer.HttpHelperPeer;
import org.priodp.aggregator.testing.EndToEndTask;
import org.priodp.aggregator.testing.LeaderPair;
import org.yaml.snakeyaml.Yaml;

/**
 * Issue 24: the metrics an operator alerts on, read from a real {@code GET /metrics} of a Leader
 * and a Helper (two {@link Aggregator}s over HTTP on loopback, tasks made by {@code task new})
 * after a small pipeline: uploads accepted and refused, reports the Leader and the Helper reject
 * in aggregation (a corrupted input share of either), aggregation jobs, three batches collected
 * and one collected again. Each outcome is counted with its number, each batch's share released
 * once per role (the repeat is answered from the store and not counted), Helper exchanges that
 * fail are counted by outcome, and every metric the shipped Grafana dashboard and Prometheus
 * alert rules reference exists in the Leader's scrape. Measurements and report IDs come from a
 * seeded stream ({@code -Dpriodp.seed}; printed).
 */
class ServiceMetricsTest {
  private static final int HOURS = 3;
  private static final int PER_HOUR = 3;

  @TempDir
  static Path dir;

  static final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .build();
  static final List<AutoCloseable> closing = new ArrayList<>();
  static EndToEndTask task;
  static String taskId;
  static Aggregator leader;
  static Aggregator helper;
  static String leaderUrl;
  /** The Leader's scrape after the three collections, and after a repeat of the first. */
  static String leaderScrape;
  static String leaderScrapeAfterRepeat;
  static String helperScrape;

  @BeforeAll
  static void pipeline() throws Exception {
    long seed = Long.getLong("priodp.seed", System.nanoTime());
    System.out.println("ServiceMetricsTest seed=" + seed);
    Random random = new Random(seed);
    int helperPort = LeaderPair.freePort();
    int leaderPort = LeaderPair.freePort();
    leaderUrl = "http://127.0.0.1:" + leaderPort + "/leader/";
    task = EndToEndTask.create(dir.resolve("task"), leaderUrl,
        "http://127.0.0.1:" + helperPort + "/helper/", "--vdaf", "Prio3Count",
        "--min-batch-size", "2", "--epsilon", "1");
    taskId = task.leader.taskId().toBase64Url();
    JdbcDatastore helperStore = JdbcDatastore.openSqlite(dir.resolve("helper.db"));
    JdbcDatastore leaderStore = JdbcDatastore.openSqlite(dir.resolve("leader.db"));
    closing.add(helperStore);
    closing.add(leaderStore);
    // a budget of epsilon 100 per report over the task's life: the budget gauges are all served
    org.priodp.aggregator.core.PrivacySettings budget =
        new org.priodp.aggregator.core.PrivacySettings(
            new org.priodp.noise.ledger.PrivacyUnit.Report(), java.util.Optional.of(
                org.priodp.noise.ledger.BudgetCap.life(
                    org.priodp.noise.Budget.PureDp.parse("100"))));
    helper = Aggregator.start(AggregatorConfig.builder(List.of(task.helper.withPrivacy(budget)),
        helperStore)
        .port(helperPort).hpkeKeyAtStart(true).build());
    closing.add(0, helper);
    leader = Aggregator.start(AggregatorConfig.builder(List.of(task.leader.withPrivacy(budget)),
        leaderStore)
        .port(leaderPort).hpkeKeyAtStart(true)
        .leaderAggregation(new LeaderAggregationDriver.Options(1000, 1, Duration.ofMinutes(1), 5,
            Duration.ofSeconds(1), 1, Duration.ofMillis(100)))
        .helperPeer(HttpHelperPeer.create(HttpHelperPeer.Options.defaults())).build());
    closing.add(0, leader);

    long hour = System.currentTimeMillis() / 1000 / 3600;
    for (int h = 1; h <= HOURS; h++) {
      UploadErrors errors = client(random, (hour - h) * 3600 + 60).upload(measurements(random,
          PER_HOUR));
      assertTrue(errors.status().isEmpty(), errors.toString());
    }
    // two reports a day ahead: report_too_early at upload
    UploadErrors early = client(random, (hour + 24) * 3600).upload(measurements(random, 2));
    assertEquals(2, early.status().size(), early.toString());
    // accepted at upload (the Leader does not decrypt yet), then rejected in aggregation: one
    // whose Leader share does not open (the Leader rejects it), one whose Helper share does not
    // (the Helper rejects it, and the Leader counts the Helper's answer)
    DapClient c = client(random, (hour - 1) * 3600 + 120);
    Report good = c.report(List.of(BigInteger.ONE), c.hpkeConfigs());
    Report badLeader = new Report(good.reportMetadata(), good.publicShare(),
        corrupt(good.leaderEncryptedInputShare()), good.helperEncryptedInputShare());
    Report good2 = c.report(List.of(BigInteger.ONE), c.hpkeConfigs());
    Report badHelper = new Report(good2.reportMetadata(), good2.publicShare(),
        good2.leaderEncryptedInputShare(), corrupt(good2.helperEncryptedInputShare()));
    assertEquals(200, post(leaderUrl + "tasks/" + taskId + "/reports",
        new UploadRequest(List.of(badLeader, badHelper)).encode()));

    waitAggregated(leaderStore, hour);
    for (int h = 1; h <= HOURS; h++) {
      assertEquals(PER_HOUR, collect(hour - h).reportCount());
    }
    // a report of a collected hour: report_replayed at upload
    UploadErrors replayed = client(random, (hour - 1) * 3600 + 180).upload(
        measurements(random, 1));
    assertEquals(1, replayed.status().size(), replayed.toString());
    leaderScrape = scrape(leader);
    helperScrape = scrape(helper);
    System.out.println("ServiceMetricsTest: the Leader's scrape of one task is "
        + leaderScrape.length() + " bytes, " + leaderScrape.lines()
        .filter(l -> l.startsWith("priodp_")).count() + " priodp_ samples, by name: "
        + leaderScrape.lines().filter(l -> l.startsWith("priodp_"))
        .map(l -> l.replaceAll("[{ ].*", "")).collect(java.util.stream.Collectors.groupingBy(
            n -> n, java.util.TreeMap::new, java.util.stream.Collectors.counting())));
    assertEquals(PER_HOUR, collect(hour - 1).reportCount(), "the repeat gets the same result");
    leaderScrapeAfterRepeat = scrape(leader);
  }

  @AfterAll
  static void stop() throws Exception {
    for (AutoCloseable c : closing) {
      c.close();
    }
  }

  @Test
  void uploadsAreCountedByOutcomeAndReason() {
    assertEquals(HOURS * PER_HOUR + 2, value(leaderScrape, "priodp_reports_uploaded_total",
        "task", taskId, "outcome", "accepted", "reason", "none"));
    assertEquals(2, value(leaderScrape, "priodp_reports_uploaded_total",
        "task", taskId, "outcome", "rejected", "reason", "report_too_early"));
    assertEquals(1, value(leaderScrape, "priodp_reports_uploaded_total",
        "task", taskId, "outcome", "rejected", "reason", "report_replayed"));
  }

  @Test
  void aggregationCountsReportsAndRejectionsOnBothSides() {
    assertEquals(HOURS * PER_HOUR, value(leaderScrape, "priodp_reports_aggregated_total",
        "task", taskId, "role", "leader"));
    assertEquals(2, value(leaderScrape, "priodp_reports_rejected_total",
        "task", taskId, "role", "leader", "reason", "hpke_decrypt_error"),
        "the Leader's own rejection and the Helper's answer");
    assertTrue(value(leaderScrape, "priodp_aggregation_jobs_total",
        "task", taskId, "role", "leader", "outcome", "finished") >= 1);
    assertEquals(0, value(leaderScrape, "priodp_aggregation_jobs_total",
        "task", taskId, "role", "leader", "outcome", "abandoned"));
    assertEquals(HOURS * PER_HOUR, value(helperScrape, "priodp_reports_aggregated_total",
        "task", taskId, "role", "helper"));
    assertEquals(1, value(helperScrape, "priodp_reports_rejected_total",
        "task", taskId, "role", "helper", "reason", "hpke_decrypt_error"));
    assertTrue(value(helperScrape, "priodp_aggregation_jobs_total",
        "task", taskId, "role", "helper", "outcome", "finished") >= 1);
    assertTrue(value(leaderScrape, "priodp_helper_requests_total",
        "task", taskId, "resource", "aggregation_jobs", "outcome", "ok") >= 1);
  }

  @Test
  void collectionJobsAreCountedByStateWithTheirTimeToReady() {
    for (String scrape : List.of(leaderScrape, leaderScrapeAfterRepeat)) {
      assertEquals(HOURS, value(scrape, "priodp_collection_jobs_total",
          "task", taskId, "state", "created"), "a repeated request creates no job");
      assertEquals(HOURS, value(scrape, "priodp_collection_jobs_total",
          "task", taskId, "state", "ready"));
      assertEquals(HOURS, value(scrape, "priodp_collection_job_ready_seconds_count",
          "task", taskId));
      assertEquals(HOURS, value(scrape, "priodp_helper_requests_total",
          "task", taskId, "resource", "aggregate_shares", "outcome", "ok"));
    }
  }

  /** The Leader released three batches: 3, and still 3 after the Collector asked again. */
  @Test
  void sharesReleasedCountEachBatchOncePerRole() {
    assertEquals(HOURS, value(leaderScrape, "priodp_shares_released_total",
        "task", taskId, "role", "leader"));
    assertEquals(HOURS, value(leaderScrapeAfterRepeat, "priodp_shares_released_total",
        "task", taskId, "role", "leader"));
    assertEquals(HOURS, value(helperScrape, "priodp_shares_released_total",
        "task", taskId, "role", "helper"));
    assertEquals(HOURS, value(scrape(helper), "priodp_shares_released_total",
        "task", taskId, "role", "helper"));
  }

  /**
   * Issue 25: both roles export the privacy budget gauges of their DP task, by task and unit
   * (the values, read every 30 s, are checked in PipelineGaugesTest).
   */
  @Test
  void bothRolesExportTheirTasksPrivacyBudget() {
    for (String scrape : List.of(leaderScrape, helperScrape)) {
      for (String name : List.of("spent", "remaining", "cap")) {
        assertTrue(scrape.contains("# TYPE priodp_privacy_budget_" + name + " gauge"), scrape);
        assertTrue(scrape.contains("priodp_privacy_budget_" + name + "{task=\"" + taskId
            + "\",unit=\"epsilon\"}"), scrape);
      }
      assertTrue(scrape.contains("priodp_privacy_budget_cap{task=\"" + taskId
          + "\",unit=\"epsilon\"} 100.0"), scrape);
    }
  }

  /**
   * A Leader whose Helper is unreachable counts connection failures and retried jobs; one whose
   * Helper URL answers 404 counts 4xx and retries (a cause the operator can fix), never abandons.
   */
  @Test
  void helperFailuresAreCountedByOutcome() throws Exception {
    int port = LeaderPair.freePort();
    int closedPort = LeaderPair.freePort();
    String url = "http://127.0.0.1:" + port + "/leader/";
    EndToEndTask down = EndToEndTask.create(dir.resolve("down"), url,
        "http://127.0.0.1:" + closedPort + "/helper/", "--vdaf", "Prio3Count");
    EndToEndTask missing = EndToEndTask.create(dir.resolve("missing"), url,
        url.replace("/leader/", "/no-helper-here/"), "--vdaf", "Prio3Count");
    // reports sealed to the Leader's key on both sides: the Helper is never reached
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("failing.db"));
        Aggregator a = Aggregator.start(AggregatorConfig.builder(
            List.of(down.leader, missing.leader), store).port(port).hpkeKeyAtStart(true)
            .leaderAggregation(new LeaderAggregationDriver.Options(1000, 1,
                Duration.ofMinutes(1), 5, Duration.ofSeconds(1), 1, Duration.ofMillis(100)))
            .helperPeer(HttpHelperPeer.create(new HttpHelperPeer.Options(Duration.ofSeconds(5),
                Duration.ofMillis(300), Duration.ofMillis(50), Duration.ofMillis(100),
                Duration.ofSeconds(1)))).build())) {
      for (EndToEndTask t : List.of(down, missing)) {
        DapClient c = new DapClient(t.client, http, new SecureRandom(), Clock.systemUTC());
        Report r = c.report(List.of(BigInteger.ONE), new DapClient.AggregatorConfigs(
            a.hpkeKeys().ensureActive().config(), a.hpkeKeys().ensureActive().config()));
        assertEquals(200, post(url + "tasks/" + t.leader.taskId().toBase64Url() + "/reports",
            new UploadRequest(List.of(r)).encode()));
      }
      String downId = down.leader.taskId().toBase64Url();
      String missingId = missing.leader.taskId().toBase64Url();
      String m = "";
      for (int i = 0; i < 600; i++) { // waits at most a minute for both drivers' first steps
        m = scrape(a);
        if (value(m, "priodp_aggregation_jobs_total", "task", downId, "outcome", "retry") >= 1
            && value(m, "priodp_aggregation_jobs_total", "task", missingId,
                "outcome", "retry") >= 1) {
          break;
        }
        Thread.sleep(100);
      }
      assertTrue(value(m, "priodp_helper_requests_total", "task", downId,
          "resource", "aggregation_jobs", "outcome", "connection") >= 1, m);
      assertTrue(value(m, "priodp_aggregation_jobs_total", "task", downId,
          "role", "leader", "outcome", "retry") >= 1, m);
      assertEquals(0, value(m, "priodp_helper_requests_total", "task", downId,
          "resource", "aggregation_jobs", "outcome", "ok"));
      // a task the Helper does not have (404) is a cause the operator can fix: retried later
      assertTrue(value(m, "priodp_helper_requests_total", "task", missingId,
          "resource", "aggregation_jobs", "outcome", "4xx") >= 1, m);
      assertTrue(value(m, "priodp_aggregation_jobs_total", "task", missingId,
          "role", "leader", "outcome", "retry") >= 1, m);
      assertEquals(0, value(m, "priodp_aggregation_jobs_total", "task", missingId,
          "role", "leader", "outcome", "abandoned"), m);
      assertTrue(value(m, "priodp_helper_request_seconds_count", "task", downId,
          "resource", "aggregation_jobs") >= 1, m);
    }
  }

  /** Every metric the shipped dashboard and alert rules name is in the Leader's scrape. */
  @Test
  void theDashboardAndTheAlertRulesNameOnlyMetricsTheLeaderServes() throws Exception {
    Path monitoring = Path.of(System.getProperty("priodp.root", "../.."))
        .resolve("aggregator/cli/src/dist/monitoring");
    JsonNode dashboard = new ObjectMapper().readTree(
        monitoring.resolve("grafana-dashboard.json").toFile());
    List<String> queries = new ArrayList<>();
    for (JsonNode panel : dashboard.path("panels")) {
      for (JsonNode target : panel.path("targets")) {
        queries.add(target.path("expr").asText());
      }
    }
    for (JsonNode variable : dashboard.path("templating").path("list")) {
      queries.add(variable.path("definition").asText(""));
    }
    assertTrue(dashboard.path("panels").size() >= 8, "the dashboard has its panels");
    Map<String, Object> rules = new Yaml().load(Files.readString(
        monitoring.resolve("prometheus-alerts.yml")));
    Map<String, String> alerts = new LinkedHashMap<>();
    for (Object group : (List<?>) rules.get("groups")) {
      for (Object rule : (List<?>) ((Map<?, ?>) group).get("rules")) {
        Map<?, ?> r = (Map<?, ?>) rule;
        alerts.put((String) r.get("alert"), (String) r.get("expr"));
        queries.add((String) r.get("expr"));
        assertTrue(((Map<?, ?>) r.get("annotations")).containsKey("summary"), r.toString());
      }
    }
    assertTrue(alerts.keySet().containsAll(List.of("PrioDpHelperErrors",
        "PrioDpReportsRejected", "PrioDpAggregationStalled", "PrioDpCollectionJobPending",
        "PrioDpStoreErrors", "PrioDpPrivacyBudgetLow")), alerts.keySet().toString());
    assertTrue(Files.readString(monitoring.resolve("prometheus-alerts.yml"))
        .contains("report_too_early: a clock is off"), "the clock-skew hint");
    TreeSet<String> served = metricNames(scrape(leader));
    TreeSet<String> named = new TreeSet<>();
    Matcher m = Pattern.compile("\\bpriodp_[a-z0-9_]+").matcher(String.join("\n", queries));
    while (m.find()) {
      named.add(m.group());
    }
    assertTrue(named.size() >= 10, named.toString());
    TreeSet<String> unknown = new TreeSet<>(named);
    unknown.removeAll(served);
    assertTrue(unknown.isEmpty(), "named by the dashboard or the alert rules but not served: "
        + unknown + "; served: " + served);
  }

  // ------------------------------------------------------------------ helpers

  private static DapClient client(Random random, long epochSecond) throws Exception {
    SecureRandom r = SecureRandom.getInstance("SHA1PRNG");
    r.setSeed(random.nextLong());
    return new DapClient(task.client, http, r,
        Clock.fixed(Instant.ofEpochSecond(epochSecond), ZoneOffset.UTC));
  }

  private static List<List<BigInteger>> measurements(Random random, int n) {
    List<List<BigInteger>> ms = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ms.add(task.measurement(random));
    }
    return ms;
  }

  /** The ciphertext with the last byte of its payload flipped: it no longer opens. */
  private static HpkeCiphertext corrupt(HpkeCiphertext c) {
    byte[] p = c.payload().toByteArray();
    p[p.length - 1] ^= 1;
    return new HpkeCiphertext(c.configId(), c.enc().toByteArray(), p);
  }

  private static int post(String url, byte[] body) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(url))
        .header("Content-Type", DapMediaType.UPLOAD_REQ.contentType())
        .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
        HttpResponse.BodyHandlers.discarding()).statusCode();
  }

  /** Waits (a minute at most) until the Leader's buckets hold every valid report. */
  private static void waitAggregated(JdbcDatastore store, long hour) throws Exception {
    for (int h = 1; h <= HOURS; h++) {
      long t = hour - h;
      for (int i = 0; ; i++) {
        long n = store.inTaskTransaction(task.leader.taskId(),
            tx -> tx.batchBuckets().get(BatchBuckets.timeIntervalBucket(t)))
            .map(BatchAggregation::reportCount).orElse(0L);
        if (n >= PER_HOUR) {
          break;
        }
        assertTrue(i < 600, "hour " + t + ": " + n + " of " + PER_HOUR + " aggregated");
        Thread.sleep(100);
      }
    }
  }

  private static CollectionResult collect(long hour) throws Exception {
    DapCollector collector = new DapCollector(task.collector.parameters(),
        task.collector.collectorAuthToken(), task.collector.hpkeConfig(),
        task.collector.hpkeKey(), http, d -> Thread.sleep(d.toMillis()), Duration.ofSeconds(60),
        0.95);
    return collector.collect(new Query.TimeInterval(Interval.of(hour, 1)),
        (poll, wait, waited) -> { });
  }

  /** A real scrape: GET /metrics of the running aggregator. */
  private static String scrape(Aggregator a) {
    try {
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
          + a.port() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
      assertEquals(200, r.statusCode());
      return r.body();
    } catch (java.io.IOException | InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }

  private static final Pattern SAMPLE = Pattern.compile(
      "^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)\\})? (\\S+)$");
  private static final Pattern LABEL =
      Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

  /** The names of every sample in a Prometheus text scrape. */
  private static TreeSet<String> metricNames(String scrape) {
    TreeSet<String> names = new TreeSet<>();
    for (String line : scrape.split("\n")) {
      Matcher s = SAMPLE.matcher(line);
      if (!line.startsWith("#") && s.matches()) {
        names.add(s.group(1));
      }
    }
    return names;
  }

  /** The sum of the samples of {@code name} whose labels include {@code labels} (pairs). */
  private static double value(String scrape, String name, String... labels) {
    double sum = 0;
    for (String line : scrape.split("\n")) {
      Matcher s = SAMPLE.matcher(line);
      if (line.startsWith("#") || !s.matches() || !s.group(1).equals(name)) {
        continue;
      }
      Map<String, String> have = new LinkedHashMap<>();
      if (s.group(2) != null) {
        Matcher l = LABEL.matcher(s.group(2));
        while (l.find()) {
          have.put(l.group(1), l.group(2));
        }
      }
      boolean match = true;
      for (int i = 0; i < labels.length; i += 2) {
        match &= labels[i + 1].equals(have.get(labels[i]));
      }
      if (match) {
        sum += Double.parseDouble(s.group(3));
      }
    }
    return sum;
  }
}
