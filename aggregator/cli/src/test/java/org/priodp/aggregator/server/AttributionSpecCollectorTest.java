package org.priodp.aggregator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.InputStream;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.client.CollectorTask;
import org.priodp.aggregator.dap.HpkeConfig;
import org.priodp.aggregator.testing.EndToEndTask;
import org.priodp.aggregator.testing.LeaderPair;
import org.priodp.aggregator.testing.ServeProcess;
import org.priodp.aggregator.testing.SpecClient;
import org.priodp.aggregator.testing.SpecCollector;
import org.priodp.aggregator.testing.SpecDraft;
import org.priodp.aggregator.testing.SpecTls;
import org.priodp.vdaf.Prio3Variant;

/**
 * Issue 26 end to end: the Attribution API's flow through prio-dp's {@code serve} processes, driven
 * by a website Collector and browsers written in this test from the drafts alone (DAP-19,
 * draft-ietf-ppm-dap-attribution-00, draft-ietf-ppm-l1-bound-sum-02), with their own
 * TLS-presentation encoder ({@link SpecTls}) and Bouncy Castle's HPKE, never the project's DAP
 * codec. The task (made by {@code task new}) is Prio3L1BoundSum(length 4, max_value 8) in the
 * collector_selected batch mode, with noise calibrated to the report budgets, bound to a
 * budget_source and to a collector_identity: an https URL served here whose hpke_config lists the
 * Collector's key. The Collector creates a collection job with min_dp_budget 0.5, browsers' reports
 * are uploaded to the job's URL (split over both Leaders where there are two): reports that spend
 * 1.0 are counted, reports that spend 0.25 or carry no privacy_budget are dropped per report
 * (report_dropped); a report uploaded again to a second job is refused there (report_replayed) and
 * counted once; the plain upload resource refuses the task's reports; the Collector's first poll
 * closes the batch and it opens both aggregate shares with AggregateShareAad over its own
 * TaskConfiguration: the count is exact and each coordinate lies in its interval. A Leader whose
 * task's collector key is not the one the identity lists refuses the task at start with one line.
 * On SQLite with one Leader, and on PostgreSQL (PRIODP_PG_URL) with two Leader processes.
 */
class AttributionSpecCollectorTest {
  /** prio-dp's default code points of the attribution draft's TBD values. */
  private static final int COLLECTOR_SELECTED = 0xFA;
  private static final int PRIVACY_BUDGET = 0xFA01;
  private static final int MIN_DP_BUDGET = 0xFA02;
  /** VDAF-registry code point of Prio3L1BoundSum (l1-bound-sum-02 section 6). */
  private static final int PRIO3_L1_BOUND_SUM = 7;
  private static final int LENGTH = 4;
  private static final long MAX_VALUE = 8;
  private static final int REPORT_DROPPED = 3;
  private static final int REPORT_REPLAYED = 2;

  @TempDir
  Path dir;

  @Test
  void theAttributionFlowOnSqlite() throws Exception {
    run(null);
  }

  @Test
  void theAttributionFlowOnPostgresWithTwoLeaders() throws Exception {
    String url = System.getenv("PRIODP_PG_URL");
    if (url == null || url.isBlank()) {
      System.out.println("SKIPPED AttributionSpecCollectorTest PostgreSQL: PRIODP_PG_URL is not set");
    }
    Assumptions.assumeTrue(url != null && !url.isBlank(), "PRIODP_PG_URL is not set");
    run(url);
  }

