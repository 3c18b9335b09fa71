package org.priodp.aggregator.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.bouncycastle.crypto.InvalidCipherTextException;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.dap.DapVersion;
import org.priodp.aggregator.dap.Role;
import org.priodp.aggregator.dap.TaskConfiguration;
import org.priodp.aggregator.datastore.BatchIdentifier;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import org.priodp.aggregator.task.AuthToken;
import org.priodp.aggregator.task.DpBinding;
import org.priodp.aggregator.testing.Fixture;
import org.priodp.aggregator.testing.SpecCollector;
import org.priodp.aggregator.testing.SpecDraft;
import org.priodp.aggregator.testing.SpecTls;
import org.priodp.vdaf.dp.SensitivityRule;

/**
 * A Collector (and the Leader's request) written in this test from the struct definitions of
 * DAP-18 and DAP-19 alone, with its own TLS-presentation encoder and Bouncy Castle's HPKE, never
 * the project's DAP codec nor its DapVersion: it sends an AggregateShareReq ("Obtaining Aggregate
 * Shares"), decodes the AggregateShare, builds AggregateShareAad over the TaskConfiguration it was
 * provisioned with ("Task Configuration", "Task Extensions", "VDAF Configuration Encodings":
 * Prio3Histogram is {uint32 length; uint32 chunk_length}) and opens the share with its draft's
 * info "dap-NN aggregate share" || 0x03 || 0x00 ("Aggregate Share Encryption"; the tag and the
 * task_info floor from {@link SpecDraft}). One Helper serves the tasks of both drafts side by
 * side, the DAP-19 ones with the empty task_info DAP-19 allows. A share opens with its task's
 * draft's info string and not with the other's; a task without the DP-binding extension opens as
 * plain DAP; with the extension on, a Collector that omits it fails to open, and one that lists
 * it (as opaque extension bytes) opens.
 */
class SpecCollectorInteropTest {
  @TempDir
  Path dir;

  private static final int TIME_INTERVAL = 1;
  private static final int HISTOGRAM = 4;

  /** Interval { Time start; Duration duration; } in time_precision units. */
  private static byte[] interval(long start, long duration) {
    return new SpecTls().u64(start).u64(duration).bytes();
  }

  /** CollectionJobReq { Query query; opaque agg_param<0..2^32-1>; extensions<0..2^16-1>; }. */
  private static byte[] collectionJobReq(long start, long duration) {
    byte[] query = new SpecTls().u8(TIME_INTERVAL).opaque16(interval(start, duration)).bytes();
    return new SpecTls().raw(query).opaque32(new byte[0]).opaque16(new byte[0]).bytes();
  }

  /** AggregateShareReq { CollectionJobReq; BatchSelector; uint64 report_count; checksum[32]; }. */
  private static byte[] aggregateShareReq(long start, long duration, long count, byte[] checksum) {
    byte[] selector = new SpecTls().u8(TIME_INTERVAL).opaque16(interval(start, duration)).bytes();
    return new SpecTls().raw(collectionJobReq(start, duration)).raw(selector).u64(count)
        .raw(checksum).bytes();
  }

  /** The task_info of the draft's tasks: empty where the draft allows it (DAP-19). */
  private static byte[] taskInfo(SpecDraft draft) {
    return draft.taskInfoFloor() == 0 ? new byte[0]
        : "fixture".getBytes(StandardCharsets.US_ASCII);
  }

  /** TaskConfiguration as the Collector of {@code draft} was provisioned with it. */
  private static byte[] taskConfiguration(SpecDraft draft, long timePrecision, long minBatchSize,
      byte[] extensions) {
    byte[] vdafConfig = new SpecTls().u32(8).u32(2).bytes(); // Prio3HistogramConfig
    return new SpecTls().raw(draft.taskInfo(taskInfo(draft)))
        .opaque16("https://leader.example/".getBytes(StandardCharsets.US_ASCII))
        .opaque16("https://helper.example/".getBytes(StandardCharsets.US_ASCII))
        .u64(timePrecision).u64(minBatchSize).u8(TIME_INTERVAL).opaque16(new byte[0])
        .u32(HISTOGRAM).opaque16(vdafConfig).opaque16(extensions).bytes();
  }

  /** TaskExtension { uint16 extension_type; opaque extension_data<0..2^16-1>; }. */
  private static byte[] extension(int type, byte[] data) {
    return new SpecTls().u16(type).opaque16(data).bytes();
  }

  private static byte[] aad(byte[] taskId, byte[] taskConfiguration, byte[] collectionJobReq) {
    return new SpecTls().raw(taskId).raw(taskConfiguration).raw(collectionJobReq).bytes();
  }

  /** Decodes AggregateShare { HpkeCiphertext { config_id; enc<1..2^16-1>; payload<1..2^32-1> } }. */
  private static SpecCollector.Ciphertext decode(byte[] b) {
    ByteBuffer r = ByteBuffer.wrap(b);
    int id = r.get() & 0xff;
    byte[] enc = new byte[r.getShort() & 0xffff];
    r.get(enc);
    byte[] payload = new byte[r.getInt()];
    r.get(payload);
    assertEquals(0, r.remaining(), "nothing after the AggregateShare");
    return new SpecCollector.Ciphertext(id, enc, payload);
  }

  /** Opens the Helper's share with {@code draft}'s info string. */
  private static byte[] open(SpecDraft draft, Fixture f, SpecCollector.Ciphertext ct, byte[] aad)
      throws InvalidCipherTextException {
    return SpecCollector.open(draft, f.collectorKey, SpecCollector.HELPER, ct, aad);
  }

