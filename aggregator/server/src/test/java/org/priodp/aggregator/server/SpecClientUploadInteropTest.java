package org.priodp.aggregator.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
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
import org.priodp.aggregator.testing.SpecClient;
import org.priodp.aggregator.testing.SpecDraft;
import org.priodp.aggregator.testing.SpecTls;
import org.priodp.field.FieldVector;
import org.priodp.vdaf.Prio3;
import org.priodp.vdaf.Prio3Variant;
import org.priodp.vdaf.dp.DpStrategy;
import org.priodp.vdaf.dp.SensitivityRule;

/**
 * A Client written from the structs of DAP-18 and of DAP-19 alone ({@link SpecClient}: "HPKE
 * Configuration Request", "Upload Request", "Client Behavior", "Task Configuration"; this test
 * writes "VDAF Configuration Encodings": Prio3Histogram is {uint32 length; uint32 chunk_length}),
 * with its own TLS-presentation encoder and Bouncy Castle's HPKE used directly (info "dap-NN input
 * share" || 0x01 || server_role, AAD InputShareAad), never the project's DAP codec nor its
 * DapVersion: the version tag, the ReportError code points and the task_info floor come from
 * {@link SpecDraft}, copied from each draft. It shards with the project's Prio3. One Leader serves a DAP-18 task and
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

  @TempDir
  Path dir;

  /**
   * The task of each draft as its Client knows it (Prio3Histogram {uint32 length = 4; uint32
   * chunk_length = 2}, a task_interval of [now - 24, now + 24)): DAP-19's with the empty
   * task_info its {@code task_info<0..2^8-1>} allows, DAP-18's with "interop".
   */
  private static SpecClient.Task clientTask(SpecDraft draft, long now, Random rnd) {
    byte[] taskId = new byte[32];
    rnd.nextBytes(taskId);
    byte[] info = draft == SpecDraft.DAP_19 ? new byte[0]
        : "interop".getBytes(StandardCharsets.US_ASCII);
    return new SpecClient.Task(draft, taskId, info, LEADER, HELPER, PRECISION, 10,
        new Prio3Variant.Histogram(4, 2), 4, new SpecTls().u32(4).u32(2).bytes(),
        SpecClient.taskIntervalExtension(now - 24, 48));
  }

  /** The Leader's task as provisioned for the same task, in the draft's version. */
  private static TaskDefinition leaderTask(SpecClient.Task client, long now,
      HpkeKeyPair collector) {
    TaskDefinition task = leaderTask(client.taskId(), client.taskInfo(), now, collector);
    assertArrayEquals(client.configuration(), task.configuration().encode(),
        "both sides agree on the " + client.draft().tag() + " task");
    // the DapVersion only provisions the server's task; the Client never consults it
    return task.withDapVersion(DapVersion.fromTag(client.draft().tag()));
  }

  private static TaskDefinition leaderTask(byte[] taskId, byte[] taskInfo, long now,
      HpkeKeyPair collector) {
    Prio3Variant variant = new Prio3Variant.Histogram(4, 2);
    TaskConfiguration config = TaskDefinition.configurationFor(variant, taskInfo, LEADER, HELPER,
        PRECISION, 10, BatchMode.TIME_INTERVAL,
        List.of(TaskExtension.taskInterval(Interval.of(now - 24, 48))));
    return new TaskDefinition(new TaskId(taskId), Role.LEADER, config, variant,
        new DpStrategy.NoDifferentialPrivacy(), SensitivityRule.PRIODP,
        new HpkeConfig(new HpkeConfigId(7), HpkeSuite.DAP_MANDATORY.kem(),
            HpkeSuite.DAP_MANDATORY.kdf(), HpkeSuite.DAP_MANDATORY.aead(), collector.publicKey()),
        AuthToken.of("leader-token_0123456789"))
        .withCollectorAuthToken(AuthToken.of("collector-token_0123456789"));
  }

  private static List<BigInteger> bucket(int b) {
    return List.of(BigInteger.valueOf(b));
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
    SpecClient.Task client = clientTask(draft, now, rnd);
    SpecClient.Task otherClient = clientTask(draft.other(), now, rnd);
    // one Leader, both drafts' tasks side by side
    TaskDefinition task = leaderTask(client, now, collector);
    TaskDefinition other = leaderTask(otherClient, now, collector);
    if (draft.taskInfoFloor() > 0) {
      // task_info<1..2^8-1>: neither this draft's Client nor the Leader provisions an empty one
      assertThrows(IllegalArgumentException.class, () -> draft.taskInfo(new byte[0]));
      TaskDefinition empty = leaderTask(client.taskId(), new byte[0], now, collector);
      assertThrows(IllegalArgumentException.class,
          () -> empty.withDapVersion(DapVersion.fromTag(draft.tag())));
    }
    // the Helper's key, as the Client would read it from the Helper
    rnd.nextBytes(ikm);
    HpkeKeyPair helperKey = new Hpke(HpkeSuite.DAP_MANDATORY).deriveKeyPair(ikm);
    SpecClient.Advertised helper = new SpecClient.Advertised(3, 0x20, 1, 1,
        helperKey.publicKey());

    HttpClient http = HttpClient.newHttpClient();
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("l.db"))) {
      List<TaskDefinition> tasks = draft == SpecDraft.DAP_18 ? List.of(task, other)
          : List.of(other, task);
      Aggregator server = Aggregator.start(AggregatorConfig.builder(tasks, store).build());
      String base = "http://127.0.0.1:" + server.port() + "/dap-leader/";
      URI reportsUri = client.reportsUri(base);
      try {
        SpecClient.Advertised leader = SpecClient.fetchConfig(http,
            URI.create(base + "hpke_config"));
        List<SpecClient.Built> reports = new ArrayList<>();
        long[] truth = new long[4];
        for (int i = 0; i < 12; i++) {
          int bucket = rnd.nextInt(4);
          truth[bucket]++;
          reports.add(SpecClient.report(client, leader, helper, now, bucket(bucket), rnd));
        }
        // a single-report upload, then the rest in one request
        HttpResponse<byte[]> one = SpecClient.upload(http, reportsUri, reports.subList(0, 1));
        assertEquals(200, one.statusCode(), new String(one.body(), StandardCharsets.UTF_8));
        assertEquals(0, one.body().length, "all accepted: an empty body");
        HttpResponse<byte[]> rest = SpecClient.upload(http, reportsUri, reports);
        assertEquals(200, rest.statusCode());
        assertEquals(0, rest.body().length, "a repeated report is accepted again");
        // sealed with the other draft's info strings: the Leader defers decryption and stores it
        SpecClient.Built crossed = SpecClient.report(client, draft.other(), leader, helper, now,
            bucket(0), new byte[0], rnd);
        HttpResponse<byte[]> crossedUpload = SpecClient.upload(http, reportsUri,
            List.of(crossed));
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
        for (SpecClient.Built b : reports) {
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
        List<SpecClient.Built> mixed = SpecClient.refusedReports(client, leader, helper, now,
            now - 25, rnd);
        SpecClient.assertRefused(draft, mixed, SpecClient.upload(http, reportsUri, mixed));
      } finally {
        server.close();
      }
    }
  }

  /** Returns the Leader's row of an uploaded report, checking that it holds the uploaded bytes. */
  private static Report stored(JdbcDatastore store, TaskDefinition task, SpecClient.Built b) {
    byte[] row = store.inTaskTransaction(task.taskId(),
        tx -> tx.clientReports().get(new ReportId(b.id()))).orElseThrow().toByteArray();
    assertArrayEquals(b.encoded(), row, "the row is the uploaded Report");
    return Report.decode(row);
  }
}
