package org.priodp.aggregator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.net.URI;
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
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.client.CollectionResult;
import org.priodp.aggregator.client.DapClient;
import org.priodp.aggregator.client.DapCollector;
import org.priodp.aggregator.client.DapProblemException;
import org.priodp.aggregator.core.BatchBuckets;
import org.priodp.aggregator.core.CachedCollectorAuthorization;
import org.priodp.aggregator.core.CollectorAuthorization;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.dap.HpkeConfig;
import org.priodp.aggregator.dap.Interval;
import org.priodp.aggregator.dap.Query;
import org.priodp.aggregator.dap.UploadErrors;
import org.priodp.aggregator.datastore.BatchAggregation;
import org.priodp.aggregator.datastore.Datastore;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import org.priodp.aggregator.peer.HttpHelperPeer;
import org.priodp.aggregator.testing.EndToEndTask;
import org.priodp.aggregator.testing.FakeHttp;
import org.priodp.aggregator.testing.LeaderPair;
import org.priodp.aggregator.testing.LockedRandomSource;
import org.priodp.aggregator.testing.SpecTls;

/**
 * The collector_identity task extension end to end (issue 26; draft-ietf-ppm-dap-attribution-00
 * section 6.1, the URL option): a Leader and a Helper over HTTP on loopback, each asking a local
 * HTTPS collector identity (certificate from a test CA both trust) whose {@code hpke_config}
 * answer is written in the test from DAP-19's struct definitions. Three discrete-Laplace
 * Prio3Histogram tasks made by {@code task new --collector-identity}: one whose identity lists the
 * Collector's key releases and the Collector decodes its histogram within its intervals; one whose
 * identity lists another key fails its collection job with collectorNotAuthorized at the Leader,
 * before any noise is drawn (no noised share and no privacy ledger entry at either aggregator);
 * one that the Leader confirms (as if its trust differed) but the Helper's identity check denies
 * fails with the Helper's collectorNotAuthorized, and the Helper drew nothing. On SQLite, and with
 * the Leader on PostgreSQL when PRIODP_PG_URL is set. Measurements, report IDs and noise come
 * from seeded streams (the seed is printed; {@code -Dpriodp.seed} fixes it).
 */
class CollectorIdentityEndToEndTest {
  private static final int REPORTS = 12;
  private static final String MEDIA_TYPE = "application/ppm-dap;message=hpke-config-list";

  @TempDir
  Path dir;

  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .build();

  @Test
  void sqliteAMatchingIdentityReleasesAndAMismatchedOneIsRefusedBeforeAnyNoise()
      throws Exception {
    run(null);
  }

  @Test
  void postgresqlAMatchingIdentityReleasesAndAMismatchedOneIsRefusedBeforeAnyNoise()
      throws Exception {
    String url = System.getenv("PRIODP_PG_URL");
    if (url == null || url.isBlank()) {
      System.out.println("SKIPPED CollectorIdentityEndToEndTest on PostgreSQL: PRIODP_PG_URL is"
          + " not set");
    }
    Assumptions.assumeTrue(url != null && !url.isBlank(), "PRIODP_PG_URL is not set");
    run(url);
  }

  /** HpkeConfig as DAP-19 "HPKE Configuration Request" defines it, from the raw fields. */
  private static byte[] specConfig(HpkeConfig c) {
    return new SpecTls().u8(c.id().value()).u16(c.kemId()).u16(c.kdfId()).u16(c.aeadId())
        .opaque16(c.publicKey().toByteArray()).bytes();
  }

  /** {@code HpkeConfig HpkeConfigList<10..2^16-1>}. */
  private static byte[] specList(byte[]... configs) {
    SpecTls inner = new SpecTls();
    for (byte[] c : configs) {
      inner.raw(c);
    }
    return new SpecTls().opaque16(inner.bytes()).bytes();
  }

