package org.priodp.aggregator.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.priodp.aggregator.dap.BatchMode;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.DapError;
import org.priodp.aggregator.dap.HpkeCiphertext;
import org.priodp.aggregator.dap.DapVersion;
import org.priodp.aggregator.dap.HpkeConfig;
import org.priodp.aggregator.dap.HpkeConfigId;
import org.priodp.aggregator.dap.Interval;
import org.priodp.aggregator.dap.Report;
import org.priodp.aggregator.dap.ReportError;
import org.priodp.aggregator.dap.ReportExtension;
import org.priodp.aggregator.dap.ReportId;
import org.priodp.aggregator.dap.ReportMetadata;
import org.priodp.aggregator.dap.ReportUploadStatus;
import org.priodp.aggregator.dap.Role;
import org.priodp.aggregator.dap.TaskConfiguration;
import org.priodp.aggregator.dap.TaskExtension;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.dap.Time;
import org.priodp.aggregator.dap.UploadRequest;
import org.priodp.aggregator.datastore.CollectedInterval;
import org.priodp.aggregator.datastore.Datastore;
import org.priodp.aggregator.datastore.DatastoreException;
import org.priodp.aggregator.datastore.NoisedAggregateShare;
import org.priodp.aggregator.datastore.TaskCounter;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import org.priodp.aggregator.hpke.Hpke;
import org.priodp.aggregator.hpke.HpkeKeyPair;
import org.priodp.aggregator.hpke.HpkeSuite;
import org.priodp.aggregator.task.AuthToken;
import org.priodp.vdaf.Prio3Variant;
import org.priodp.vdaf.dp.DpStrategy;
import org.priodp.vdaf.dp.SensitivityRule;

/**
 * The Leader's per-report upload rules (DAP-18 "Upload Request", "Leader Behavior", "Report
 * Extensions") on real SQLite, and the insert-if-absent of {@code client_reports} under
 * concurrent uploads from two store instances (two "processes") on SQLite and on PostgreSQL
 * (PRIODP_PG_URL; skipped without it). The Leader does not decrypt at upload, so the ciphertexts
 * here are opaque bytes. Seeds are printed.
 */
class UploadServiceTest {
  private static final String PG_ENV = "PRIODP_PG_URL";
  /** time_precision in seconds. */
  static final long PRECISION = 100;
  /** Now: 1,000,000 s after the epoch, DAP-18 time 10,000. */
  static final long NOW_SECONDS = 1_000_000;
  static final long NOW = NOW_SECONDS / PRECISION;
  static final Clock CLOCK = Clock.fixed(Instant.ofEpochSecond(NOW_SECONDS), ZoneOffset.UTC);

  @TempDir
  Path dir;

  /** A Leader task (Prio3Count, no DP) with a task ID from {@code id} and an optional task_interval. */
  static TaskDefinition leaderTask(byte[] id, Interval taskInterval) {
    byte[] ikm = new byte[32];
    Arrays.fill(ikm, (byte) 9);
    HpkeKeyPair collector = new Hpke(HpkeSuite.DAP_MANDATORY).deriveKeyPair(ikm);
    HpkeConfig cc = new HpkeConfig(new HpkeConfigId(7), HpkeSuite.DAP_MANDATORY.kem(),
        HpkeSuite.DAP_MANDATORY.kdf(), HpkeSuite.DAP_MANDATORY.aead(), collector.publicKey());
    Prio3Variant v = new Prio3Variant.Count();
    List<TaskExtension> ext = taskInterval == null ? List.of()
        : List.of(TaskExtension.taskInterval(taskInterval));
    TaskConfiguration c = TaskDefinition.configurationFor(v,
        "upload".getBytes(StandardCharsets.US_ASCII), "https://leader.example/",
        "https://helper.example/", PRECISION, 10, BatchMode.TIME_INTERVAL, ext);
    return new TaskDefinition(new TaskId(id), Role.LEADER, c, v,
        new DpStrategy.NoDifferentialPrivacy(), SensitivityRule.PRIODP, cc,
        AuthToken.of("leader-token_0123456789"))
        .withCollectorAuthToken(AuthToken.of("collector-token_0123456789"));
  }

