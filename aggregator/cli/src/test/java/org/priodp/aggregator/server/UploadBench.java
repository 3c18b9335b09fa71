package org.priodp.aggregator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.dap.DapVersion;
import org.priodp.aggregator.dap.BatchMode;
import org.priodp.aggregator.dap.HpkeCiphertext;
import org.priodp.aggregator.dap.HpkeConfig;
import org.priodp.aggregator.dap.HpkeConfigId;
import org.priodp.aggregator.dap.HpkeConfigList;
import org.priodp.aggregator.dap.InputShareAad;
import org.priodp.aggregator.dap.InputShareEncryption;
import org.priodp.aggregator.dap.PlaintextInputShare;
import org.priodp.aggregator.dap.Report;
import org.priodp.aggregator.dap.ReportId;
import org.priodp.aggregator.dap.ReportMetadata;
import org.priodp.aggregator.dap.Role;
import org.priodp.aggregator.dap.TaskConfiguration;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.dap.UploadRequest;
import org.priodp.aggregator.hpke.Hpke;
import org.priodp.aggregator.hpke.HpkeKeyPair;
import org.priodp.aggregator.hpke.HpkeSuite;
import org.priodp.aggregator.testing.ServeProcess;
import org.priodp.vdaf.Prio3;
import org.priodp.vdaf.Prio3Variant;

/**
 * Not a test of the suite (the name does not end in Test): measures the reports per second one
 * {@code serve} process (a child JVM, SQLite, request log at INFO into a file) accepts for a
 * Leader Prio3Histogram(10) task. The reports are sharded and sealed before the clock starts;
 * the loop then uploads them over HTTP: one report per request from one client, then from
 * {@code -Dpriodp.bench.clients} (default 8) concurrent clients, then {@code
 * -Dpriodp.bench.batch} (default 100) reports per request from one client. Run with {@code mvn -o
 * -q -pl aggregator/cli -am test -Dtest=UploadBench -Dpriodp.bench.reports=20000
 * -Dsurefire.failIfNoSpecifiedTests=false}.
 */
class UploadBench {
  private static final String LEADER = "https://leader.example/";
  private static final long PRECISION = 3600;

  @TempDir
  Path dir;

