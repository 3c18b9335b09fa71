package org.priodp.aggregator.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.dap.BatchMode;
import org.priodp.aggregator.dap.DapVersion;
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
import org.priodp.aggregator.hpke.HpkeException;
import org.priodp.aggregator.hpke.HpkeKeyPair;
import org.priodp.aggregator.hpke.HpkeSuite;
import org.priodp.aggregator.task.AuthToken;
import org.priodp.aggregator.testing.SpecDraft;
import org.priodp.aggregator.testing.SpecTls;
import org.priodp.field.FieldVector;
import org.priodp.vdaf.Prio3;
import org.priodp.vdaf.Prio3Variant;
import org.priodp.vdaf.dp.DpStrategy;
import org.priodp.vdaf.dp.SensitivityRule;

/**
 * A Client written in this test from the structs of DAP-18 and of DAP-19 alone ("HPKE
 * Configuration Request", "Upload Request", "Client Behavior", "Task Configuration", "VDAF
 * Configuration Encodings": Prio3Histogram is {uint32 length; uint32 chunk_length}), with its own
 * TLS-presentation encoder and Bouncy Castle's HPKE used directly (info "dap-NN input share" ||
 * 0x01 || server_role, AAD InputShareAad), never the project's DAP codec nor its DapVersion: the
 * version tag, the ReportError code points and the task_info floor come from {@link SpecDraft},
 * copied from each draft. It shards with the project's Prio3. One Leader serves a DAP-18 task and
 * a DAP-19 task (task_info "", which DAP-19 allows) side by side; the Client of each draft fetches
 * the HpkeConfigList over HTTP, uploads to the task of its draft, and reads the UploadErrors of
 * refused reports in its draft's code points. The stored rows are then checked on the Leader's
 * side: they are the uploaded bytes, they decode, and both input shares open (the Leader's with
 * the store's key) and verify to the measurements' histogram; a report sealed with the other
 * draft's info string is stored (the Leader defers decryption) but does not open. Seeds are
 * printed.
 */
class SpecClientUploadInteropTest {
  private static final long PRECISION = 3600;
  private static final String LEADER = "https://leader.example/dap-leader/";
  private static final String HELPER = "https://helper.example/dap/";
  private static final int HISTOGRAM = 4;
  /** A public report extension type no registry of either draft holds. */
  private static final int UNKNOWN_EXTENSION = 0xfe01;

  @TempDir
  Path dir;