  private void run(String pgUrl) throws Exception {
    long seed = Long.getLong("priodp.seed", System.nanoTime());
    System.out.println("AttributionSpecCollectorTest seed=" + seed);
    Random rnd = new Random(seed);
    int portA = LeaderPair.freePort();
    int portB = LeaderPair.freePort();
    int portH = LeaderPair.freePort();
    String leaderUrl = "http://127.0.0.1:" + portA + "/leader/";
    String helperUrl = "http://127.0.0.1:" + portH + "/helper/";
    IdentityServer identity = IdentityServer.start(dir.resolve("tls"));
    try {
      EndToEndTask task = EndToEndTask.create(dir.resolve("task"), leaderUrl, helperUrl,
          taskOptions(identity.url()));
      EndToEndTask stranger = EndToEndTask.create(dir.resolve("stranger"), leaderUrl, helperUrl,
          taskOptions(identity.url()));
      identity.list(task.collector.hpkeConfig());
      List<String> trust = identity.jvmFlags();

      String leaderDb = pgUrl != null ? pgUrl : "jdbc:sqlite:" + dir.resolve("leader.db");
      // a Leader whose task's collector key the identity does not list refuses it at start
      Path refusedLog = dir.resolve("refused.log");
      Process refused = ServeProcess.start(stranger.dir.resolve("leader.json"), leaderDb,
          refusedLog, 0, trust);
      assertEquals(2, refused.waitFor(), "exit 2: the task is refused");
      String refusal = Files.readString(refusedLog);
      assertTrue(refusal.contains("collector_identity") && refusal.contains(identity.url()),
          refusal);

      Process h = null;
      Process a = null;
      Process b = null;
      try {
        h = ServeProcess.start(task.dir.resolve("helper.json"),
            "jdbc:sqlite:" + dir.resolve("helper.db"), dir.resolve("h.log"), portH, trust);
        a = ServeProcess.start(task.dir.resolve("leader.json"), leaderDb, dir.resolve("a.log"),
            portA, trust, "--replica-id", "attr-a-" + seed);
        if (pgUrl != null) {
          b = ServeProcess.start(task.dir.resolve("leader.json"), leaderDb, dir.resolve("b.log"),
              portB, trust, "--replica-id", "attr-b-" + seed);
        }
        ServeProcess.awaitPort(h);
        ServeProcess.awaitPort(a);
        if (b != null) {
          ServeProcess.awaitPort(b);
        }
        List<String> leaders = b == null ? List.of(leaderUrl)
            : List.of(leaderUrl, "http://127.0.0.1:" + portB + "/leader/");
        flow(task, leaders, rnd, seed);
      } finally {
        for (Process p : new Process[] {b, a, h}) {
          if (p != null) {
            ServeProcess.stop(p);
          }
        }
      }
    } finally {
      identity.close();
    }
  }

  private static String[] taskOptions(String identity) {
    return new String[] {"--vdaf", "Prio3L1BoundSum", "--length", String.valueOf(LENGTH),
        "--max-value", String.valueOf(MAX_VALUE), "--chunk-length", "3",
        "--batch-mode", "collector_selected", "--min-batch-size", "10", "--time-precision", "60",
        "--dp-strategy", "ReportBudgetDiscreteLaplace",
        "--budget-source", "shop.example", "--collector-identity", identity};
  }

