package org.priodp.aggregator.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.bouncycastle.crypto.hpke.HPKE;
import org.bouncycastle.crypto.params.AsymmetricKeyParameter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.dap.BatchMode;
import org.priodp.aggregator.dap.HpkeConfig;
import org.priodp.aggregator.dap.HpkeConfigId;
import org.priodp.aggregator.dap.InputShareAad;
import org.priodp.aggregator.dap.InputShareEncryption;
import org.priodp.aggregator.dap.Interval;
import org.priodp.aggregator.dap.PlaintextInputShare;
import org.priodp.aggregator.dap.Report;
import org.priodp.aggregator.dap.ReportId;
import org.priodp.aggregator.dap.Role;
import org.priodp.aggregator.dap.TaskConfiguration;
import org.priodp.aggregator.dap.TaskExtension;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.HelperHpkeKey;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import org.priodp.aggregator.hpke.Hpke;
import org.priodp.aggregator.hpke.HpkeKeyPair;
import org.priodp.aggregator.hpke.HpkeSuite;
import org.priodp.aggregator.task.AuthToken;
import org.priodp.aggregator.testing.SpecTls;
import org.priodp.field.FieldVector;
import org.priodp.vdaf.Prio3;
import org.priodp.vdaf.Prio3Variant;
import org.priodp.vdaf.dp.DpStrategy;
import org.priodp.vdaf.dp.SensitivityRule;

/**
 * A Client written in this test from DAP-18's structs alone ("HPKE Configuration Request",
 * "Upload Request", "Client Behavior", "Task Configuration", "VDAF Configuration Encodings":
 * Prio3Histogram is {uint32 length; uint32 chunk_length}), with its own TLS-presentation encoder
 * and Bouncy Castle's HPKE used directly (info "dap-19 input share" || 0x01 || server_role, AAD
 * InputShareAad), never the project's DAP codec; it shards with the project's Prio3. It fetches
 * the Leader's HpkeConfigList over HTTP from a running server, uploads reports over HTTP, and
 * reads the UploadErrors of refused ones. The stored rows are then checked on the Leader's side:
 * they are the uploaded bytes, they decode, and both input shares open (the Leader's with the
 * store's key) and verify to the measurements' histogram. Seeds are printed.
 */
class SpecClientUploadInteropTest {
  private static final long PRECISION = 3600;
  private static final String LEADER = "https://leader.example/dap-leader/";
  private static final String HELPER = "https://helper.example/dap/";
  private static final int HISTOGRAM = 4;

  @TempDir
  Path dir;

  /** What the Client was provisioned with. */
  private record ClientTask(byte[] taskId, long start, long duration) {
    /** TaskConfiguration, encoded from the spec's struct. */
    byte[] configuration() {
      byte[] interval = new SpecTls().u64(start).u64(duration).bytes();
      byte[] extensions = new SpecTls().u16(1).opaque16(interval).bytes(); // task_interval
      return new SpecTls().opaque8("interop".getBytes(StandardCharsets.US_ASCII))
          .opaque16(LEADER.getBytes(StandardCharsets.US_ASCII))
          .opaque16(HELPER.getBytes(StandardCharsets.US_ASCII))
          .u64(PRECISION).u64(10).u8(1).opaque16(new byte[0]) // time_interval, no batch_config
          .u32(HISTOGRAM).opaque16(new SpecTls().u32(4).u32(2).bytes())
          .opaque16(extensions).bytes();
    }
  }

  /** One HpkeConfig the Client read. */
  private record Advertised(int id, int kem, int kdf, int aead, byte[] publicKey) {}

  /** Parses HpkeConfigList: HpkeConfig HpkeConfigList<10..2^16-1>. */
  private static List<Advertised> parseConfigList(byte[] body) {
    ByteBuffer b = ByteBuffer.wrap(body);
    int length = b.getShort() & 0xffff;
    assertEquals(body.length - 2, length, "the list is the whole body");
    List<Advertised> out = new ArrayList<>();
    while (b.hasRemaining()) {
      int id = b.get() & 0xff;
      int kem = b.getShort() & 0xffff;
      int kdf = b.getShort() & 0xffff;
      int aead = b.getShort() & 0xffff;
      byte[] pk = new byte[b.getShort() & 0xffff];
      b.get(pk);
      out.add(new Advertised(id, kem, kdf, aead, pk));
    }
    return out;
  }

