package org.priodp.aggregator.testing;

import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.bouncycastle.crypto.hpke.HPKE;
import org.bouncycastle.crypto.params.AsymmetricKeyParameter;
import org.priodp.vdaf.Prio3;
import org.priodp.vdaf.Prio3Variant;

/**
 * A DAP Client written from the drafts' structs alone ("HPKE Configuration Request", "Upload
 * Request", "Client Behavior", "Task Configuration"), with its own TLS-presentation encoder
 * ({@link SpecTls}), its own decoders of HpkeConfigList and UploadErrors and Bouncy Castle's HPKE,
 * never the project's DAP codec nor its DapVersion: the version tag and the task_info floor come
 * from the {@link SpecDraft} it was provisioned with. It shards with the project's Prio3.
 */
public final class SpecClient {
  private SpecClient() {
  }

  /**
   * What a Client of a time-interval task is provisioned with: the draft, the task ID, task_info,
   * both endpoints, time_precision (seconds), min_batch_size, the VDAF as the draft's "VDAF
   * Configuration Encodings" write it (vdaf_type and vdaf_configuration, matching {@code variant})
   * and the encoded task extensions.
   */
  public record Task(SpecDraft draft, byte[] taskId, byte[] taskInfo, String leader,
      String helper, long timePrecision, long minBatchSize, Prio3Variant variant, long vdafType,
      byte[] vdafConfiguration, byte[] extensions) {
    /** TaskConfiguration, encoded from the draft's struct (task_info within its floor). */
    public byte[] configuration() {
      return new SpecTls().raw(draft.taskInfo(taskInfo))
          .opaque16(leader.getBytes(StandardCharsets.US_ASCII))
          .opaque16(helper.getBytes(StandardCharsets.US_ASCII))
          .u64(timePrecision).u64(minBatchSize).u8(1).opaque16(new byte[0]) // time_interval
          .u32(vdafType).opaque16(vdafConfiguration).opaque16(extensions).bytes();
    }

    /** Returns {@code "{leader}tasks/{task-id}/reports"} resolved against {@code base}. */
    public URI reportsUri(String base) {
      return URI.create(base + "tasks/" + java.util.Base64.getUrlEncoder().withoutPadding()
          .encodeToString(taskId) + "/reports");
    }
  }

  /** TaskExtension task_interval(1) { Time start; Duration duration; } in time_precision units. */
  public static byte[] taskIntervalExtension(long start, long duration) {
    return new SpecTls().u16(1).opaque16(new SpecTls().u64(start).u64(duration).bytes()).bytes();
  }

  /** One HpkeConfig the Client read. */
  public record Advertised(int id, int kem, int kdf, int aead, byte[] publicKey) {}