  static TaskDefinition leaderTask(int seed, Interval taskInterval) {
    byte[] id = new byte[32];
    Arrays.fill(id, (byte) seed);
    return leaderTask(id, taskInterval);
  }

  static ReportId id(int n) {
    byte[] b = new byte[16];
    b[0] = (byte) 0xa0;
    b[14] = (byte) (n >>> 8);
    b[15] = (byte) n;
    return new ReportId(b);
  }

  /** A report whose shares are opaque bytes filled with {@code fill}. */
  static Report report(ReportId id, long time, int leaderConfigId, List<ReportExtension> ext,
      int fill) {
    byte[] share = new byte[24];
    Arrays.fill(share, (byte) fill);
    return new Report(new ReportMetadata(id, new Time(time), ext), share,
        new HpkeCiphertext(new HpkeConfigId(leaderConfigId), new byte[32], share),
        new HpkeCiphertext(new HpkeConfigId(200), new byte[32], share));
  }

  static UploadService service(JdbcDatastore store, Duration skew) {
    return new UploadService(store, new HelperHpkeKeys(store, new SecureRandom(), CLOCK), CLOCK,
        skew);
  }

  static Optional<ByteString> stored(JdbcDatastore store, TaskDefinition task,
      ReportId id) {
    return store.inTaskTransaction(task.taskId(), tx -> tx.clientReports().get(id));
  }

  private static List<ReportError> errorsOf(UploadService.Result r) {
    return r.outcomes().stream().map(o -> o.error().orElse(null)).toList();
  }