  /** The Client's GET {leader}/hpke_config, picking the first X25519/HKDF-SHA256/AES-128-GCM. */
  private static Advertised fetchLeaderConfig(HttpClient http, int port) throws Exception {
    HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
        + port + "/dap-leader/hpke_config")).timeout(Duration.ofSeconds(30)).GET().build(),
        HttpResponse.BodyHandlers.ofByteArray());
    assertEquals(200, r.statusCode());
    assertEquals("application/ppm-dap;message=hpke-config-list",
        r.headers().firstValue("Content-Type").orElseThrow());
    List<Advertised> list = parseConfigList(r.body());
    assertTrue(!list.isEmpty(), "a Client aborts on an empty list");
    return list.stream().filter(c -> c.kem() == 0x20 && c.kdf() == 1 && c.aead() == 1)
        .findFirst().orElseThrow(() -> new AssertionError("no supported suite advertised"));
  }

  /** HpkeCiphertext {config_id; enc<1..2^16-1>; payload<1..2^32-1>} from SealBase. */
  private static byte[] seal(Advertised to, int serverRole, byte[] aad, byte[] plaintext)
      throws Exception {
    HPKE hpke = new HPKE(HPKE.mode_base, HPKE.kem_X25519_SHA256, HPKE.kdf_HKDF_SHA256,
        HPKE.aead_AES_GCM128);
    AsymmetricKeyParameter pk = hpke.deserializePublicKey(to.publicKey());
    byte[] info = new SpecTls().raw("dap-19 input share".getBytes(StandardCharsets.US_ASCII))
        .u8(1).u8(serverRole).bytes();
    byte[][] sealed = hpke.seal(pk, info, aad, plaintext, null, null, null);
    return new SpecTls().u8(to.id()).opaque16(sealed[1]).opaque32(sealed[0]).bytes();
  }

  /** The Client's report of one measurement, and what it knows of it. */
  private record Built(byte[] id, int bucket, byte[] encoded) {}

  private static Built report(ClientTask t, Advertised leader, Advertised helper, long time,
      int bucket, Random rnd) throws Exception {
    byte[] id = new byte[16];
    rnd.nextBytes(id);
    Prio3 prio3 = new Prio3(new Prio3Variant.Histogram(4, 2));
    byte[] rand = new byte[prio3.randSize()];
    rnd.nextBytes(rand);
    byte[] ctx = new SpecTls().raw("dap-19".getBytes(StandardCharsets.US_ASCII)).raw(t.taskId())
        .bytes();
    Prio3.ShardResult shard = prio3.shard(ctx, List.of(BigInteger.valueOf(bucket)), id, rand);
    byte[] publicShare = shard.publicShare().encode();
    byte[] metadata = new SpecTls().raw(id).u64(time).opaque16(new byte[0]).bytes();
    byte[] aad = new SpecTls().raw(t.taskId()).raw(t.configuration()).raw(metadata)
        .opaque32(publicShare).bytes();
    byte[] leaderPlain = new SpecTls().opaque16(new byte[0])
        .opaque32(shard.inputShares().get(0).encode()).bytes();
    byte[] helperPlain = new SpecTls().opaque16(new byte[0])
        .opaque32(shard.inputShares().get(1).encode()).bytes();
    byte[] encoded = new SpecTls().raw(metadata).opaque32(publicShare)
        .raw(seal(leader, 2, aad, leaderPlain)).raw(seal(helper, 3, aad, helperPlain)).bytes();
    return new Built(id, bucket, encoded);
  }

  private static HttpResponse<byte[]> upload(HttpClient http, int port, ClientTask t,
      List<Built> reports) throws Exception {
    SpecTls body = new SpecTls(); // UploadRequest: Report reports[message_length]
    for (Built b : reports) {
      body.raw(b.encoded());
    }
    String path = "/dap-leader/tasks/" + java.util.Base64.getUrlEncoder().withoutPadding()
        .encodeToString(t.taskId()) + "/reports";
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .timeout(Duration.ofSeconds(30))
        .header("Content-Type", "application/ppm-dap;message=upload-req")
        .POST(HttpRequest.BodyPublishers.ofByteArray(body.bytes())).build(),
        HttpResponse.BodyHandlers.ofByteArray());
  }

  @Test
  void aSpecOnlyClientUploadsAndTheStoredReportsOpenAndVerify() throws Exception {
    long seed = Long.getLong("priodp.seed", System.nanoTime());
    System.out.println("SpecClientUploadInteropTest seed=" + seed);
    Random rnd = new Random(seed);
    long now = System.currentTimeMillis() / 1000 / PRECISION;
    byte[] taskId = new byte[32];
    rnd.nextBytes(taskId);
    ClientTask client = new ClientTask(taskId, now - 24, 48);

    // the Leader as provisioned: the same task, with the aggregators' parameters
    byte[] ikm = new byte[32];
    rnd.nextBytes(ikm);
    HpkeKeyPair collector = new Hpke(HpkeSuite.DAP_MANDATORY).deriveKeyPair(ikm);
    Prio3Variant variant = new Prio3Variant.Histogram(4, 2);
    TaskConfiguration config = TaskDefinition.configurationFor(variant,
        "interop".getBytes(StandardCharsets.US_ASCII), LEADER, HELPER, PRECISION, 10,
        BatchMode.TIME_INTERVAL, List.of(TaskExtension.taskInterval(Interval.of(now - 24, 48))));
    assertArrayEquals(client.configuration(), config.encode(), "both sides agree on the task");
    TaskDefinition task = new TaskDefinition(new TaskId(taskId), Role.LEADER, config, variant,
        new DpStrategy.NoDifferentialPrivacy(), SensitivityRule.PRIODP,
        new HpkeConfig(new HpkeConfigId(7), HpkeSuite.DAP_MANDATORY.kem(),
            HpkeSuite.DAP_MANDATORY.kdf(), HpkeSuite.DAP_MANDATORY.aead(), collector.publicKey()),
        AuthToken.of("leader-token_0123456789"))
        .withCollectorAuthToken(AuthToken.of("collector-token_0123456789"));
    // the Helper's key, as the Client would read it from the Helper
    rnd.nextBytes(ikm);
    HpkeKeyPair helperKey = new Hpke(HpkeSuite.DAP_MANDATORY).deriveKeyPair(ikm);
    Advertised helper = new Advertised(3, 0x20, 1, 1, helperKey.publicKey());

    HttpClient http = HttpClient.newHttpClient();
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("l.db"))) {
      Aggregator server = Aggregator.start(AggregatorConfig.builder(List.of(task), store).build());
      int port = server.port();
      try {
        Advertised leader = fetchLeaderConfig(http, port);
        List<Built> reports = new ArrayList<>();
        long[] truth = new long[4];
        for (int i = 0; i < 12; i++) {
          int bucket = rnd.nextInt(4);
          truth[bucket]++;
          reports.add(report(client, leader, helper, now, bucket, rnd));
        }
        // a single-report upload, then the rest in one request
        HttpResponse<byte[]> one = upload(http, port, client, reports.subList(0, 1));
        assertEquals(200, one.statusCode(), new String(one.body(), StandardCharsets.UTF_8));
        assertEquals(0, one.body().length, "all accepted: an empty body");
        HttpResponse<byte[]> rest = upload(http, port, client, reports);
        assertEquals(200, rest.statusCode());
        assertEquals(0, rest.body().length, "a repeated report is accepted again");

        // what the Leader stored decodes, opens and verifies
        HelperHpkeKey key = store.hpkeKeys().all().stream()
            .filter(k -> k.config().id().value() == leader.id()).findFirst().orElseThrow();
        HpkeKeyPair leaderPair = new HpkeKeyPair(key.config().kem().orElseThrow(),
            key.privateKey().toByteArray(), key.config().publicKey().toByteArray());
        HpkeConfig helperConfig = new HpkeConfig(new HpkeConfigId(3),
            HpkeSuite.DAP_MANDATORY.kem(), HpkeSuite.DAP_MANDATORY.kdf(),
            HpkeSuite.DAP_MANDATORY.aead(), helperKey.publicKey());
        Prio3 prio3 = new Prio3(variant);
        byte[] verifyKey = new byte[32];
        rnd.nextBytes(verifyKey);
        byte[] ctx = new SpecTls().raw("dap-19".getBytes(StandardCharsets.US_ASCII)).raw(taskId)
            .bytes();
        List<FieldVector> leaderOut = new ArrayList<>();
        List<FieldVector> helperOut = new ArrayList<>();
        for (Built b : reports) {
          byte[] stored = store.inTaskTransaction(task.taskId(),
              tx -> tx.clientReports().get(new ReportId(b.id()))).orElseThrow().toByteArray();
          assertArrayEquals(b.encoded(), stored, "the row is the uploaded Report");
          Report r = Report.decode(stored);
          assertEquals(now, r.reportMetadata().time().value());
          PlaintextInputShare lp = InputShareEncryption.open(task.dapVersion(), key.config(), leaderPair,
              Role.LEADER, InputShareAad.of(task.taskId(), config, r.leaderReportShare()),
              r.leaderEncryptedInputShare());
          PlaintextInputShare hp = InputShareEncryption.open(task.dapVersion(), helperConfig, helperKey,
              Role.HELPER, InputShareAad.of(task.taskId(), config, r.helperReportShare()),
              r.helperEncryptedInputShare());
          Prio3.PublicShare ps = prio3.decodePublicShare(r.publicShare().toByteArray());
          Prio3.VerifyInitResult li = prio3.verifyInit(verifyKey, ctx, 0, b.id(), ps,
              prio3.decodeInputShare(0, lp.payload().toByteArray()));
          Prio3.VerifyInitResult hi = prio3.verifyInit(verifyKey, ctx, 1, b.id(), ps,
              prio3.decodeInputShare(1, hp.payload().toByteArray()));
          Prio3.VerifierMessage m = prio3.verifierSharesToMessage(ctx,
              List.of(li.verifierShare(), hi.verifierShare()));
          leaderOut.add(prio3.verifyNext(li.state(), m));
          helperOut.add(prio3.verifyNext(hi.state(), m));
        }
        List<BigInteger> result = prio3.unshard(List.of(prio3.aggregate(leaderOut),
            prio3.aggregate(helperOut)), reports.size());
        for (int i = 0; i < 4; i++) {
          assertEquals(BigInteger.valueOf(truth[i]), result.get(i), "bucket " + i);
        }

        // refused reports come back as UploadErrors, in request order
        Advertised outdated = new Advertised((leader.id() + 1) % 256, 0x20, 1, 1,
            leader.publicKey());
        List<Built> mixed = List.of(report(client, leader, helper, now, 0, rnd),
            report(client, outdated, helper, now, 1, rnd),
            report(client, leader, helper, now + 2, 2, rnd),
            report(client, leader, helper, now - 25, 3, rnd));
        HttpResponse<byte[]> errs = upload(http, port, client, mixed);
        assertEquals(200, errs.statusCode());
        assertEquals("application/ppm-dap;message=upload-errors",
            errs.headers().firstValue("Content-Type").orElseThrow());
        // UploadErrors: ReportUploadStatus { ReportID id; ReportError error; } status[...]
        ByteBuffer e = ByteBuffer.wrap(errs.body());
        int[] expected = {4, 8, 3}; // DAP-19: hpke_unknown_config_id, report_too_early, report_dropped
        for (int i = 0; i < expected.length; i++) {
          byte[] id = new byte[16];
          e.get(id);
          assertArrayEquals(mixed.get(i + 1).id(), id);
          assertEquals(expected[i], e.get() & 0xff, "status " + i);
        }
        assertEquals(0, e.remaining());
      } finally {
        server.close();
      }
    }
  }
}