  /** Parses HpkeConfigList: {@code HpkeConfig HpkeConfigList<10..2^16-1>}. */
  public static List<Advertised> parseConfigList(byte[] body) {
    ByteBuffer b = ByteBuffer.wrap(body);
    int length = b.getShort() & 0xffff;
    if (length != body.length - 2) {
      throw new IllegalArgumentException("HpkeConfigList length " + length + " of a "
          + body.length + "-byte body");
    }
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

  /**
   * GETs an aggregator's hpke_config and returns the first X25519/HKDF-SHA256/AES-128-GCM config;
   * throws IllegalStateException naming the status or the absence of one.
   */
  public static Advertised fetchConfig(HttpClient http, URI hpkeConfig) throws Exception {
    HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(hpkeConfig)
        .timeout(Duration.ofSeconds(30)).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
    if (r.statusCode() != 200 || !"application/ppm-dap;message=hpke-config-list".equals(
        r.headers().firstValue("Content-Type").orElse(""))) {
      throw new IllegalStateException("hpke_config: HTTP " + r.statusCode() + " "
          + r.headers().firstValue("Content-Type").orElse("(no type)"));
    }
    return parseConfigList(r.body()).stream()
        .filter(c -> c.kem() == 0x20 && c.kdf() == 1 && c.aead() == 1).findFirst()
        .orElseThrow(() -> new IllegalStateException("no supported suite advertised"));
  }

  /**
   * HpkeCiphertext {config_id; enc<1..2^16-1>; payload<1..2^32-1>} from SealBase with {@code
   * draft}'s info {@code "dap-NN input share" || 0x01 || server_role} (2 Leader, 3 Helper).
   */
  public static byte[] seal(SpecDraft draft, Advertised to, int serverRole, byte[] aad,
      byte[] plaintext) throws Exception {
    HPKE hpke = new HPKE(HPKE.mode_base, HPKE.kem_X25519_SHA256, HPKE.kdf_HKDF_SHA256,
        HPKE.aead_AES_GCM128);
    AsymmetricKeyParameter pk = hpke.deserializePublicKey(to.publicKey());
    byte[][] sealed = hpke.seal(pk, draft.inputShareInfo(serverRole), aad, plaintext, null, null,
        null);
    return new SpecTls().u8(to.id()).opaque16(sealed[1]).opaque32(sealed[0]).bytes();
  }

  /** A report as the Client built it: its ID, its measurement and its encoding. */
  public record Built(byte[] id, List<BigInteger> measurement, byte[] encoded) {}

  /** Builds the report of one measurement as a Client of the task's draft. */
  public static Built report(Task t, Advertised leader, Advertised helper, long time,
      List<BigInteger> measurement, Random rnd) throws Exception {
    return report(t, t.draft(), leader, helper, time, measurement, new byte[0], rnd);
  }

  /**
   * Builds a report: shards under {@code sealAs}'s VDAF context {@code "dap-NN" || task_id} with
   * the report ID as nonce, and seals both PlaintextInputShares (no private extensions) with its
   * info strings and the InputShareAad; {@code publicExtensions} is the encoded Extension list of
   * the ReportMetadata. {@code sealAs} is the task's draft, or the other one to check that an
   * aggregator of the task's version refuses it.
   */
  public static Built report(Task t, SpecDraft sealAs, Advertised leader, Advertised helper,
      long time, List<BigInteger> measurement, byte[] publicExtensions, Random rnd)
      throws Exception {
    return report(t, sealAs, t.configuration(), leader, helper, time, measurement,
        publicExtensions, rnd);
  }

  /**
   * Builds a report of the task's draft whose InputShareAad holds {@code configuration}, the
   * encoded TaskConfiguration the Client was given (for a batch mode or extensions {@link
   * Task#configuration} does not write).
   */
  public static Built report(Task t, byte[] configuration, Advertised leader, Advertised helper,
      long time, List<BigInteger> measurement, byte[] publicExtensions, Random rnd)
      throws Exception {
    return report(t, t.draft(), configuration, leader, helper, time, measurement,
        publicExtensions, rnd);
  }

  private static Built report(Task t, SpecDraft sealAs, byte[] configuration, Advertised leader,
      Advertised helper, long time, List<BigInteger> measurement, byte[] publicExtensions,
      Random rnd) throws Exception {
    byte[] id = new byte[16];
    rnd.nextBytes(id);
    Prio3 prio3 = new Prio3(t.variant());
    byte[] rand = new byte[prio3.randSize()];
    rnd.nextBytes(rand);
    Prio3.ShardResult shard = prio3.shard(sealAs.vdafContext(t.taskId()), measurement, id, rand);
    byte[] publicShare = shard.publicShare().encode();
    byte[] metadata = new SpecTls().raw(id).u64(time).opaque16(publicExtensions).bytes();
    byte[] aad = new SpecTls().raw(t.taskId()).raw(configuration).raw(metadata)
        .opaque32(publicShare).bytes();
    byte[] leaderPlain = new SpecTls().opaque16(new byte[0])
        .opaque32(shard.inputShares().get(0).encode()).bytes();
    byte[] helperPlain = new SpecTls().opaque16(new byte[0])
        .opaque32(shard.inputShares().get(1).encode()).bytes();
    byte[] encoded = new SpecTls().raw(metadata).opaque32(publicShare)
        .raw(seal(sealAs, leader, 2, aad, leaderPlain))
        .raw(seal(sealAs, helper, 3, aad, helperPlain)).bytes();
    return new Built(id, measurement, encoded);
  }

  /** POSTs an UploadRequest {@code Report reports[message_length]} of the reports. */
  public static HttpResponse<byte[]> upload(HttpClient http, URI reports, List<Built> built)
      throws Exception {
    SpecTls body = new SpecTls();
    for (Built b : built) {
      body.raw(b.encoded());
    }
    return http.send(HttpRequest.newBuilder(reports).timeout(Duration.ofSeconds(30))
        .header("Content-Type", "application/ppm-dap;message=upload-req")
        .POST(HttpRequest.BodyPublishers.ofByteArray(body.bytes())).build(),
        HttpResponse.BodyHandlers.ofByteArray());
  }

  /** One {@code ReportUploadStatus { ReportID id; ReportError error; }}. */
  public record Status(byte[] id, int error) {}

  /** Decodes UploadErrors {@code ReportUploadStatus status[message_length]}. */
  public static List<Status> uploadErrors(byte[] body) {
    if (body.length % 17 != 0) {
      throw new IllegalArgumentException("UploadErrors of " + body.length + " bytes");
    }
    ByteBuffer b = ByteBuffer.wrap(body);
    List<Status> out = new ArrayList<>();
    while (b.hasRemaining()) {
      byte[] id = new byte[16];
      b.get(id);
      out.add(new Status(id, b.get() & 0xff));
    }
    return out;
  }

  /** A public report extension type no registry of either draft holds. */
  public static final int UNKNOWN_EXTENSION = 0xfe01;

  /**
   * The report errors each draft's "Leader Behavior" of upload gives, by name, to the reports of
   * {@link #refusedReports} after the first: an unknown HPKE config (outdated_config in DAP-18,
   * hpke_unknown_config_id in DAP-19), a time too early, a time before the task_interval, an
   * unrecognized public extension (DAP-19's unsupported_extension; DAP-18 has no report error for
   * it and lets the Leader abort the whole upload with unsupportedExtension, and prio-dp answers
   * the report with invalid_message) and a repeated extension type (invalid_message in both).
   */
  public static List<String> expectedUploadErrors(SpecDraft draft) {
    return List.of(draft == SpecDraft.DAP_18 ? "outdated_config" : "hpke_unknown_config_id",
        "report_too_early", "report_dropped",
        draft == SpecDraft.DAP_18 ? "invalid_message" : "unsupported_extension",
        "invalid_message");
  }

  /**
   * Builds one report the Leader accepts (time {@code now}) and then one report per error of
   * {@link #expectedUploadErrors}, in that order; {@code beforeInterval} is a time before the
   * task's task_interval, {@code now} two time_precision units or more short of too early.
   */
  public static List<Built> refusedReports(Task t, Advertised leader, Advertised helper,
      long now, long beforeInterval, Random rnd) throws Exception {
    Advertised unknown = new Advertised((leader.id() + 1) % 256, leader.kem(), leader.kdf(),
        leader.aead(), leader.publicKey());
    byte[] unrecognized = new SpecTls().u16(UNKNOWN_EXTENSION).opaque16(new byte[0]).bytes();
    byte[] repeated = new SpecTls().raw(unrecognized).raw(unrecognized).bytes();
    List<BigInteger> m = measurement(t.variant());
    return List.of(report(t, leader, helper, now, m, rnd),
        report(t, unknown, helper, now, m, rnd),
        report(t, leader, helper, now + 2, m, rnd),
        report(t, leader, helper, beforeInterval, m, rnd),
        report(t, t.draft(), leader, helper, now, m, unrecognized, rnd),
        report(t, t.draft(), leader, helper, now, m, repeated, rnd));
  }

  /** A valid measurement of the variant: all zeros (bucket 0 of a histogram). */
  private static List<BigInteger> measurement(Prio3Variant v) {
    int n = v instanceof Prio3Variant.Histogram || v instanceof Prio3Variant.Count
        || v instanceof Prio3Variant.Sum ? 1 : v.outputLength();
    return java.util.Collections.nCopies(n, BigInteger.ZERO);
  }

  /**
   * Checks the answer to an upload of {@link #refusedReports}: UploadErrors listing every report
   * but the first, in order, each with its draft's code point of {@link #expectedUploadErrors}.
   */
  public static void assertRefused(SpecDraft draft, List<Built> sent,
      HttpResponse<byte[]> answer) {
    if (answer.statusCode() != 200 || !"application/ppm-dap;message=upload-errors".equals(
        answer.headers().firstValue("Content-Type").orElse(""))) {
      throw new AssertionError("expected 200 upload-errors, got HTTP " + answer.statusCode()
          + " " + new String(answer.body(), StandardCharsets.UTF_8));
    }
    List<Status> status = uploadErrors(answer.body());
    List<String> expected = expectedUploadErrors(draft);
    if (status.size() != expected.size()) {
      throw new AssertionError(status.size() + " statuses, expected " + expected.size());
    }
    for (int i = 0; i < expected.size(); i++) {
      if (!java.util.Arrays.equals(sent.get(i + 1).id(), status.get(i).id())) {
        throw new AssertionError("status " + i + " names another report");
      }
      int code = status.get(i).error();
      if (code != draft.code(expected.get(i))) {
        throw new AssertionError("status " + i + ": expected " + expected.get(i) + " ("
            + draft.code(expected.get(i)) + ") in " + draft.tag() + ", got " + code + " ("
            + draft.name(code) + ")");
      }
    }
  }
}
