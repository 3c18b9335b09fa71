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
import org.bouncycastle.crypto.AsymmetricCipherKeyPair;
import org.bouncycastle.crypto.InvalidCipherTextException;
import org.bouncycastle.crypto.hpke.HPKE;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.datastore.BatchIdentifier;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import org.priodp.aggregator.task.DpBinding;
import org.priodp.aggregator.testing.Fixture;
import org.priodp.aggregator.testing.SpecTls;
import org.priodp.vdaf.dp.SensitivityRule;

/**
 * A Collector (and the Leader's request) written in this test from DAP-18's struct definitions
 * alone, with its own TLS-presentation encoder and Bouncy Castle's HPKE, never the project's DAP
 * codec: it sends an AggregateShareReq ("Obtaining Aggregate Shares"), decodes the AggregateShare,
 * builds AggregateShareAad over the TaskConfiguration it was provisioned with ("Task
 * Configuration", "Task Extensions", "VDAF Configuration Encodings": Prio3Histogram is
 * {uint32 length; uint32 chunk_length}) and opens the share with info "dap-19 aggregate share" ||
 * 0x03 || 0x00 ("Aggregate Share Encryption"). A task without the DP-binding extension is plain
 * DAP-18 and opens; with the extension on, a Collector that omits it fails to open, and one that
 * lists it (as opaque extension bytes) opens.
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

  /** TaskConfiguration as the Collector was provisioned with it. */
  private static byte[] taskConfiguration(long timePrecision, long minBatchSize,
      byte[] extensions) {
    byte[] vdafConfig = new SpecTls().u32(8).u32(2).bytes(); // Prio3HistogramConfig
    return new SpecTls().opaque8("fixture".getBytes(StandardCharsets.US_ASCII))
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
  private record Ciphertext(int configId, byte[] enc, byte[] payload) {
    static Ciphertext decode(byte[] b) {
      ByteBuffer r = ByteBuffer.wrap(b);
      int id = r.get() & 0xff;
      byte[] enc = new byte[r.getShort() & 0xffff];
      r.get(enc);
      byte[] payload = new byte[r.getInt()];
      r.get(payload);
      assertEquals(0, r.remaining(), "nothing after the AggregateShare");
      return new Ciphertext(id, enc, payload);
    }
  }

  private static byte[] open(Fixture f, Ciphertext ct, byte[] aad)
      throws InvalidCipherTextException {
    HPKE hpke = new HPKE(HPKE.mode_base, HPKE.kem_X25519_SHA256, HPKE.kdf_HKDF_SHA256,
        HPKE.aead_AES_GCM128);
    AsymmetricCipherKeyPair sk = hpke.deserializePrivateKey(f.collectorKey.secretKey(),
        f.collectorKey.publicKey());
    byte[] info = new SpecTls().raw("dap-19 aggregate share".getBytes(StandardCharsets.US_ASCII))
        .u8(3).u8(0).bytes(); // server_role helper, recipient collector
    return hpke.open(ct.enc(), sk, info, aad, ct.payload(), null, null, null);
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

  @Test
  void aSpecOnlyCollectorOpensSharesOfTasksWithoutTheBindingAndOnlyWithItWhenOn()
      throws Exception {
    Fixture plain = Fixture.laplace(40);
    Fixture bound = Fixture.laplaceBound(41);
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("i.db"))) {
      plain.writeBuckets(store, 3);
      bound.writeBuckets(store, 3);
      Aggregator server = Aggregator.start(
          AggregatorConfig.builder(List.of(plain.task, bound.task), store).build());
      int port = server.port();
      try {
        // buckets 0..2 are DAP-18 times 10, 11, 12 (time_precision 100 s)
        byte[] cjr = collectionJobReq(10, 3);
        byte[] plainShare = post(port, plain, aggregateShareReq(10, 3, 60, Fixture.checksum(0, 3)));
        Ciphertext ct = Ciphertext.decode(plainShare);
        assertEquals(7, ct.configId());
        byte[] specConfig = taskConfiguration(100, 10, new byte[0]);
        byte[] opened = open(plain, ct, aad(plain.taskId.bytes(), specConfig, cjr));
        assertArrayEquals(store.inTaskTransaction(plain.taskId,
            tx -> tx.releases().noisedShare(BatchIdentifier.of(new SpecTls()
                .u8(TIME_INTERVAL).opaque16(interval(10, 3)).bytes()))).orElseThrow()
            .noisedShare().toByteArray(), opened);
        assertEquals(8 * 16, opened.length, "eight Field128 elements");

        byte[] boundShare = post(port, bound, aggregateShareReq(10, 3, 60, Fixture.checksum(0, 3)));
        Ciphertext bct = Ciphertext.decode(boundShare);
        assertThrows(InvalidCipherTextException.class, () -> open(bound, bct,
            aad(bound.taskId.bytes(), specConfig, cjr)),
            "a Collector that omits the DP-binding extension cannot open");
        byte[] binding = extension(DpBinding.EXTENSION_TYPE, DpBinding.digest(bound.variant,
            bound.task.dpStrategy(), SensitivityRule.PRIODP));
        byte[] withBinding = taskConfiguration(100, 10, binding);
        assertEquals(8 * 16, open(bound, bct, aad(bound.taskId.bytes(), withBinding, cjr)).length);
      } finally {
        server.close();
      }
    }
  }
}