  /** What the Client was provisioned with. */
  private record ClientTask(SpecDraft draft, byte[] taskId, byte[] taskInfo, long start,
      long duration) {
    /** TaskConfiguration, encoded from the draft's struct (task_info within its floor). */
    byte[] configuration() {
      byte[] interval = new SpecTls().u64(start).u64(duration).bytes();
      byte[] extensions = new SpecTls().u16(1).opaque16(interval).bytes(); // task_interval
      return new SpecTls().raw(draft.taskInfo(taskInfo))
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
  private static byte[] seal(SpecDraft draft, Advertised to, int serverRole, byte[] aad,
      byte[] plaintext) throws Exception {
    HPKE hpke = new HPKE(HPKE.mode_base, HPKE.kem_X25519_SHA256, HPKE.kdf_HKDF_SHA256,
        HPKE.aead_AES_GCM128);
    AsymmetricKeyParameter pk = hpke.deserializePublicKey(to.publicKey());
    byte[][] sealed = hpke.seal(pk, draft.inputShareInfo(serverRole), aad, plaintext, null, null,
        null);
    return new SpecTls().u8(to.id()).opaque16(sealed[1]).opaque32(sealed[0]).bytes();
  }

  /** The Client's report of one measurement, and what it knows of it. */
  private record Built(byte[] id, int bucket, byte[] encoded) {}

  /** Shards and seals one measurement as a Client of the task's draft. */
  private static Built report(ClientTask t, Advertised leader, Advertised helper, long time,
      int bucket, Random rnd) throws Exception {
    return report(t, t.draft(), leader, helper, time, bucket, new byte[0], rnd);
  }

  /**
   * Shards under {@code sealAs}'s context and seals with its info strings (the task's draft, or
   * the other one to check that it is refused), with the given encoded public extensions.
   */
  private static Built report(ClientTask t, SpecDraft sealAs, Advertised leader,
      Advertised helper, long time, int bucket, byte[] publicExtensions, Random rnd)
      throws Exception {
    byte[] id = new byte[16];
    rnd.nextBytes(id);
    Prio3 prio3 = new Prio3(new Prio3Variant.Histogram(4, 2));
    byte[] rand = new byte[prio3.randSize()];
    rnd.nextBytes(rand);
    Prio3.ShardResult shard = prio3.shard(sealAs.vdafContext(t.taskId()),
        List.of(BigInteger.valueOf(bucket)), id, rand);
    byte[] publicShare = shard.publicShare().encode();
    byte[] metadata = new SpecTls().raw(id).u64(time).opaque16(publicExtensions).bytes();
    byte[] aad = new SpecTls().raw(t.taskId()).raw(t.configuration()).raw(metadata)
        .opaque32(publicShare).bytes();
    byte[] leaderPlain = new SpecTls().opaque16(new byte[0])
        .opaque32(shard.inputShares().get(0).encode()).bytes();
    byte[] helperPlain = new SpecTls().opaque16(new byte[0])
        .opaque32(shard.inputShares().get(1).encode()).bytes();
    byte[] encoded = new SpecTls().raw(metadata).opaque32(publicShare)
        .raw(seal(sealAs, leader, 2, aad, leaderPlain))
        .raw(seal(sealAs, helper, 3, aad, helperPlain)).bytes();
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

  /**
   * The task of each draft as its Client knows it: DAP-19's with the empty task_info its
   * {@code task_info<0..2^8-1>} allows, DAP-18's with "interop".
   */
  private static ClientTask clientTask(SpecDraft draft, long now, Random rnd) {
    byte[] taskId = new byte[32];
    rnd.nextBytes(taskId);
    byte[] info = draft == SpecDraft.DAP_19 ? new byte[0]
        : "interop".getBytes(StandardCharsets.US_ASCII);
    return new ClientTask(draft, taskId, info, now - 24, 48);
  }

  /** The Leader's task as provisioned for the same task, in the draft's version. */
  private static TaskDefinition leaderTask(ClientTask client, HpkeKeyPair collector) {
    TaskDefinition task = leaderTask(client.taskId(), client.taskInfo(), client.start(),
        client.duration(), collector);
    assertArrayEquals(client.configuration(), task.configuration().encode(),
        "both sides agree on the " + client.draft().tag() + " task");
    // the DapVersion only provisions the server's task; the Client never consults it
    return task.withDapVersion(DapVersion.fromTag(client.draft().tag()));
  }

  private static TaskDefinition leaderTask(byte[] taskId, byte[] taskInfo, long start,
      long duration, HpkeKeyPair collector) {
    Prio3Variant variant = new Prio3Variant.Histogram(4, 2);
    TaskConfiguration config = TaskDefinition.configurationFor(variant, taskInfo, LEADER, HELPER,
        PRECISION, 10, BatchMode.TIME_INTERVAL,
        List.of(TaskExtension.taskInterval(Interval.of(start, duration))));
    return new TaskDefinition(new TaskId(taskId), Role.LEADER, config, variant,
        new DpStrategy.NoDifferentialPrivacy(), SensitivityRule.PRIODP,
        new HpkeConfig(new HpkeConfigId(7), HpkeSuite.DAP_MANDATORY.kem(),
            HpkeSuite.DAP_MANDATORY.kdf(), HpkeSuite.DAP_MANDATORY.aead(), collector.publicKey()),
        AuthToken.of("leader-token_0123456789"))
        .withCollectorAuthToken(AuthToken.of("collector-token_0123456789"));
  }

  /**
   * The report error each draft's "Leader Behavior" of upload gives, by name: an unknown HPKE
   * config is outdated_config in DAP-18 and hpke_unknown_config_id in DAP-19; an unrecognized
   * public extension is DAP-19's unsupported_extension, while DAP-18 has no report error for it
   * (it lets the Leader abort the whole upload with unsupportedExtension) and prio-dp answers the
   * report with invalid_message; a repeated extension type is invalid_message in both.
   */
  private static List<String> expectedUploadErrors(SpecDraft draft) {
    return List.of(draft == SpecDraft.DAP_18 ? "outdated_config" : "hpke_unknown_config_id",
        "report_too_early", "report_dropped",
        draft == SpecDraft.DAP_18 ? "invalid_message" : "unsupported_extension",
        "invalid_message");
  }

  @ParameterizedTest
  @EnumSource(SpecDraft.class)
  void aSpecOnlyClientOfEachDraftUploadsToItsTaskBesideOneOfTheOtherDraft(SpecDraft draft)
      throws Exception {
    long seed = Long.getLong("priodp.seed", System.nanoTime());
    System.out.println("SpecClientUploadInteropTest " + draft.tag() + " seed=" + seed);
    Random rnd = new Random(seed);
    long now = System.currentTimeMillis() / 1000 / PRECISION;
    byte[] ikm = new byte[32];
    rnd.nextBytes(ikm);
    HpkeKeyPair collector = new Hpke(HpkeSuite.DAP_MANDATORY).deriveKeyPair(ikm);
    ClientTask client = clientTask(draft, now, rnd);
    ClientTask otherClient = clientTask(draft.other(), now, rnd);
    // one Leader, both drafts' tasks side by side
    TaskDefinition task = leaderTask(client, collector);
    TaskDefinition other = leaderTask(otherClient, collector);
    if (draft.taskInfoFloor() > 0) {
      // task_info<1..2^8-1>: neither this draft's Client nor the Leader provisions an empty one
      assertThrows(IllegalArgumentException.class, () -> draft.taskInfo(new byte[0]));
      TaskDefinition empty = leaderTask(client.taskId(), new byte[0], client.start(),
          client.duration(), collector);
      assertThrows(IllegalArgumentException.class,
          () -> empty.withDapVersion(DapVersion.fromTag(draft.tag())));
    }
    // the Helper's key, as the Client would read it from the Helper
    rnd.nextBytes(ikm);
    HpkeKeyPair helperKey = new Hpke(HpkeSuite.DAP_MANDATORY).deriveKeyPair(ikm);
    Advertised helper = new Advertised(3, 0x20, 1, 1, helperKey.publicKey());

    HttpClient http = HttpClient.newHttpClient();
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("l.db"))) {
      List<TaskDefinition> tasks = draft == SpecDraft.DAP_18 ? List.of(task, other)
          : List.of(other, task);
      Aggregator server = Aggregator.start(AggregatorConfig.builder(tasks, store).build());
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
        // sealed with the other draft's info strings: the Leader defers decryption and stores it
        Built crossed = report(client, draft.other(), leader, helper, now, 0, new byte[0], rnd);
        HttpResponse<byte[]> crossedUpload = upload(http, port, client, List.of(crossed));
        assertEquals(200, crossedUpload.statusCode());
        assertEquals(0, crossedUpload.body().length);

        // what the Leader stored decodes, opens and verifies
        HelperHpkeKey key = store.hpkeKeys().all().stream()
            .filter(k -> k.config().id().value() == leader.id()).findFirst().orElseThrow();
        HpkeKeyPair leaderPair = new HpkeKeyPair(key.config().kem().orElseThrow(),
            key.privateKey().toByteArray(), key.config().publicKey().toByteArray());
        HpkeConfig helperConfig = new HpkeConfig(new HpkeConfigId(3),
            HpkeSuite.DAP_MANDATORY.kem(), HpkeSuite.DAP_MANDATORY.kdf(),
            HpkeSuite.DAP_MANDATORY.aead(), helperKey.publicKey());
        Prio3 prio3 = new Prio3(task.variant());
        byte[] verifyKey = new byte[32];
        rnd.nextBytes(verifyKey);
        byte[] ctx = draft.vdafContext(client.taskId());
        List<FieldVector> leaderOut = new ArrayList<>();
        List<FieldVector> helperOut = new ArrayList<>();
        for (Built b : reports) {
          Report r = stored(store, task, b);
          assertEquals(now, r.reportMetadata().time().value());
          PlaintextInputShare lp = InputShareEncryption.open(task.dapVersion(), key.config(),
              leaderPair, Role.LEADER, InputShareAad.of(task.taskId(), task.configuration(),
                  r.leaderReportShare()), r.leaderEncryptedInputShare());
          PlaintextInputShare hp = InputShareEncryption.open(task.dapVersion(), helperConfig,
              helperKey, Role.HELPER, InputShareAad.of(task.taskId(), task.configuration(),
                  r.helperReportShare()), r.helperEncryptedInputShare());
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
        Report crossedRow = stored(store, task, crossed);
        assertThrows(HpkeException.class, () -> InputShareEncryption.open(task.dapVersion(),
            key.config(), leaderPair, Role.LEADER, InputShareAad.of(task.taskId(),
                task.configuration(), crossedRow.leaderReportShare()),
            crossedRow.leaderEncryptedInputShare()),
            "a report sealed with \"" + draft.other().tag() + " input share\" does not open in a "
                + draft.tag() + " task");

        // refused reports come back as UploadErrors in the draft's code points, in request order
        Advertised outdated = new Advertised((leader.id() + 1) % 256, 0x20, 1, 1,
            leader.publicKey());
        byte[] unknownExtension = new SpecTls().u16(UNKNOWN_EXTENSION).opaque16(new byte[0])
            .bytes();
        byte[] repeatedExtension = new SpecTls().raw(unknownExtension).raw(unknownExtension)
            .bytes();
        List<Built> mixed = List.of(report(client, leader, helper, now, 0, rnd),
            report(client, outdated, helper, now, 1, rnd),
            report(client, leader, helper, now + 2, 2, rnd),
            report(client, leader, helper, now - 25, 3, rnd),
            report(client, draft, leader, helper, now, 1, unknownExtension, rnd),
            report(client, draft, leader, helper, now, 2, repeatedExtension, rnd));
        HttpResponse<byte[]> errs = upload(http, port, client, mixed);
        assertEquals(200, errs.statusCode());
        assertEquals("application/ppm-dap;message=upload-errors",
            errs.headers().firstValue("Content-Type").orElseThrow());
        // UploadErrors: ReportUploadStatus { ReportID id; ReportError error; } status[...]
        ByteBuffer e = ByteBuffer.wrap(errs.body());
        List<String> expected = expectedUploadErrors(draft);
        for (int i = 0; i < expected.size(); i++) {
          byte[] id = new byte[16];
          e.get(id);
          assertArrayEquals(mixed.get(i + 1).id(), id);
          int code = e.get() & 0xff;
          assertEquals(draft.code(expected.get(i)), code, "status " + i + ": " + expected.get(i)
              + " in " + draft.tag() + ", got " + draft.name(code));
        }
        assertEquals(0, e.remaining());
      } finally {
        server.close();
      }
    }
  }

  /** Returns the Leader's row of an uploaded report, checking that it holds the uploaded bytes. */
  private static Report stored(JdbcDatastore store, TaskDefinition task, Built b) {
    byte[] row = store.inTaskTransaction(task.taskId(),
        tx -> tx.clientReports().get(new ReportId(b.id()))).orElseThrow().toByteArray();
    assertArrayEquals(b.encoded(), row, "the row is the uploaded Report");
    return Report.decode(row);
  }
}