  /** The browsers, the website and the checks, against running Leader(s) and Helper. */
  private static void flow(EndToEndTask task, List<String> leaders, Random rnd, long seed)
      throws Exception {
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    CollectorTask c = task.collector;
    byte[] taskId = c.parameters().taskId().bytes();
    String taskPath = "tasks/" + b64(taskId);
    byte[] config = taskConfiguration(task);
    SpecClient.Task browser = new SpecClient.Task(SpecDraft.DAP_19, taskId, new byte[0],
        leaders.get(0), task.client.configuration().helperAggregatorEndpoint(), 60, 10,
        task.variant, PRIO3_L1_BOUND_SUM, l1BoundSumConfig(3), new byte[0]);
    SpecClient.Advertised leaderKey = SpecClient.fetchConfig(http,
        URI.create(leaders.get(0) + "hpke_config"));
    SpecClient.Advertised helperKey = SpecClient.fetchConfig(http, URI.create(
        task.client.configuration().helperAggregatorEndpoint() + "hpke_config"));
    long time = System.currentTimeMillis() / 1000 / 60 - 1; // Time in time_precision (60 s) units

    // the website creates the collection job first: collector_selected query, min_dp_budget 0.5
    byte[] cjr = collectionJobReq(500_000);
    String job = createJob(http, leaders.get(0), taskPath, c, cjr);

    // browsers: 30 spent 1.0 (counted), 10 spent 0.25, 5 sent no privacy_budget (dropped)
    List<Report> counted = new ArrayList<>();
    List<Report> dropped = new ArrayList<>();
    long[] truth = new long[LENGTH];
    for (int i = 0; i < 45; i++) {
      List<BigInteger> m = measurement(rnd);
      Long spent = i < 30 ? Long.valueOf(1_000_000L) : i < 40 ? Long.valueOf(250_000L) : null;
      Report r = report(browser, config, leaderKey, helperKey, time, m, spent, rnd);
      if (i < 30) {
        counted.add(r);
        for (int k = 0; k < LENGTH; k++) {
          truth[k] += m.get(k).longValue();
        }
      } else {
        dropped.add(r);
      }
    }
    // the bundle goes to the job's URL, split over the Leaders
    List<Report> bundle = new ArrayList<>(counted);
    bundle.addAll(dropped);
    java.util.Collections.shuffle(bundle, rnd);
    List<SpecClient.Status> errors = new ArrayList<>();
    for (int i = 0; i < leaders.size(); i++) {
      List<Report> part = bundle.subList(bundle.size() * i / leaders.size(),
          bundle.size() * (i + 1) / leaders.size());
      errors.addAll(upload(http, URI.create(leaders.get(i) + taskPath + "/reports/" + job), part));
    }
    assertEquals(dropped.size(), errors.size(), "exactly the dropped reports are refused");
    for (SpecClient.Status s : errors) {
      assertEquals(REPORT_DROPPED, s.error(), "report_dropped");
      assertTrue(dropped.stream().anyMatch(r -> java.util.Arrays.equals(r.id(), s.id())));
    }

    // the plain upload resource refuses the task's reports (draft section 4)
    HttpResponse<byte[]> plain = post(http, URI.create(leaders.get(0) + taskPath + "/reports"),
        "application/ppm-dap;message=upload-req", null, counted.get(0).encoded());
    assertTrue(plain.statusCode() >= 400 && plain.statusCode() < 500, "plain upload: HTTP "
        + plain.statusCode());
    assertTrue(plain.headers().firstValue("Content-Type").orElse("")
        .startsWith("application/problem+json"), "a problem document");

    // a report uploaded to a second job is refused there, counted once (in the first)
    String second = createJob(http, leaders.get(leaders.size() - 1), taskPath, c,
        collectionJobReq(500_000));
    List<SpecClient.Status> again = upload(http, URI.create(leaders.get(leaders.size() - 1)
        + taskPath + "/reports/" + second), List.of(counted.get(1)));
    assertEquals(1, again.size());
    assertEquals(REPORT_REPLAYED, again.get(0).error(), "report_replayed");

    // the first poll closes the batch; the result opens with the spec's AAD
    SpecCollector.Resp resp = poll(http, leaders.get(0), taskPath, job, c);
    assertEquals(counted.size(), resp.reportCount(), "exactly the admitted reports");
    byte[] aad = new SpecTls().raw(taskId).raw(config).raw(cjr).bytes();
    byte[] leaderShare = SpecCollector.open(c.hpkeKey(), SpecCollector.LEADER, resp.leader(), aad);
    byte[] helperShare = SpecCollector.open(c.hpkeKey(), SpecCollector.HELPER, resp.helper(), aad);
    BigInteger[] noisy = SpecCollector.unshard(leaderShare, helperShare);
    assertEquals(LENGTH, noisy.length);
    // each aggregator adds discrete Laplace noise of scale 2 max_value / 0.5 = 32; the sum of two
    // exceeds t with probability at most 2 exp(-t / 64) * (1 + ...) < 1e-6 for t = 64 * 16
    long bound = 64 * 16;
    for (int k = 0; k < LENGTH; k++) {
      long err = noisy[k].longValueExact() - truth[k];
      assertTrue(Math.abs(err) <= bound, "coordinate " + k + ": noisy " + noisy[k] + ", true "
          + truth[k] + " (seed=" + seed + ")");
    }
  }

  /** TaskConfiguration of DAP-19 section 4.2, as the Collector and browsers were given it. */
  private static byte[] taskConfiguration(EndToEndTask task) {
    var cfg = task.client.configuration();
    SpecTls ext = new SpecTls();
    // task extensions, strictly increasing: collector_identity 0xFA03, budget_source 0xFA04
    ext.u16(0xFA03).opaque16(task.client.attribution().collectorIdentity().orElseThrow()
        .toString().getBytes(StandardCharsets.UTF_8));
    ext.u16(0xFA04).opaque16("shop.example".getBytes(StandardCharsets.UTF_8));
    return new SpecTls().opaque8(cfg.taskInfo().toByteArray())
        .opaque16(cfg.leaderAggregatorEndpoint().getBytes(StandardCharsets.US_ASCII))
        .opaque16(cfg.helperAggregatorEndpoint().getBytes(StandardCharsets.US_ASCII))
        .u64(60).u64(10).u8(COLLECTOR_SELECTED).opaque16(new byte[0])
        .u32(PRIO3_L1_BOUND_SUM).opaque16(l1BoundSumConfig(3)).opaque16(ext.bytes()).bytes();
  }