  private void run(String postgresUrl) throws Exception {
    long seed = Long.getLong("priodp.seed", System.nanoTime());
    System.out.println("CollectorIdentityEndToEndTest seed=" + seed
        + (postgresUrl == null ? " (SQLite)" : " (Leader on PostgreSQL)"));
    TestCertificates.Issued cert = TestCertificates.issue(dir, "identity", "EC");
    SSLContext trust = cert.trustingContext();
    Map<String, byte[]> lists = new java.util.concurrent.ConcurrentHashMap<>();
    try (FakeHttp identity = new FakeHttp(cert.serverContext(), req -> {
      byte[] body = lists.get(req.path());
      return body == null ? FakeHttp.Response.of(404, new byte[0])
          : new FakeHttp.Response(200, Map.of("Content-Type", MEDIA_TYPE), body);
    })) {
      int helperPort = LeaderPair.freePort();
      int leaderPort = LeaderPair.freePort();
      String leaderUrl = "http://127.0.0.1:" + leaderPort + "/leader/";
      String helperUrl = "http://127.0.0.1:" + helperPort + "/helper/";
      Map<String, EndToEndTask> tasks = new java.util.LinkedHashMap<>();
      for (String name : List.of("good", "bad", "helperDenies")) {
        tasks.put(name, EndToEndTask.create(dir.resolve(name), leaderUrl, helperUrl, "--vdaf",
            "Prio3Histogram", "--length", "4", "--chunk-length", "2", "--epsilon", "1",
            "--min-batch-size", "10", "--collector-identity", identity.url() + "/" + name + "/"));
      }
      HpkeConfig goodKey = tasks.get("good").leader.collectorHpkeConfig();
      // another key first, under a config id distinct from the good key's (task new draws both
      // ids at random; a list with a repeated id is not an HpkeConfigList)
      HpkeConfig other = tasks.get("bad").leader.collectorHpkeConfig();
      other = new HpkeConfig(new org.priodp.aggregator.dap.HpkeConfigId(
          (goodKey.id().value() + 1) % 256), other.kemId(), other.kdfId(), other.aeadId(),
          other.publicKey());
      lists.put("/good/hpke_config", specList(specConfig(other), specConfig(goodKey)));
      // the identity of "bad" lists the key of "good", not its own
      lists.put("/bad/hpke_config", specList(specConfig(goodKey)));
      lists.put("/helperDenies/hpke_config", specList(specConfig(goodKey)));
      URI leaderTrusts = URI.create(identity.url() + "/helperDenies/");

      List<TaskDefinition> leaderTasks = tasks.values().stream().map(t -> t.leader).toList();
      List<TaskDefinition> helperTasks = tasks.values().stream().map(t -> t.helper).toList();
      CollectorAuthorization https = HttpsCollectorAuthorization.create(trust);
      // the Leader confirms "helperDenies" without asking (as if its trust store differed), so
      // that the Helper's own check decides
      CollectorAuthorization leaderAuth = (u, c) -> u.equals(leaderTrusts)
          ? new CollectorAuthorization.Confirmed() : https.check(u, c);
      try (Datastore helperStore = JdbcDatastore.openSqlite(dir.resolve("helper.db"));
          Datastore leaderStore = postgresUrl == null
              ? JdbcDatastore.openSqlite(dir.resolve("leader.db")) : JdbcDatastore.open(postgresUrl);
          Aggregator helper = Aggregator.start(AggregatorConfig.builder(helperTasks, helperStore)
              .port(helperPort).noise(noise(seed, 1)).hpkeKeyAtStart(true)
              .collectorAuthorization(new CachedCollectorAuthorization(https,
                  Clock.systemUTC())).build());
          Aggregator leader = Aggregator.start(AggregatorConfig.builder(leaderTasks, leaderStore)
              .port(leaderPort).noise(noise(seed, 2)).hpkeKeyAtStart(true)
              .helperPeer(HttpHelperPeer.create(HttpHelperPeer.Options.defaults()))
              .collectorAuthorization(new CachedCollectorAuthorization(leaderAuth,
                  Clock.systemUTC())).build())) {
        Random random = new Random(seed);
        long hour = System.currentTimeMillis() / 1000 / 3600 - 1;
        Map<String, List<List<BigInteger>>> uploaded = new java.util.HashMap<>();
        for (var e : tasks.entrySet()) {
          List<List<BigInteger>> ms = new ArrayList<>();
          for (int i = 0; i < REPORTS; i++) {
            ms.add(e.getValue().measurement(random));
          }
          SecureRandom ids = SecureRandom.getInstance("SHA1PRNG");
          ids.setSeed(random.nextLong());
          UploadErrors errors = new DapClient(e.getValue().client, http, ids,
              Clock.fixed(Instant.ofEpochSecond(hour * 3600 + 60), ZoneOffset.UTC)).upload(ms);
          assertTrue(errors.status().isEmpty(), e.getKey() + ": " + errors);
          uploaded.put(e.getKey(), ms);
        }
        for (EndToEndTask t : tasks.values()) {
          awaitAggregated(leaderStore, t, hour);
        }

        EndToEndTask good = tasks.get("good");
        CollectionResult r = collector(good).collect(new Query.TimeInterval(
            Interval.of(hour, 1)), (poll, wait, waited) -> { });
        assertEquals(REPORTS, r.reportCount());
        List<BigInteger> truth = EndToEndTask.truth(good.variant, uploaded.get("good"));
        for (int i = 0; i < truth.size(); i++) {
          assertTrue(truth.get(i).compareTo(r.result().lower(i)) >= 0
              && truth.get(i).compareTo(r.result().upper(i)) <= 0, "coordinate " + i
              + " outside its interval (seed=" + seed + ")");
        }
        assertEquals(1, ledger(leaderStore, good), "the matching identity's release is charged");
        assertEquals(1, ledger(helperStore, good));

        EndToEndTask bad = tasks.get("bad");
        DapProblemException refused = assertThrows(DapProblemException.class,
            () -> collector(bad).collect(new Query.TimeInterval(Interval.of(hour, 1)),
                (poll, wait, waited) -> { }));
        assertEquals("urn:priodp:problem:collectorNotAuthorized", refused.type(),
            refused.getMessage());
        assertEquals(403, refused.status());
        assertTrue(refused.getMessage().startsWith("the collection job failed:"
            + " urn:priodp:problem:collectorNotAuthorized (HTTP 403): collector_identity"
            + " " + identity.url() + "/bad/ does not authorize"), refused.getMessage());
        assertTrue(refused.detail().contains("/bad/hpke_config does not list the task's"
            + " collector_hpke_config"), refused.detail());
        for (Datastore s : List.of(leaderStore, helperStore)) {
          assertEquals(0, ledger(s, bad), "no privacy ledger entry for the refused task");
          assertTrue(s.inTaskTransaction(bad.leader.taskId(),
              tx -> tx.releases().noisedShare(batch(hour))).isEmpty(), "no noise drawn");
        }

        EndToEndTask helperDenies = tasks.get("helperDenies");
        DapProblemException byHelper = assertThrows(DapProblemException.class,
            () -> collector(helperDenies).collect(new Query.TimeInterval(Interval.of(hour, 1)),
                (poll, wait, waited) -> { }));
        assertEquals("urn:priodp:problem:collectorNotAuthorized", byHelper.type(),
            byHelper.getMessage());
        assertTrue(byHelper.detail().contains("the Helper refused"), byHelper.detail());
        assertEquals(0, ledger(helperStore, helperDenies), "the Helper drew and charged nothing");
        assertTrue(helperStore.inTaskTransaction(helperDenies.helper.taskId(),
            tx -> tx.releases().noisedShare(batch(hour))).isEmpty());
      }
      long asked = identity.requests.stream().filter(q -> q.path().startsWith("/good/")).count();
      assertTrue(asked >= 1 && asked <= 2, "each aggregator asked once, then cached: " + asked);
    }
  }