  private static byte[] post(int port, Fixture f, byte[] body) throws Exception {
    HttpResponse<byte[]> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
        "http://127.0.0.1:" + port + "/tasks/" + f.taskId.toBase64Url() + "/aggregate_shares"))
        .timeout(Duration.ofSeconds(30))
        .header("Content-Type", "application/ppm-dap;message=aggregate-share-req")
        .header("Authorization", "Bearer " + Fixture.TOKEN)
        .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
        HttpResponse.BodyHandlers.ofByteArray());
    assertEquals(200, r.statusCode(), new String(r.body(), StandardCharsets.UTF_8));
    assertEquals("application/ppm-dap;message=aggregate-share",
        r.headers().firstValue("Content-Type").orElseThrow());
    return r.body();
  }

  /**
   * The Helper's task of the fixture as provisioned in {@code draft}'s version, with the draft's
   * task_info (the DapVersion only provisions the server; the Collector never consults it).
   */
  private static TaskDefinition provision(Fixture f, SpecDraft draft) {
    TaskConfiguration c = f.task.configuration();
    TaskConfiguration config = new TaskConfiguration(taskInfo(draft),
        c.leaderAggregatorEndpoint(), c.helperAggregatorEndpoint(), c.timePrecision(),
        c.minBatchSize(), c.batchMode(), c.batchConfig().toByteArray(), c.vdafType(),
        c.vdafConfiguration().toByteArray(), c.extensions());
    return new TaskDefinition(f.taskId, Role.HELPER, config, f.variant, f.task.dpStrategy(),
        f.task.sensitivityRule(), f.collectorConfig, AuthToken.of(Fixture.TOKEN))
        .withDapVersion(DapVersion.fromTag(draft.tag()));
  }

  @ParameterizedTest
  @EnumSource(SpecDraft.class)
  void aSpecOnlyCollectorOfEachDraftOpensItsTasksSharesWithItsOwnInfoString(SpecDraft draft)
      throws Exception {
    // each draft's tasks, plain and DP-bound, the same whichever draft runs: one Helper serves
    // all four, the DAP-18 ones first
    Fixture plain = Fixture.laplace(40 + 4 * draft.ordinal());
    Fixture bound = Fixture.laplaceBound(41 + 4 * draft.ordinal());
    Fixture otherPlain = Fixture.laplace(40 + 4 * draft.other().ordinal());
    Fixture otherBound = Fixture.laplaceBound(41 + 4 * draft.other().ordinal());
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("i.db"))) {
      for (Fixture f : List.of(plain, bound, otherPlain, otherBound)) {
        f.writeBuckets(store, 3);
      }
      List<TaskDefinition> mine = List.of(provision(plain, draft), provision(bound, draft));
      List<TaskDefinition> theirs = List.of(provision(otherPlain, draft.other()),
          provision(otherBound, draft.other()));
      List<TaskDefinition> tasks = new java.util.ArrayList<>(draft == SpecDraft.DAP_18 ? mine
          : theirs);
      tasks.addAll(draft == SpecDraft.DAP_18 ? theirs : mine);
      Aggregator server = Aggregator.start(AggregatorConfig.builder(tasks, store).build());
      int port = server.port();
      try {
        // buckets 0..2 are times 10, 11, 12 (time_precision 100 s)
        byte[] cjr = collectionJobReq(10, 3);
        byte[] plainShare = post(port, plain, aggregateShareReq(10, 3, 60, Fixture.checksum(0, 3)));
        SpecCollector.Ciphertext ct = decode(plainShare);
        assertEquals(7, ct.configId());
        byte[] specConfig = taskConfiguration(draft, 100, 10, new byte[0]);
        byte[] plainAad = aad(plain.taskId.bytes(), specConfig, cjr);
        byte[] opened = open(draft, plain, ct, plainAad);
        assertArrayEquals(store.inTaskTransaction(plain.taskId,
            tx -> tx.releases().noisedShare(BatchIdentifier.of(new SpecTls()
                .u8(TIME_INTERVAL).opaque16(interval(10, 3)).bytes()))).orElseThrow()
            .noisedShare().toByteArray(), opened);
        assertEquals(8 * 16, opened.length, "eight Field128 elements");
        assertThrows(InvalidCipherTextException.class,
            () -> open(draft.other(), plain, ct, plainAad),
            "a share of a " + draft.tag() + " task does not open with \"" + draft.other().tag()
                + " aggregate share\"");

        byte[] boundShare = post(port, bound, aggregateShareReq(10, 3, 60, Fixture.checksum(0, 3)));
        SpecCollector.Ciphertext bct = decode(boundShare);
        assertThrows(InvalidCipherTextException.class, () -> open(draft, bound, bct,
            aad(bound.taskId.bytes(), specConfig, cjr)),
            "a Collector that omits the DP-binding extension cannot open");
        byte[] binding = extension(DpBinding.EXTENSION_TYPE, DpBinding.digest(bound.variant,
            bound.task.dpStrategy(), SensitivityRule.PRIODP));
        byte[] withBinding = taskConfiguration(draft, 100, 10, binding);
        assertEquals(8 * 16, open(draft, bound, bct,
            aad(bound.taskId.bytes(), withBinding, cjr)).length);
      } finally {
        server.close();
      }
    }
  }
}