  /** Prio3L1BoundSumConfig { uint32 length; uint64 max_value; uint32 chunk_length; }. */
  private static byte[] l1BoundSumConfig(int chunkLength) {
    return new SpecTls().u32(LENGTH).u64(MAX_VALUE).u32(chunkLength).bytes();
  }

  /** CollectionJobReq { Query {collector_selected, empty}; agg_param; [min_dp_budget] }. */
  private static byte[] collectionJobReq(long minMicros) {
    byte[] query = new SpecTls().u8(COLLECTOR_SELECTED).opaque16(new byte[0]).bytes();
    byte[] ext = new SpecTls().u16(MIN_DP_BUDGET).opaque16(new SpecTls().u32(minMicros).bytes())
        .bytes();
    return new SpecTls().raw(query).opaque32(new byte[0]).opaque16(ext).bytes();
  }

  /** A measurement with L1 norm at most max_value: the conversion value over the ad sources. */
  private static List<BigInteger> measurement(Random rnd) {
    long left = rnd.nextInt((int) MAX_VALUE + 1);
    List<BigInteger> m = new ArrayList<>();
    for (int k = 0; k < LENGTH; k++) {
      long v = k == LENGTH - 1 ? left : rnd.nextInt((int) left + 1);
      left -= v;
      m.add(BigInteger.valueOf(v));
    }
    return m;
  }

  /** A browser's report. */
  private record Report(byte[] id, byte[] encoded) {
  }

  /**
   * Builds a report as DAP-19 section 4.4.2 says, with the privacy_budget public extension
   * (attribution-00 section 3: uint32 micro-epsilons) unless {@code spent} is null; the
   * InputShareAad holds this test's TaskConfiguration.
   */
  private static Report report(SpecClient.Task t, byte[] config, SpecClient.Advertised leader,
      SpecClient.Advertised helper, long time, List<BigInteger> m, Long spent, Random rnd)
      throws Exception {
    byte[] ext = spent == null ? new byte[0] : new SpecTls().u16(PRIVACY_BUDGET)
        .opaque16(new SpecTls().u32(spent).bytes()).bytes();
    SpecClient.Built b = SpecClient.report(t, config, leader, helper, time, m, ext, rnd);
    return new Report(b.id(), b.encoded());
  }

  private static List<SpecClient.Status> upload(HttpClient http, URI uri, List<Report> reports)
      throws Exception {
    SpecTls body = new SpecTls();
    reports.forEach(r -> body.raw(r.encoded()));
    HttpResponse<byte[]> r = post(http, uri, "application/ppm-dap;message=upload-req", null,
        body.bytes());
    assertEquals(200, r.statusCode(), uri + ": " + new String(r.body(), StandardCharsets.UTF_8));
    return SpecClient.uploadErrors(r.body());
  }

  private static String createJob(HttpClient http, String leader, String taskPath,
      CollectorTask c, byte[] cjr) throws Exception {
    HttpResponse<byte[]> r = post(http, URI.create(leader + taskPath + "/collection_jobs"),
        "application/ppm-dap;message=collection-job-req", c, cjr);
    assertTrue(r.statusCode() == 200 || r.statusCode() == 201, "create the collection job: HTTP "
        + r.statusCode() + " " + new String(r.body(), StandardCharsets.UTF_8));
    String location = r.headers().firstValue("Location").orElseThrow();
    return location.substring(location.lastIndexOf('/') + 1);
  }