  /** The batch identifier of the one-hour batch the Collector asks for. */
  private static org.priodp.aggregator.datastore.BatchIdentifier batch(long hour) {
    return BatchBuckets.batchIdentifier(new org.priodp.aggregator.dap.BatchSelector.TimeInterval(
        Interval.of(hour, 1)));
  }

  private static long ledger(Datastore store, EndToEndTask t) {
    return store.inTaskTransaction(t.leader.taskId(), tx -> tx.ledger().entries()).size();
  }

  private DapCollector collector(EndToEndTask t) {
    return new DapCollector(t.collector.parameters(), t.collector.collectorAuthToken(),
        t.collector.hpkeConfig(), t.collector.hpkeKey(), http, d -> Thread.sleep(d.toMillis()),
        Duration.ofSeconds(60), 1 - 1e-6);
  }

  private static void awaitAggregated(Datastore leaderStore, EndToEndTask t, long hour)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (true) {
      long n = leaderStore.inTaskTransaction(t.leader.taskId(),
          tx -> tx.batchBuckets().get(BatchBuckets.timeIntervalBucket(hour)))
          .map(BatchAggregation::reportCount).orElse(0L);
      if (n >= REPORTS) {
        return;
      }
      assertTrue(System.nanoTime() < deadline, "aggregated " + n + " of " + REPORTS
          + " after 60 s");
      Thread.sleep(20);
    }
  }

  private static LockedRandomSource noise(long seed, int party) {
    return new LockedRandomSource(ByteBuffer.allocate(12).putLong(seed).putInt(party).array());
  }
}