  @ParameterizedTest
  @EnumSource(DapVersion.class)
  void eachRuleHasItsReportErrorInRequestOrderAndOnlyAcceptedReportsAreStored(DapVersion v) {
    TaskDefinition task = leaderTask(1, Interval.of(NOW - 5, 7)) // [9995, 10002)
        .withDapVersion(v);
    boolean d18 = v == DapVersion.DAP_18;
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("r.db"))) {
      UploadService s = service(store, UploadService.DEFAULT_CLOCK_SKEW);
      int key = s.keys().ensureActive().config().id().value();
      int unknownKey = (key + 1) % 256;
      // retention cutoff 9997 and a collected bucket [9999, 10000)
      store.inTaskTransaction(task.taskId(), tx -> {
        tx.retention().collectExpired(NOW - 3, Instant.EPOCH);
        tx.releases().insertNoisedShare(new NoisedAggregateShare(task.taskId(),
            BatchBuckets.timeIntervalBucket(NOW - 1), ByteString.EMPTY, 10,
            ByteString.copyOf(new byte[32]), ByteString.copyOf(new byte[32]),
            ByteString.copyOf(new byte[16]), Instant.EPOCH),
            Optional.of(new CollectedInterval(NOW - 1, NOW)));
        return null;
      });
      // an earlier upload of id 90
      boolean inserted = store.inTaskTransaction(task.taskId(),
          tx -> tx.clientReports().insertIfAbsent(
          id(90), NOW, ByteString.copyOf(report(id(90), NOW, key, List.of(), 1).encode())));
      assertTrue(inserted);
      ReportExtension e5 = new ReportExtension(5, new byte[] {1});
      ReportExtension e7 = new ReportExtension(7, new byte[0]);
      List<Report> reports = List.of(
          report(id(1), NOW, key, List.of(), 1), // accepted
          report(id(2), NOW, unknownKey, List.of(), 1), // an unknown HPKE config
          report(id(3), NOW + 4, key, List.of(), 1), // too early (limit 10003), and outside
          report(id(4), NOW - 6, key, List.of(), 1), // before the task interval
          report(id(5), NOW + 2, key, List.of(), 1), // at the task interval's end
          report(id(6), NOW, key, List.of(e5), 1), // an unrecognized public extension
          report(id(7), NOW, key, List.of(e7, e7), 1), // a repeated one
          report(id(8), NOW - 4, key, List.of(), 1), // below the retention cutoff
          report(id(9), NOW - 1, key, List.of(), 1), // its bucket was collected
          report(id(90), NOW, key, List.of(), 2), // the ID is taken by other bytes
          report(id(90), NOW, key, List.of(), 1), // the same bytes again
          report(id(10), NOW - 3, key, List.of(), 1), // at the cutoff
          report(id(11), NOW + 1, key, List.of(), 1)); // last unit of the task interval
      UploadService.Result r = s.upload(task, new UploadRequest(reports));
      // DAP-19 "Leader Behavior": hpke_unknown_config_id (DAP-18: outdated_config), and an
      // unrecognized extension is unsupported_extension (DAP-18 has none; prio-dp keeps it per
      // report as invalid_message)
      assertEquals(Arrays.asList(null,
          d18 ? ReportError.OUTDATED_CONFIG : ReportError.HPKE_UNKNOWN_CONFIG_ID,
          ReportError.REPORT_TOO_EARLY, ReportError.REPORT_DROPPED, ReportError.REPORT_DROPPED,
          d18 ? ReportError.INVALID_MESSAGE : ReportError.UNSUPPORTED_EXTENSION,
          ReportError.INVALID_MESSAGE, ReportError.REPORT_DROPPED, ReportError.REPORT_REPLAYED,
          ReportError.REPORT_REPLAYED, null, null, null), errorsOf(r));
      assertEquals(4, r.accepted());
      assertEquals(3, r.stored(), "the repeat of id 90 stores nothing");
      assertFalse(r.allAccepted());
      List<ReportUploadStatus> errors = r.errors().status();
      assertEquals(List.of(2, 3, 4, 5, 6, 7, 8, 9, 90), errors.stream()
          .map(x -> x.id().bytes()[15] & 0xff).toList(), "failed reports in request order");
      for (int i = 0; i < reports.size(); i++) {
        Report rep = reports.get(i);
        Optional<ByteString> st = stored(store, task, rep.reportMetadata().reportId());
        if (rep.reportMetadata().reportId().equals(id(90))) {
          assertArrayEquals(report(id(90), NOW, key, List.of(), 1).encode(),
              st.orElseThrow().toByteArray(), "the first bytes stay");
        } else if (r.outcomes().get(i).accepted()) {
          assertArrayEquals(rep.encode(), st.orElseThrow().toByteArray());
        } else {
          assertTrue(st.isEmpty(), "refused report " + i + " is not stored");
        }
      }
      // every outcome is counted by reason in the upload's transaction (issue 24); an upload
      // that the checks without the store refuse entirely is counted too
      s.upload(task, new UploadRequest(List.of(report(id(12), NOW + 4, key, List.of(), 1))));
      String unknownConfig = (d18 ? ReportError.OUTDATED_CONFIG
          : ReportError.HPKE_UNKNOWN_CONFIG_ID).specName();
      String extension = (d18 ? ReportError.INVALID_MESSAGE
          : ReportError.UNSUPPORTED_EXTENSION).specName();
      java.util.Map<String, Long> expected = new java.util.TreeMap<>();
      expected.put("upload_accepted/", 3L);
      expected.merge("upload_rejected/" + unknownConfig, 1L, Long::sum);
      expected.merge("upload_rejected/report_too_early", 2L, Long::sum);
      expected.merge("upload_rejected/report_dropped", 3L, Long::sum);
      expected.merge("upload_rejected/" + extension, 1L, Long::sum);
      expected.merge("upload_rejected/invalid_message", 1L, Long::sum);
      expected.merge("upload_rejected/report_replayed", 2L, Long::sum);
      java.util.Map<String, Long> counted = new java.util.TreeMap<>();
      for (TaskCounter c : store.inTaskTransaction(task.taskId(), tx -> tx.counters().all())) {
        counted.put(c.name() + "/" + c.reason(), c.value());
      }
      assertEquals(expected, counted);
    }
  }

  /**
   * The attribution draft's privacy_budget (the default code point 0xFA01) is recognized at plain
   * upload: a 4-byte uint32 is accepted, other data is invalid_message; a task whose strategy takes
   * epsilon from the reports drops a report without it (report_dropped), the others accept it.
   */
  @Test
  void privacyBudgetIsRecognizedAtUploadAndRequiredByAReportBudgetTask() {
    TaskDefinition plain = leaderTask(3, null);
    TaskDefinition budgeted = new TaskDefinition(plain.taskId(), Role.LEADER,
        plain.configuration(), plain.variant(), new DpStrategy.ReportBudgetDiscreteLaplace(),
        SensitivityRule.PRIODP, plain.collectorHpkeConfig(), plain.authToken())
        .withCollectorAuthToken(AuthToken.of("collector-token_0123456789"));
    ReportExtension ok = new ReportExtension(0xFA01, new byte[] {0, 3, (byte) 0xd0, (byte) 0x90});
    ReportExtension bad = new ReportExtension(0xFA01, new byte[] {1, 2});
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("b.db"))) {
      UploadService s = service(store, UploadService.DEFAULT_CLOCK_SKEW);
      int key = s.keys().ensureActive().config().id().value();
      assertEquals(Arrays.asList(null, ReportError.INVALID_MESSAGE, null), errorsOf(s.upload(plain,
          new UploadRequest(List.of(report(id(1), NOW, key, List.of(ok), 1),
              report(id(2), NOW, key, List.of(bad), 1), report(id(3), NOW, key, List.of(), 1))))));
      assertEquals(Arrays.asList(null, ReportError.INVALID_MESSAGE, ReportError.REPORT_DROPPED),
          errorsOf(s.upload(budgeted, new UploadRequest(List.of(
              report(id(11), NOW, key, List.of(ok), 1), report(id(12), NOW, key, List.of(bad), 1),
              report(id(13), NOW, key, List.of(), 1))))));
    }
  }

  @Test
  void theClockSkewIsConfigurableAndTooEarlyIsExactAtTheUnitBoundary() {
    TaskDefinition task = leaderTask(2, null);
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("k.db"))) {
      UploadService five = service(store, UploadService.DEFAULT_CLOCK_SKEW);
      UploadService none = service(store, Duration.ZERO);
      UploadService ninetyNine = service(store, Duration.ofSeconds(99));
      int key = five.keys().ensureActive().config().id().value();
      // five minutes: 1,000,300 s is unit 10003 exactly
      assertEquals(Arrays.asList(null, ReportError.REPORT_TOO_EARLY, ReportError.REPORT_TOO_EARLY),
          errorsOf(five.upload(task, new UploadRequest(List.of(report(id(1), NOW + 3, key,
              List.of(), 1), report(id(2), NOW + 4, key, List.of(), 1),
              report(id(3), -1L, key, List.of(), 1))))));
      assertEquals(Arrays.asList(null, ReportError.REPORT_TOO_EARLY),
          errorsOf(none.upload(task, new UploadRequest(List.of(report(id(4), NOW, key,
              List.of(), 1), report(id(5), NOW + 1, key, List.of(), 1))))));
      assertEquals(Arrays.asList(ReportError.REPORT_TOO_EARLY),
          errorsOf(ninetyNine.upload(task, new UploadRequest(List.of(report(id(6), NOW + 1, key,
              List.of(), 1))))), "unit 10001 starts at 1,000,100 s: 100 s ahead");
      assertThrows(IllegalArgumentException.class, () -> service(store, Duration.ofSeconds(-1)));
    }
  }

  @Test
  void aRetiredKeyStillAcceptsAndAnIdRepeatedInOneRequestIsStoredOnce() {
    TaskDefinition task = leaderTask(3, null);
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("d.db"))) {
      UploadService s = service(store, UploadService.DEFAULT_CLOCK_SKEW);
      int old = s.keys().ensureActive().config().id().value();
      assertTrue(s.keys().retire(old));
      int current = s.keys().ensureActive().config().id().value();
      UploadService.Result r = s.upload(task, new UploadRequest(List.of(
          report(id(1), NOW, old, List.of(), 1), report(id(2), NOW, current, List.of(), 1),
          report(id(2), NOW, current, List.of(), 1), report(id(2), NOW, current, List.of(), 3))));
      assertEquals(Arrays.asList(null, null, null, ReportError.REPORT_REPLAYED), errorsOf(r));
      assertEquals(List.of(true, true, false, false),
          r.outcomes().stream().map(UploadService.Outcome::stored).toList());
    }
  }

  @Test
  void theRowHoldsTheSignFlippedTimeTheEncodedReportAndNoJob() throws Exception {
    TaskDefinition task = leaderTask(4, null);
    Path file = dir.resolve("row.db");
    try (JdbcDatastore store = JdbcDatastore.openSqlite(file)) {
      UploadService s = service(store, UploadService.DEFAULT_CLOCK_SKEW);
      int key = s.keys().ensureActive().config().id().value();
      Report rep = report(id(1), NOW, key, List.of(), 1);
      assertTrue(s.upload(task, new UploadRequest(List.of(rep))).allAccepted());
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
        PreparedStatement p = c.prepareStatement("SELECT task_id, report_id, report_time, report,"
            + " aggregation_job_id FROM client_reports");
        ResultSet rs = p.executeQuery()) {
      assertTrue(rs.next());
      assertArrayEquals(task.taskId().bytes(), rs.getBytes(1));
      assertArrayEquals(id(1).bytes(), rs.getBytes(2));
      assertEquals(Long.MIN_VALUE ^ NOW, rs.getLong(3));
      assertEquals(Report.decode(rs.getBytes(4)).reportMetadata().reportId(), id(1));
      assertEquals(null, rs.getBytes(5));
      assertFalse(rs.next());
    }
  }

  @Test
  void anEmptyUploadIsAcceptedAndAHelperTaskIsUnrecognized() {
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("e.db"))) {
      UploadService s = service(store, UploadService.DEFAULT_CLOCK_SKEW);
      UploadService.Result r = s.upload(leaderTask(5, null), new UploadRequest(List.of()));
      assertTrue(r.allAccepted());
      assertEquals(0, r.errors().status().size());
      TaskDefinition leader = leaderTask(6, null);
      TaskDefinition helper = new TaskDefinition(leader.taskId(), Role.HELPER,
          leader.configuration(), leader.variant(), leader.dpStrategy(),
          leader.sensitivityRule(), leader.collectorHpkeConfig(), leader.authToken());
      Refusal e = assertThrows(Refusal.class, () -> s.upload(helper,
          new UploadRequest(List.of())));
      assertEquals(DapError.UNRECOGNIZED_TASK, e.dapError().orElseThrow());
    }
  }

  /**
   * A store that counts task transactions, holds the first one until {@code release} opens, and
   * fails the second one when {@code failSecond} is set.
   */
  private static Datastore gated(Datastore real, CountDownLatch release,
      AtomicInteger transactions, boolean failSecond) {
    return (Datastore) Proxy.newProxyInstance(
        Datastore.class.getClassLoader(), new Class<?>[] {Datastore.class},
        (proxy, m, args) -> {
          if (m.getName().equals("inTaskTransaction")) {
            int n = transactions.incrementAndGet();
            if (n == 1) {
              release.await();
            } else if (n == 2 && failSecond) {
              throw new DatastoreException("injected failure", null);
            }
          }
          try {
            return m.invoke(real, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
  }

  private static boolean waitingForTheCommitter(Thread t) {
    return t.getState() == Thread.State.WAITING && Arrays.stream(t.getStackTrace())
        .anyMatch(f -> f.getMethodName().equals("commitGrouped"));
  }

  /**
   * Uploads of one task that arrive while another commits share the next transaction: with the
   * first transaction held open and seven more uploads queued behind it, eight uploads take two
   * transactions; if that shared transaction fails, each of the seven fails with the store's
   * exception, none is reported accepted and none is stored.
   */
  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void concurrentUploadsShareOneTransactionAndFailTogether(boolean failSecond) throws Exception {
    TaskDefinition task = leaderTask(7, null);
    try (JdbcDatastore real = JdbcDatastore.openSqlite(
        dir.resolve("g" + failSecond + ".db"))) {
      CountDownLatch release = new CountDownLatch(1);
      AtomicInteger transactions = new AtomicInteger();
      Datastore store = gated(real, release, transactions, failSecond);
      UploadService s = new UploadService(store, new HelperHpkeKeys(real, new SecureRandom(),
          CLOCK), CLOCK, UploadService.DEFAULT_CLOCK_SKEW);
      int key = s.keys().ensureActive().config().id().value();
      Object[] results = new Object[8];
      List<Thread> threads = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        int k = i;
        Thread t = new Thread(() -> {
          try {
            results[k] = s.upload(task, new UploadRequest(List.of(report(id(k), NOW, key,
                List.of(), 1))));
          } catch (RuntimeException e) {
            results[k] = e;
          }
        });
        threads.add(t);
        t.start();
        if (i == 0) {
          while (transactions.get() == 0) {
            Thread.onSpinWait(); // the first upload is inside its transaction
          }
        }
      }
      long deadline = System.nanoTime() + 60_000_000_000L; // a hang guard, not a threshold
      for (Thread t : threads.subList(1, 8)) {
        while (!waitingForTheCommitter(t)) {
          assertTrue(System.nanoTime() < deadline, "upload never queued behind the first");
          Thread.onSpinWait(); // queued behind the first
        }
      }
      release.countDown();
      for (Thread t : threads) {
        t.join();
      }
      assertEquals(2, transactions.get(), "eight uploads, two transactions");
      assertTrue(((UploadService.Result) results[0]).allAccepted());
      for (int i = 1; i < 8; i++) {
        if (failSecond) {
          assertTrue(results[i] instanceof DatastoreException, "upload " + i + ": " + results[i]);
          assertTrue(stored(real, task, id(i)).isEmpty());
        } else {
          UploadService.Result r = (UploadService.Result) results[i];
          assertTrue(r.allAccepted() && r.stored() == 1, "upload " + i);
        }
      }
    }
  }

  /** Opens a store of the backend: two opens of one PostgreSQL database, or SQLite files. */
  private JdbcDatastore open(String backend, String name) {
    if (backend.equals("postgresql")) {
      return JdbcDatastore.open(System.getenv(PG_ENV));
    }
    return JdbcDatastore.openSqlite(dir.resolve(name));
  }

  private long countRows(String backend, String name, TaskDefinition task) throws Exception {
    String url = backend.equals("postgresql") ? System.getenv(PG_ENV)
        : "jdbc:sqlite:" + dir.resolve(name);
    try (Connection c = DriverManager.getConnection(url);
        PreparedStatement p = c.prepareStatement(
            "SELECT COUNT(*) FROM client_reports WHERE task_id = ?")) {
      p.setBytes(1, task.taskId().bytes());
      try (ResultSet rs = p.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  /**
   * Two store instances on one database (as two Leader processes would have) upload every report
   * ID concurrently, each from two threads: one in four IDs with identical bytes from both, the
   * others with different bytes. Each ID must be stored exactly once: identical bytes are
   * accepted by both with one row inserted; different bytes are accepted by exactly one, the
   * other gets report_replayed, and the row holds the accepted bytes.
   */
  @ParameterizedTest
  @ValueSource(strings = {"sqlite", "postgresql"})
  void theSameIdUploadedThroughTwoStoresIsStoredOnce(String backend) throws Exception {
    if (backend.equals("postgresql")) {
      String url = System.getenv(PG_ENV);
      if (url == null || url.isBlank()) {
        System.out.println("SKIPPED UploadServiceTest postgresql: " + PG_ENV + " is not set");
      }
      Assumptions.assumeTrue(url != null && !url.isBlank(), PG_ENV + " is not set");
    }
    long seed = Long.getLong("priodp.seed", System.nanoTime());
    System.out.println("UploadServiceTest.twoStores " + backend + " seed=" + seed);
    Random rnd = new Random(seed);
    byte[] taskId = new byte[32];
    new SecureRandom().nextBytes(taskId); // a persistent database never sees the task twice
    TaskDefinition task = leaderTask(taskId, null);
    int n = Integer.getInteger("priodp.upload.raceIds", 300);
    try (JdbcDatastore a = open(backend, "race.db");
        JdbcDatastore b = open(backend, "race.db")) {
      UploadService sa = service(a, UploadService.DEFAULT_CLOCK_SKEW);
      UploadService sb = service(b, UploadService.DEFAULT_CLOCK_SKEW);
      int key = sa.keys().ensureActive().config().id().value();
      List<Report> fromA = new ArrayList<>();
      List<Report> fromB = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        byte[] rid = new byte[16];
        rnd.nextBytes(rid);
        ReportId id = new ReportId(rid);
        fromA.add(report(id, NOW, key, List.of(), 1));
        fromB.add(report(id, NOW, key, List.of(), i % 4 == 0 ? 1 : 2));
      }
      UploadService.Outcome[][] outcomes = new UploadService.Outcome[2][n];
      ExecutorService pool = Executors.newFixedThreadPool(4);
      CountDownLatch go = new CountDownLatch(1);
      List<Future<?>> futures = new ArrayList<>();
      for (int side = 0; side < 2; side++) {
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < n; i++) {
          order.add(i);
        }
        Collections.shuffle(order, rnd);
        for (int half = 0; half < 2; half++) {
          List<Integer> mine = order.subList(half * n / 2, (half + 1) * n / 2);
          UploadService s = side == 0 ? sa : sb;
          List<Report> reports = side == 0 ? fromA : fromB;
          int sd = side;
          futures.add(pool.submit(() -> {
            go.await();
            for (int i : mine) {
              outcomes[sd][i] = s.upload(task, new UploadRequest(List.of(reports.get(i))))
                  .outcomes().get(0);
            }
            return null;
          }));
        }
      }
      go.countDown();
      for (Future<?> f : futures) {
        f.get();
      }
      pool.shutdown();
      int acceptedTwice = 0;
      int replayed = 0;
      int storedByA = 0;
      for (int i = 0; i < n; i++) {
        UploadService.Outcome oa = outcomes[0][i];
        UploadService.Outcome ob = outcomes[1][i];
        assertEquals(1, (oa.stored() ? 1 : 0) + (ob.stored() ? 1 : 0),
            "seed " + seed + " id " + i + ": stored by exactly one upload");
        storedByA += oa.stored() ? 1 : 0;
        ByteString row = stored(a, task, oa.reportId()).orElseThrow();
        if (i % 4 == 0) {
          assertTrue(oa.accepted() && ob.accepted(), "seed " + seed + " identical bytes");
          acceptedTwice++;
        } else {
          assertTrue(oa.accepted() != ob.accepted(), "seed " + seed + " id " + i
              + ": exactly one of two different reports is accepted");
          UploadService.Outcome loser = oa.accepted() ? ob : oa;
          assertEquals(Optional.of(ReportError.REPORT_REPLAYED), loser.error());
          Report winner = oa.accepted() ? fromA.get(i) : fromB.get(i);
          assertArrayEquals(winner.encode(), row.toByteArray(), "seed " + seed + " id " + i
              + ": the row holds the accepted report");
          replayed++;
        }
      }
      assertEquals(n, countRows(backend, "race.db", task));
      // the counters, incremented in the transactions that decided, are exact (issue 24)
      assertEquals(List.of(
          new TaskCounter(PipelineCounters.UPLOAD_ACCEPTED, "", n),
          new TaskCounter(PipelineCounters.UPLOAD_REJECTED, "report_replayed", replayed)),
          a.inTaskTransaction(task.taskId(), tx -> tx.counters().all()),
          "seed " + seed + ": counters");
      System.out.printf("UploadServiceTest.twoStores %s seed=%d ids=%d identical=%d"
          + " replayed=%d rows=%d stored through A=%d, through B=%d%n", backend, seed, n,
          acceptedTwice, replayed, n, storedByA, n - storedByA);
    }
  }
}