  /** Polls the job until the Leader answers with a CollectionJobResp. */
  private static SpecCollector.Resp poll(HttpClient http, String leader, String taskPath,
      String job, CollectorTask c) throws Exception {
    URI uri = URI.create(leader + taskPath + "/collection_jobs/" + job);
    long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
    while (System.nanoTime() < deadline) {
      HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(uri)
          .header("Authorization", c.collectorAuthToken().authorizationHeader()).GET().build(),
          HttpResponse.BodyHandlers.ofByteArray());
      assertTrue(r.statusCode() == 200, "poll: HTTP " + r.statusCode() + " "
          + new String(r.body(), StandardCharsets.UTF_8));
      if (r.body().length > 0) {
        assertEquals("application/ppm-dap;message=collection-job-resp",
            r.headers().firstValue("Content-Type").orElseThrow());
        return SpecCollector.Resp.decode(r.body());
      }
      Thread.sleep(200);
    }
    throw new AssertionError("the collection job did not finish in 120 s");
  }

  private static HttpResponse<byte[]> post(HttpClient http, URI uri, String type,
      CollectorTask c, byte[] body) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
        .header("Content-Type", type);
    if (c != null) {
      b.header("Authorization", c.collectorAuthToken().authorizationHeader());
    }
    return http.send(b.POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
        HttpResponse.BodyHandlers.ofByteArray());
  }

  private static String b64(byte[] b) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
  }

  /**
   * The Collector's identity (attribution-00 section 6.1, the URL option): an https server on
   * loopback whose certificate the aggregators trust through a trust store given to their JVMs,
   * serving {@code GET /hpke_config} as DAP-19 section 4.4.1 defines HpkeConfigList.
   */
  private static final class IdentityServer implements AutoCloseable {
    private final HttpsServer server;
    private final Path trustStore;
    private volatile byte[] list = new byte[0];

    private IdentityServer(HttpsServer server, Path trustStore) {
      this.server = server;
      this.trustStore = trustStore;
    }

    static IdentityServer start(Path dir) throws Exception {
      Files.createDirectories(dir);
      Path keys = dir.resolve("identity.p12");
      Path cert = dir.resolve("identity.crt");
      Path trust = dir.resolve("trust.p12");
      keytool("-genkeypair", "-alias", "identity", "-keyalg", "EC", "-groupname", "secp256r1",
          "-dname", "CN=127.0.0.1", "-ext", "san=ip:127.0.0.1", "-validity", "2",
          "-storetype", "PKCS12", "-keystore", keys.toString(), "-storepass", "changeit");
      keytool("-exportcert", "-alias", "identity", "-keystore", keys.toString(), "-storepass",
          "changeit", "-file", cert.toString());
      keytool("-importcert", "-noprompt", "-alias", "identity", "-file", cert.toString(),
          "-storetype", "PKCS12", "-keystore", trust.toString(), "-storepass", "changeit");
      KeyStore ks = KeyStore.getInstance("PKCS12");
      try (InputStream in = Files.newInputStream(keys)) {
        ks.load(in, "changeit".toCharArray());
      }
      KeyManagerFactory kmf = KeyManagerFactory.getInstance(
          KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(ks, "changeit".toCharArray());
      SSLContext ctx = SSLContext.getInstance("TLS");
      ctx.init(kmf.getKeyManagers(), null, null);
      HttpsServer s = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(),
          0), 0);
      s.setHttpsConfigurator(new HttpsConfigurator(ctx));
      IdentityServer id = new IdentityServer(s, trust);
      s.createContext("/hpke_config", ex -> {
        byte[] body = id.list;
        ex.getResponseHeaders().set("Content-Type",
            "application/ppm-dap;message=hpke-config-list");
        ex.sendResponseHeaders(200, body.length);
        ex.getResponseBody().write(body);
        ex.close();
      });
      s.start();
      return id;
    }

    private static void keytool(String... args) throws Exception {
      List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin",
          "keytool").toString()));
      cmd.addAll(List.of(args));
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (p.waitFor() != 0) {
        throw new IllegalStateException("keytool failed: " + out);
      }
    }

    String url() {
      return "https://127.0.0.1:" + server.getAddress().getPort() + "/";
    }

    /**
     * Serves HpkeConfigList {@code HpkeConfig configs<10..2^16-1>} holding the given config:
     * {@code HpkeConfig { uint8 id; uint16 kem_id; uint16 kdf_id; uint16 aead_id; opaque
     * public_key<1..2^16-1>; }}.
     */
    void list(HpkeConfig c) {
      byte[] one = new SpecTls().u8(c.id().value()).u16(c.kemId()).u16(c.kdfId())
          .u16(c.aeadId()).opaque16(c.publicKey().toByteArray()).bytes();
      list = new SpecTls().opaque16(one).bytes();
    }

    List<String> jvmFlags() {
      return List.of("-Djavax.net.ssl.trustStore=" + trustStore,
          "-Djavax.net.ssl.trustStorePassword=changeit", "-Djavax.net.ssl.trustStoreType=PKCS12");
    }

    @Override
    public void close() {
      server.stop(0);
    }
  }
}