  @Test
  void uploadsPerSecond() throws Exception {
    int n = Integer.getInteger("priodp.bench.reports", 20_000);
    int clients = Integer.getInteger("priodp.bench.clients", 8);
    int batch = Integer.getInteger("priodp.bench.batch", 100);
    SecureRandom rnd = new SecureRandom();
    byte[] taskId = new byte[32];
    rnd.nextBytes(taskId);
    HpkeKeyPair collector = new Hpke(HpkeSuite.DAP_MANDATORY).generateKeyPair();
    String b64 = Base64.getUrlEncoder().withoutPadding().encodeToString(taskId);
    Path config = dir.resolve("leader.json");
    Files.writeString(config, "{\"tasks\": [{\"task_id\": \"" + b64 + "\", \"role\": \"leader\","
        + " \"task_info\": \"bench\", \"leader_aggregator_endpoint\": \"" + LEADER + "\","
        + " \"helper_aggregator_endpoint\": \"https://helper.example/\", \"time_precision\": "
        + PRECISION + ", \"min_batch_size\": 10, \"batch_mode\": \"time_interval\","
        + " \"vdaf\": {\"type\": \"Prio3Histogram\", \"length\": 10, \"chunk_length\": 3},"
        + " \"dp_strategy\": {\"dp_strategy\": \"NoDifferentialPrivacy\"},"
        + " \"collector_hpke_config\": {\"id\": 7, \"kem_id\": 32, \"kdf_id\": 1, \"aead_id\": 1,"
        + " \"public_key\": \"" + Base64.getUrlEncoder().withoutPadding().encodeToString(
            collector.publicKey()) + "\"}, \"auth_token\": \"leader-token_0123456789\","
        + " \"collector_auth_token\": \"collector-token_0123456789\"}]}");
    Path db = dir.resolve("leader.db");
    Process p = ServeProcess.start(config, "jdbc:sqlite:" + db, dir.resolve("serve.log"),
        List.of());
    try {
      int port = ServeProcess.awaitPort(p);
      HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
      HttpResponse<byte[]> keys = http.send(HttpRequest.newBuilder(URI.create(
          "http://127.0.0.1:" + port + "/hpke_config")).GET().build(),
          HttpResponse.BodyHandlers.ofByteArray());
      HpkeConfig leaderConfig = HpkeConfigList.decode(keys.body()).configs().get(0);
      HpkeConfig helperConfig = new HpkeConfig(new HpkeConfigId(3),
          HpkeSuite.DAP_MANDATORY.kem(), HpkeSuite.DAP_MANDATORY.kdf(),
          HpkeSuite.DAP_MANDATORY.aead(),
          new Hpke(HpkeSuite.DAP_MANDATORY).generateKeyPair().publicKey());
      Prio3Variant variant = new Prio3Variant.Histogram(10, 3);
      TaskConfiguration tc = TaskDefinition.configurationFor(variant,
          "bench".getBytes(StandardCharsets.US_ASCII), LEADER, "https://helper.example/",
          PRECISION, 10, BatchMode.TIME_INTERVAL, List.of());
      Prio3 prio3 = new Prio3(variant);
      byte[] ctx = DapVersion.DAP_19.vdafContext(new TaskId(taskId));
      long now = System.currentTimeMillis() / 1000 / PRECISION;
      long prep = System.nanoTime();
      List<Report> reports = new ArrayList<>(3 * n);
      for (int i = 0; i < 3 * n; i++) {
        ReportId id = ReportId.random(rnd);
        byte[] rand = new byte[prio3.randSize()];
        rnd.nextBytes(rand);
        Prio3.ShardResult s = prio3.shard(ctx, List.of(BigInteger.valueOf(i % 10)), id.bytes(),
            rand);
        ReportMetadata m = ReportMetadata.of(id, now);
        InputShareAad aad = new InputShareAad(new TaskId(taskId), tc, m,
            s.publicShare().encode());
        HpkeCiphertext l = InputShareEncryption.seal(DapVersion.DAP_19, leaderConfig, Role.LEADER, aad,
            new PlaintextInputShare(List.of(), s.inputShares().get(0).encode()));
        HpkeCiphertext h = InputShareEncryption.seal(DapVersion.DAP_19, helperConfig, Role.HELPER, aad,
            new PlaintextInputShare(List.of(), s.inputShares().get(1).encode()));
        reports.add(new Report(m, s.publicShare().encode(), l, h));
      }
      System.out.printf("UploadBench: %d reports of %d bytes prepared in %.1f s%n", 3 * n,
          reports.get(0).encode().length, (System.nanoTime() - prep) / 1e9);
      URI uri = URI.create("http://127.0.0.1:" + port + "/tasks/" + b64 + "/reports");
      List<byte[]> single = new ArrayList<>();
      for (Report r : reports) {
        single.add(new UploadRequest(List.of(r)).encode());
      }
      // warm-up: 500 uploads not counted (they are extra reports)
      List<Report> warm = new ArrayList<>();
      for (int i = 0; i < 500; i++) {
        ReportId id = ReportId.random(rnd);
        warm.add(new Report(ReportMetadata.of(id, now), reports.get(0).publicShare(),
            reports.get(0).leaderEncryptedInputShare(),
            reports.get(0).helperEncryptedInputShare()));
      }
      for (Report r : warm) {
        post(http, uri, new UploadRequest(List.of(r)).encode());
      }

      long t0 = System.nanoTime();
      for (int i = 0; i < n; i++) {
        post(http, uri, single.get(i));
      }
      double seq = n / ((System.nanoTime() - t0) / 1e9);

      ExecutorService pool = Executors.newFixedThreadPool(clients);
      AtomicInteger next = new AtomicInteger(n);
      List<Future<?>> fs = new ArrayList<>();
      long t1 = System.nanoTime();
      for (int c = 0; c < clients; c++) {
        fs.add(pool.submit(() -> {
          for (int i = next.getAndIncrement(); i < 2 * n; i = next.getAndIncrement()) {
            post(http, uri, single.get(i));
          }
          return null;
        }));
      }
      for (Future<?> f : fs) {
        f.get();
      }
      double par = n / ((System.nanoTime() - t1) / 1e9);
      pool.shutdown();

      long t2 = System.nanoTime();
      for (int i = 2 * n; i < 3 * n; i += batch) {
        post(http, uri, new UploadRequest(reports.subList(i, Math.min(3 * n, i + batch)))
            .encode());
      }
      double batched = n / ((System.nanoTime() - t2) / 1e9);
      System.out.printf("UploadBench: %d reports each way; one report per request, one client:"
          + " %.0f reports/s; %d clients: %.0f reports/s; %d reports per request, one client:"
          + " %.0f reports/s%n", n, seq, clients, par, batch, batched);
      try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
          Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM client_reports")) {
        rs.next();
        assertEquals(3 * n + 500, rs.getLong(1), "every report stored once");
      }
    } finally {
      ServeProcess.stop(p);
    }
  }

  private static void post(HttpClient http, URI uri, byte[] body) throws Exception {
    HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(uri)
        .timeout(Duration.ofSeconds(60))
        .header("Content-Type", "application/ppm-dap;message=upload-req")
        .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
        HttpResponse.BodyHandlers.ofByteArray());
    if (r.statusCode() != 200 || r.body().length != 0) {
      throw new AssertionError("upload answered " + r.statusCode() + " with "
          + r.body().length + " bytes");
    }
  }
}
