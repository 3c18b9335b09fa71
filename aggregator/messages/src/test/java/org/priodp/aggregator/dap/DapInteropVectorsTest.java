package org.priodp.aggregator.dap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.ToIntFunction;
import org.junit.jupiter.api.Test;
import org.priodp.aggregator.dap.internal.DapWriter;
import org.priodp.vdaf.Prio3Variant;

/**
 * Runs the DAP messages that five independent implementations (Janus, Daphne, divviup-ts,
 * dap-go, libprio-rs) encode in their own tests ({@code ../shared/vectors/dap-interop/
 * dap-vectors.json}) through this project's codecs. Each vector has an {@code expect} class:
 *
 * <ul>
 *   <li>{@code roundtrip}: the bytes decode, yield every field the source asserts (named as in
 *       the DAP-18 text; VerifyInit, VerifyResp and VerifyContinue payloads also read as VDAF
 *       ping-pong messages), and re-encode to the same bytes;
 *   <li>{@code reject}: decoding throws {@link DapDecodeException}, never another exception;
 *   <li>{@code either}: syntactically valid but refused by DAP-18 at some layer. How this project
 *       handles each one is pinned in {@link #EITHER} with the reason, so a change of behaviour
 *       fails here: accepted vectors must round-trip like {@code roundtrip} ones, refused ones
 *       must be refused in the stated way.
 * </ul>
 *
 * <p>Every mismatch is collected; the test then fails once, listing them all, after printing a
 * summary line per source (pass/fail per expect class).
 */
class DapInteropVectorsTest {
  private static final HexFormat HEX = HexFormat.of();
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  /** How this project handles an {@code either} vector. */
  enum Handling {
    /** Decodes, yields the asserted fields and re-encodes to the same bytes. */
    ACCEPTED,
    /** Refused when decoding: {@link DapDecodeException} of the stated error naming the field. */
    REFUSED_AT_DECODE,
    /**
     * The bytes decode (they sit in a TaskConfiguration), but the VDAF refuses the parameters
     * when a task is built: {@link Prio3Variant#parse} throws IllegalArgumentException.
     */
    REFUSED_BY_VDAF
  }

  /** The pinned handling of one {@code either} vector; {@code error}/{@code field} when refused at decode. */
  record Either(Handling handling, DapError error, String field, String reason) {
    static Either accepted(String reason) {
      return new Either(Handling.ACCEPTED, null, null, reason);
    }

    static Either refused(DapError error, String field, String reason) {
      return new Either(Handling.REFUSED_AT_DECODE, error, field, reason);
    }

    static Either refusedByVdaf(String reason) {
      return new Either(Handling.REFUSED_BY_VDAF, null, null, reason);
    }
  }

  /** Every {@code either} vector of the file, how this project handles it, and why. */
  static final Map<String, Either> EITHER = Map.ofEntries(
      Map.entry("janus/HpkeConfig/5", Either.accepted("16-byte X25519 key (and ChaCha20Poly1305):"
          + " a key of the wrong length for its KEM decodes; the config is merely unusable"
          + " (isSupported() false), so a Client skips it")),
      Map.entry("daphne/HpkeConfig/1", Either.accepted("20-byte X25519 key: decodes, unusable"
          + " (isSupported() false), skipped by a Client")),
      Map.entry("divviup-ts/HpkeConfig/1", Either.accepted("10-byte P-256 key: decodes, unusable"
          + " (isSupported() false), skipped by a Client")),
      Map.entry("divviup-ts/HpkeConfig/2", Either.accepted("10-byte X25519 key with HKDF-SHA384"
          + " and ChaCha20Poly1305: decodes, unusable, skipped by a Client")),
      Map.entry("divviup-ts/HpkeConfigList/1", Either.refused(DapError.INVALID_MESSAGE,
          "hpke_config_list", "two configs with id 255: DAP-18 says Aggregators MUST allocate"
          + " distinct ids, and a ciphertext's config_id could not name one key, so the list is"
          + " not valid")),
      Map.entry("divviup-ts/HpkeConfigList/2", Either.accepted("distinct ids; one config of"
          + " unknown algorithms and one P-256 config with an 8-byte key both decode (and a"
          + " Client, finding neither usable, aborts)")),
      Map.entry("janus/Interval/4", Either.accepted("Interval decodes any two uint64s; an end"
          + " that overflows is refused where intervals are used (Interval.isWellFormed)")),
      Map.entry("janus/ReportError/2", Either.refused(DapError.INVALID_MESSAGE, "code",
          "reserved(0) is not a report error: ReportError.fromCode refuses it")),
      Map.entry("janus/BatchMode/2", Either.refused(DapError.INVALID_MESSAGE, "code",
          "reserved(0) is not a batch mode: BatchMode.fromCode refuses it")),
      Map.entry("janus/CollectionJobReq/5", Either.accepted("collection job extension types are"
          + " kept as code points (in increasing order); the Leader answers"
          + " unsupportedExtension")),
      Map.entry("janus/CollectionJobReq/6", Either.refused(DapError.INVALID_EXTENSION,
          "collection_job_req.extensions[1].extension_type", "types not strictly increasing:"
          + " invalidExtension at decode")),
      Map.entry("janus/TaskConfiguration/2", Either.accepted("task extension reserved(0) is kept"
          + " as a code point; TaskParameters/TaskDefinition refuse unsupported extension types"
          + " when a task is built")),
      Map.entry("janus/TaskConfiguration/4", Either.refused(DapError.INVALID_EXTENSION,
          "task_configuration.extensions[1].extension_type", "task extensions not strictly"
          + " increasing: invalidExtension at decode")),
      Map.entry("janus/TaskConfiguration/5", Either.accepted("unknown task extension 0xBEEF is"
          + " kept as a code point; refused when a task is built")),
      Map.entry("janus/TaskConfiguration/6", Either.refused(DapError.INVALID_MESSAGE,
          "task_configuration.batch_mode", "batch mode 0xFE is not a DAP-18 batch mode; the"
          + " codec holds batch_mode as a closed enum")),
      // TaskExtension's own check names the field "task_interval", not its path in the message
      Map.entry("dap-go/TaskConfiguration/2", Either.refused(DapError.INVALID_EXTENSION,
          "task_interval", "task_interval data must be one 16-byte Interval (DAP-18 \"Task"
          + " Interval Task Extension\"): invalidExtension at decode")),
      Map.entry("janus/VdafConfig/2", Either.refusedByVdaf("Prio3Sum needs 1 <= max_measurement"
          + " < p; 0 gives a 0-bit Sum")),
      Map.entry("janus/VdafConfig/4", Either.refusedByVdaf("Prio3Sum needs max_measurement < p"
          + " (Field64); 2^64 - 1 is not")));

  // ------------------------------------------------------------------ the vector file

  static Path vectorFile() {
    String root = System.getProperty("priodp.root");
    if (root == null) {
      throw new AssertionError("system property priodp.root is not set (surefire sets it to the"
          + " repository root)");
    }
    Path p = Path.of(root).resolve("../shared/vectors/dap-interop/dap-vectors.json").normalize();
    if (!Files.isRegularFile(p)) {
      throw new AssertionError("missing DAP interop vectors: " + p);
    }
    return p;
  }

  static JsonNode readFile() throws IOException {
    return new ObjectMapper().enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
        .readTree(vectorFile().toFile());
  }

  // ------------------------------------------------------------------ codecs under test

  /** One message type: this project's decoder, its encoder, and the decoded fields named as in DAP-18. */
  interface Codec {
    /** Decodes the bytes (the vector's fields are given for the VDAF configuration only). */
    Object decode(byte[] bytes, JsonNode fields);

    byte[] encode(Object value);

    /** Returns the decoded value's fields, named and encoded as the vector file writes them. */
    JsonNode view(Object value);
  }

  private static <T> Codec codec(Function<byte[], T> decode, Function<T, byte[]> encode,
      Function<T, JsonNode> view) {
    return new Codec() {
      @Override
      public Object decode(byte[] bytes, JsonNode fields) {
        return decode.apply(bytes);
      }

      @SuppressWarnings("unchecked")
      @Override
      public byte[] encode(Object value) {
        return encode.apply((T) value);
      }

      @SuppressWarnings("unchecked")
      @Override
      public JsonNode view(Object value) {
        return view.apply((T) value);
      }
    };
  }

  /**
   * A code table such as Role: the hex is one byte per code, the fields map each code to its
   * name. Decoding reads each byte with the enum's {@code fromCode} (field name {@code code}).
   */
  private static <E extends Enum<E>> Codec codeTable(IntFunction<E> fromCode,
      ToIntFunction<E> code) {
    return codec(bytes -> {
      List<E> out = new ArrayList<>();
      for (byte b : bytes) {
        out.add(fromCode.apply(b & 0xff));
      }
      return out;
    }, list -> {
      byte[] b = new byte[list.size()];
      for (int i = 0; i < b.length; i++) {
        b[i] = (byte) code.applyAsInt(list.get(i));
      }
      return b;
    }, list -> {
      ObjectNode codes = JSON.objectNode();
      for (E e : list) {
        codes.put(Integer.toString(code.applyAsInt(e)), e.name().toLowerCase(Locale.ROOT));
      }
      ObjectNode n = JSON.objectNode();
      n.set("codes", codes);
      return n;
    });
  }

  /**
   * {@code VdafType vdaf_type; opaque vdaf_configuration<0..2^16-1>} as laid out in a
   * TaskConfiguration: the bytes are read by TaskConfiguration's own codec (spliced between a
   * fixed prefix and an empty extension list), and the VDAF the source asserts is built as a task
   * file builds it ({@link Prio3Variant#parse}); its encoding must be the bytes, which is how
   * TaskParameters binds a variant to a task configuration (this project has no decoder from
   * vdaf_configuration to a variant, only that comparison).
   */
  record VdafConfig(TaskConfiguration carrier, Prio3Variant variant) {
    /** task_info "f", endpoints "L" and "H", time_precision 1, min_batch_size 1, time_interval, no batch_config. */
    static final byte[] PREFIX = HEX.parseHex("0166" + "00014c" + "000148"
        + "0000000000000001" + "0000000000000001" + "01" + "0000");
    /** No task extensions. */
    static final byte[] SUFFIX = HEX.parseHex("0000");

    static VdafConfig decode(byte[] bytes, JsonNode fields) {
      byte[] spliced = concat(PREFIX, bytes, SUFFIX);
      TaskConfiguration carrier = TaskConfiguration.decode(spliced, DapVersion.DAP_18);
      if (!Arrays.equals(spliced, carrier.encode())) {
        throw new AssertionError("the carrying TaskConfiguration re-encodes differently");
      }
      JsonNode vdaf = fields.path("vdaf");
      Map<String, String> parameters = new LinkedHashMap<>();
      for (Iterator<Map.Entry<String, JsonNode>> it = vdaf.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        if (!e.getKey().equals("name")) {
          parameters.put(e.getKey(), e.getValue().bigIntegerValue().toString());
        }
      }
      return new VdafConfig(carrier, Prio3Variant.parse(vdaf.path("name").asText(), parameters));
    }

    /** The variant's own encoding: uint32 algorithm id, then vdafConfiguration() with a 2-byte length. */
    byte[] encode() {
      return new DapWriter().u32(variant.algorithmId())
          .vector(2, 0, 0xffff, variant.vdafConfiguration()).toByteArray();
    }

    JsonNode view() {
      ObjectNode n = JSON.objectNode();
      n.put("vdaf_type", carrier.vdafType());
      n.put("vdaf_configuration", carrier.vdafConfiguration().toHex());
      return n;
    }
  }

  static final Map<String, Codec> CODECS = codecs();

  private static Map<String, Codec> codecs() {
    Map<String, Codec> m = new TreeMap<>();
    m.put("HpkeCiphertext", codec(HpkeCiphertext::decode, HpkeCiphertext::encode,
        DapInteropVectorsTest::view));
    m.put("HpkeConfig", codec(HpkeConfig::decode, HpkeConfig::encode,
        DapInteropVectorsTest::view));
    m.put("HpkeConfigList", codec(HpkeConfigList::decode, HpkeConfigList::encode, l -> {
      ObjectNode n = JSON.objectNode();
      n.set("configs", array(l.configs(), DapInteropVectorsTest::view));
      return n;
    }));
    m.put("Role", codeTable(c -> Role.fromCode(c, "code"), Role::code));
    m.put("ReportError", codeTable(c -> DapVersion.DAP_18.reportError(c, "code"),
        DapVersion.DAP_18::code));
    m.put("BatchMode", codeTable(c -> BatchMode.fromCode(c, "code"), BatchMode::code));
    m.put("TaskID", codec(TaskId::decode, TaskId::encode, t -> value(t.value())));
    m.put("ReportID", codec(ReportId::decode, ReportId::encode, r -> value(r.value())));
    m.put("BatchID", codec(BatchId::decode, BatchId::encode, b -> value(b.value())));
    m.put("Interval", codec(Interval::decode, Interval::encode, DapInteropVectorsTest::view));
    m.put("ReportMetadata", codec(ReportMetadata::decode, ReportMetadata::encode,
        DapInteropVectorsTest::view));
    m.put("PlaintextInputShare", codec(PlaintextInputShare::decode, PlaintextInputShare::encode,
        p -> {
          ObjectNode n = JSON.objectNode();
          n.set("private_extensions", array(p.privateExtensions(), DapInteropVectorsTest::view));
          n.put("payload", p.payload().toHex());
          return n;
        }));
    m.put("Report", codec(Report::decode, Report::encode, DapInteropVectorsTest::view));
    m.put("UploadRequest", codec(UploadRequest::decode, UploadRequest::encode, u -> {
      ObjectNode n = JSON.objectNode();
      n.set("reports", array(u.reports(), DapInteropVectorsTest::view));
      return n;
    }));
    m.put("UploadErrors", codec(b -> UploadErrors.decode(b, DapVersion.DAP_18), x -> x.encode(DapVersion.DAP_18), u -> {
      ObjectNode n = JSON.objectNode();
      n.set("status", array(u.status(), s -> {
        ObjectNode e = JSON.objectNode();
        e.put("id", s.id().value().toHex());
        e.put("error", DapVersion.DAP_18.code(s.error()));
        return e;
      }));
      return n;
    }));
    m.put("ReportShare", codec(ReportShare::decode, ReportShare::encode,
        DapInteropVectorsTest::view));
    m.put("InputShareAad", codec(b -> InputShareAad.decode(b, DapVersion.DAP_18), InputShareAad::encode, a -> {
      ObjectNode n = JSON.objectNode();
      n.put("task_id", a.taskId().value().toHex());
      n.set("task_configuration", view(a.taskConfiguration()));
      n.set("report_metadata", view(a.reportMetadata()));
      n.put("public_share", a.publicShare().toHex());
      return n;
    }));
    m.put("VerifyInit", codec(VerifyInit::decode, VerifyInit::encode,
        DapInteropVectorsTest::view));
    m.put("VerifyResp", codec(b -> VerifyResp.decode(b, DapVersion.DAP_18), x -> x.encode(DapVersion.DAP_18),
        DapInteropVectorsTest::view));
    m.put("VerifyContinue", codec(VerifyContinue::decode, VerifyContinue::encode, v -> {
      ObjectNode n = JSON.objectNode();
      n.put("report_id", v.reportId().value().toHex());
      putPayload(n, v.payload());
      return n;
    }));
    m.put("AggregationJobInitReq", codec(AggregationJobInitReq::decode,
        AggregationJobInitReq::encode, a -> {
          ObjectNode n = JSON.objectNode();
          n.put("verification_key_id", a.verificationKeyId());
          n.put("agg_param", a.aggParam().toHex());
          n.set("extensions", array(a.extensions(), DapInteropVectorsTest::view));
          n.set("verify_inits", array(a.verifyInits(), DapInteropVectorsTest::view));
          return n;
        }));
    m.put("AggregationJobResp", codec(b -> AggregationJobResp.decode(b, DapVersion.DAP_18), x -> x.encode(DapVersion.DAP_18),
        a -> {
          ObjectNode n = JSON.objectNode();
          n.set("verify_resps", array(a.verifyResps(), DapInteropVectorsTest::view));
          return n;
        }));
    m.put("PingPongMessage", codec(PingPongMessage::decode, PingPongMessage::encode,
        DapInteropVectorsTest::view));
    m.put("Query", codec(Query::decode, Query::encode, DapInteropVectorsTest::view));
    m.put("BatchSelector", codec(BatchSelector::decode, BatchSelector::encode,
        DapInteropVectorsTest::view));
    m.put("CollectionJobReq", codec(CollectionJobReq::decode, CollectionJobReq::encode,
        DapInteropVectorsTest::view));
    m.put("CollectionJobResp", codec(CollectionJobResp::decode, CollectionJobResp::encode, c -> {
      ObjectNode n = JSON.objectNode();
      n.put("report_count", u64(c.reportCount()));
      n.set("interval", view(c.interval()));
      n.set("leader_encrypted_agg_share", view(c.leaderEncryptedAggShare()));
      n.set("helper_encrypted_agg_share", view(c.helperEncryptedAggShare()));
      return n;
    }));
    m.put("AggregateShareReq", codec(AggregateShareReq::decode, AggregateShareReq::encode, a -> {
      ObjectNode n = JSON.objectNode();
      n.set("collection_job_req", view(a.collectionJobReq()));
      n.set("batch_selector", view(a.batchSelector()));
      n.put("report_count", u64(a.reportCount()));
      n.put("checksum", a.checksum().toHex());
      return n;
    }));
    m.put("AggregateShare", codec(AggregateShare::decode, AggregateShare::encode, a -> {
      ObjectNode n = JSON.objectNode();
      n.set("encrypted_aggregate_share", view(a.encryptedAggregateShare()));
      return n;
    }));
    m.put("AggregateShareAad", codec(b -> AggregateShareAad.decode(b, DapVersion.DAP_18), AggregateShareAad::encode, a -> {
      ObjectNode n = JSON.objectNode();
      n.put("task_id", a.taskId().value().toHex());
      n.set("task_configuration", view(a.taskConfiguration()));
      n.set("collection_job_req", view(a.collectionJobReq()));
      return n;
    }));
    m.put("TaskConfiguration", codec(b -> TaskConfiguration.decode(b, DapVersion.DAP_18), TaskConfiguration::encode,
        DapInteropVectorsTest::view));
    m.put("VdafConfig", new Codec() {
      @Override
      public Object decode(byte[] bytes, JsonNode fields) {
        return VdafConfig.decode(bytes, fields);
      }

      @Override
      public byte[] encode(Object value) {
        return ((VdafConfig) value).encode();
      }

      @Override
      public JsonNode view(Object value) {
        return ((VdafConfig) value).view();
      }
    });
    return m;
  }

  /**
   * Fields the vector file asserts that a type's view does not carry because they are checked
   * another way: a VdafConfig's {@code vdaf} is what its encoding is compared against.
   */
  static final Map<String, Set<String>> CHECKED_BY_ENCODING = Map.of("VdafConfig", Set.of("vdaf"));

  // ------------------------------------------------------------------ views (DAP-18 field names)

  private static BigInteger u64(long v) {
    return new BigInteger(Long.toUnsignedString(v));
  }

  private static <T> ArrayNode array(List<T> items, Function<T, JsonNode> view) {
    ArrayNode a = JSON.arrayNode();
    for (T t : items) {
      a.add(view.apply(t));
    }
    return a;
  }

  private static JsonNode value(ByteString b) {
    ObjectNode n = JSON.objectNode();
    n.put("value", b.toHex());
    return n;
  }

  private static JsonNode view(HpkeCiphertext c) {
    ObjectNode n = JSON.objectNode();
    n.put("config_id", c.configId().value());
    n.put("enc", c.enc().toHex());
    n.put("payload", c.payload().toHex());
    return n;
  }

  private static JsonNode view(HpkeConfig c) {
    ObjectNode n = JSON.objectNode();
    n.put("id", c.id().value());
    n.put("kem_id", c.kemId());
    n.put("kdf_id", c.kdfId());
    n.put("aead_id", c.aeadId());
    n.put("public_key", c.publicKey().toHex());
    return n;
  }

  private static JsonNode view(Interval i) {
    ObjectNode n = JSON.objectNode();
    n.put("start", u64(i.start().value()));
    n.put("duration", u64(i.duration().value()));
    return n;
  }

  private static JsonNode view(Extensions.Entry e) {
    ObjectNode n = JSON.objectNode();
    n.put("extension_type", e.extensionType());
    n.put("extension_data", e.extensionData().toHex());
    return n;
  }

  private static JsonNode view(ReportMetadata m) {
    ObjectNode n = JSON.objectNode();
    n.put("report_id", m.reportId().value().toHex());
    n.put("time", u64(m.time().value()));
    n.set("public_extensions", array(m.publicExtensions(), DapInteropVectorsTest::view));
    return n;
  }

  private static JsonNode view(Report r) {
    ObjectNode n = JSON.objectNode();
    n.set("report_metadata", view(r.reportMetadata()));
    n.put("public_share", r.publicShare().toHex());
    n.set("leader_encrypted_input_share", view(r.leaderEncryptedInputShare()));
    n.set("helper_encrypted_input_share", view(r.helperEncryptedInputShare()));
    return n;
  }

  private static JsonNode view(ReportShare r) {
    ObjectNode n = JSON.objectNode();
    n.set("report_metadata", view(r.reportMetadata()));
    n.put("public_share", r.publicShare().toHex());
    n.set("encrypted_input_share", view(r.encryptedInputShare()));
    return n;
  }

  /**
   * Adds {@code payload} and, read as a VDAF ping-pong message, {@code payload_ping_pong}; a
   * payload that is not one (Daphne's are plain text) gets a note instead, which matches nothing.
   */
  private static void putPayload(ObjectNode n, ByteString payload) {
    n.put("payload", payload.toHex());
    try {
      n.set("payload_ping_pong", view(PingPongMessage.decode(payload.toByteArray())));
    } catch (DapDecodeException e) {
      n.put("payload_ping_pong", "not a ping-pong message: " + e.getMessage());
    }
  }

  private static JsonNode view(VerifyInit v) {
    ObjectNode n = JSON.objectNode();
    n.set("report_share", view(v.reportShare()));
    putPayload(n, v.payload());
    return n;
  }

  private static JsonNode view(VerifyResp v) {
    ObjectNode n = JSON.objectNode();
    n.put("report_id", v.reportId().value().toHex());
    n.put("verify_resp_type", v.type().code());
    if (v.result() instanceof VerifyResp.Continue c) {
      putPayload(n, c.payload());
    } else if (v.result() instanceof VerifyResp.Reject r) {
      n.put("report_error", DapVersion.DAP_18.code(r.reportError()));
    }
    return n;
  }

  private static JsonNode view(PingPongMessage p) {
    ObjectNode n = JSON.objectNode();
    n.put("type", p.type().code());
    if (p instanceof PingPongMessage.Initialize i) {
      n.put("verifier_share", i.verifierShare().toHex());
    } else if (p instanceof PingPongMessage.Continue c) {
      n.put("verifier_message", c.verifierMessage().toHex());
      n.put("verifier_share", c.verifierShare().toHex());
    } else if (p instanceof PingPongMessage.Finish f) {
      n.put("verifier_message", f.verifierMessage().toHex());
    }
    return n;
  }

  private static JsonNode selector(BatchMode mode, byte[] config) {
    ObjectNode n = JSON.objectNode();
    n.put("batch_mode", mode.code());
    n.put("config", HEX.formatHex(config));
    return n;
  }

  private static JsonNode view(Query q) {
    ObjectNode n = (ObjectNode) selector(q.batchMode(), q.config());
    if (q instanceof Query.TimeInterval t) {
      n.set("batch_interval", view(t.batchInterval()));
    }
    return n;
  }

  private static JsonNode view(BatchSelector s) {
    ObjectNode n = (ObjectNode) selector(s.batchMode(), s.config());
    if (s instanceof BatchSelector.TimeInterval t) {
      n.set("batch_interval", view(t.batchInterval()));
    } else if (s instanceof BatchSelector.LeaderSelected l) {
      n.put("batch_id", l.batchId().value().toHex());
    }
    return n;
  }

  private static JsonNode view(CollectionJobReq c) {
    ObjectNode n = JSON.objectNode();
    n.set("query", view(c.query()));
    n.put("agg_param", c.aggParam().toHex());
    n.set("extensions", array(c.extensions(), DapInteropVectorsTest::view));
    return n;
  }

  private static JsonNode view(TaskConfiguration t) {
    ObjectNode n = JSON.objectNode();
    n.put("task_info", t.taskInfo().toHex());
    n.put("leader_aggregator_endpoint", t.leaderAggregatorEndpoint());
    n.put("helper_aggregator_endpoint", t.helperAggregatorEndpoint());
    n.put("time_precision", u64(t.timePrecision()));
    n.put("min_batch_size", u64(t.minBatchSize()));
    n.put("batch_mode", t.batchMode().code());
    n.put("batch_config", t.batchConfig().toHex());
    n.put("vdaf_type", t.vdafType());
    n.put("vdaf_configuration", t.vdafConfiguration().toHex());
    n.set("extensions", array(t.extensions(), DapInteropVectorsTest::view));
    return n;
  }

  // ------------------------------------------------------------------ comparison

  /**
   * Compares what a source asserts with what this project decoded: every asserted key must be
   * present and equal (integers by value, strings exactly, arrays element by element); keys the
   * source does not assert are not compared. Adds one line per difference.
   */
  static void compare(String path, JsonNode expected, JsonNode actual, List<String> out) {
    if (actual == null || actual.isMissingNode()) {
      out.add(path + ": asserted " + expected + ", not present in the decoded message");
    } else if (expected.isObject()) {
      if (!actual.isObject()) {
        out.add(path + ": asserted an object, decoded " + actual);
        return;
      }
      for (Iterator<Map.Entry<String, JsonNode>> it = expected.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        compare(path + "." + e.getKey(), e.getValue(), actual.get(e.getKey()), out);
      }
    } else if (expected.isArray()) {
      if (!actual.isArray() || actual.size() != expected.size()) {
        out.add(path + ": asserted " + expected + ", decoded " + actual);
        return;
      }
      for (int i = 0; i < expected.size(); i++) {
        compare(path + "[" + i + "]", expected.get(i), actual.get(i), out);
      }
    } else if (expected.isIntegralNumber()) {
      if (!actual.isIntegralNumber()
          || !expected.bigIntegerValue().equals(actual.bigIntegerValue())) {
        out.add(path + ": asserted " + expected + ", decoded " + actual);
      }
    } else if (!expected.equals(actual)) {
      out.add(path + ": asserted " + expected + ", decoded " + actual);
    }
  }

  /** Decodes, compares the fields and re-encodes; returns the mismatches (empty: pass). */
  static List<String> roundTrip(Codec codec, String type, byte[] bytes, JsonNode fields) {
    List<String> out = new ArrayList<>();
    Object value;
    try {
      value = codec.decode(bytes, fields);
    } catch (RuntimeException | AssertionError e) {
      out.add("refused: " + e);
      return out;
    }
    try {
      byte[] again = codec.encode(value);
      if (!Arrays.equals(bytes, again)) {
        out.add("re-encodes to " + HEX.formatHex(again));
      }
    } catch (RuntimeException e) {
      out.add("re-encoding threw " + e);
    }
    if (!fields.isObject()) {
      out.add("the vector has no fields object");
      return out;
    }
    ObjectNode asserted = ((ObjectNode) fields).deepCopy();
    asserted.remove(CHECKED_BY_ENCODING.getOrDefault(type, Set.of()));
    compare("fields", asserted, codec.view(value), out);
    return out;
  }

  /**
   * Decodes and expects DapDecodeException (of {@code error} naming {@code field}, when given);
   * returns the mismatches (empty: pass) and puts the refusal's message in {@code how}.
   */
  static List<String> refusal(Codec codec, byte[] bytes, JsonNode fields, DapError error,
      String field, List<String> how) {
    try {
      Object value = codec.decode(bytes, fields);
      return List.of("accepted, as " + value);
    } catch (DapDecodeException e) {
      how.add(e.error() + " " + e.getMessage());
      List<String> out = new ArrayList<>();
      if (error != null && e.error() != error) {
        out.add("refused as " + e.error() + ", pinned " + error + " (" + e.getMessage() + ")");
      }
      if (field != null && !field.equals(e.field())) {
        out.add("refused naming " + e.field() + ", pinned " + field + " (" + e.getMessage() + ")");
      }
      return out;
    } catch (RuntimeException | AssertionError e) {
      return List.of("refused with " + e + ", not DapDecodeException");
    }
  }

  /** Expects the VDAF to refuse the parameters (IllegalArgumentException from Prio3Variant). */
  static List<String> vdafRefusal(Codec codec, byte[] bytes, JsonNode fields) {
    try {
      Object value = codec.decode(bytes, fields);
      return List.of("accepted, as " + value);
    } catch (DapDecodeException e) {
      return List.of("refused at decode (" + e.getMessage() + "), pinned: refused by the VDAF");
    } catch (IllegalArgumentException e) {
      boolean fromVariant = Arrays.stream(e.getStackTrace())
          .anyMatch(f -> f.getClassName().startsWith(Prio3Variant.class.getName()));
      return fromVariant ? List.of() : List.of("IllegalArgumentException not from Prio3Variant: " + e);
    } catch (RuntimeException | AssertionError e) {
      return List.of("refused with " + e + ", pinned: IllegalArgumentException from Prio3Variant");
    }
  }

  // ------------------------------------------------------------------ the tests

  /** Tallies of one source: pass/fail per expect class, and how its either vectors went. */
  static final class Tally {
    final Map<String, int[]> byExpect = new LinkedHashMap<>();
    int accepted;
    int refused;

    Tally() {
      for (String e : List.of("roundtrip", "reject", "either")) {
        byExpect.put(e, new int[2]);
      }
    }

    void add(String expect, boolean pass) {
      byExpect.computeIfAbsent(expect, k -> new int[2])[pass ? 0 : 1]++;
    }

    String line(String source) {
      StringBuilder b = new StringBuilder(String.format("%-11s", source));
      for (Map.Entry<String, int[]> e : byExpect.entrySet()) {
        int[] c = e.getValue();
        b.append(String.format("  %s %d pass %d fail", e.getKey(), c[0], c[1]));
      }
      return b.append(String.format("  (either: %d accepted, %d refused)", accepted, refused))
          .toString();
    }
  }

  @Test
  void everyVectorIsHandledAsItsExpectClassSays() throws IOException {
    JsonNode file = readFile();
    List<String> failures = new ArrayList<>();
    Map<String, Tally> tallies = new LinkedHashMap<>();
    for (JsonNode s : file.path("sources")) {
      tallies.put(s.path("id").asText(), new Tally());
    }
    Set<String> seen = new LinkedHashSet<>();
    Set<String> eitherSeen = new LinkedHashSet<>();
    List<String> rejections = new ArrayList<>();
    for (JsonNode v : file.path("vectors")) {
      String id = v.path("id").asText();
      String source = v.path("source").asText();
      String type = v.path("message_type").asText();
      String expect = v.path("expect").asText();
      JsonNode fields = v.path("fields");
      if (!seen.add(id)) {
        failures.add(id + ": duplicate vector id");
      }
      Tally tally = tallies.get(source);
      if (tally == null) {
        failures.add(id + ": source " + source + " is not listed in sources");
        tallies.put(source, tally = new Tally());
      }
      Codec codec = CODECS.get(type);
      List<String> problems;
      List<String> how = new ArrayList<>();
      byte[] bytes = HEX.parseHex(v.path("hex").asText());
      if (codec == null) {
        problems = List.of("no codec for message type " + type);
      } else {
        switch (expect) {
          case "roundtrip" -> problems = roundTrip(codec, type, bytes, fields);
          case "reject" -> problems = refusal(codec, bytes, fields, null, null, how);
          case "either" -> {
            eitherSeen.add(id);
            Either pinned = EITHER.get(id);
            if (pinned == null) {
              problems = List.of("an either vector missing from the EITHER table");
            } else {
              problems = switch (pinned.handling()) {
                case ACCEPTED -> roundTrip(codec, type, bytes, fields);
                case REFUSED_AT_DECODE -> refusal(codec, bytes, fields, pinned.error(),
                    pinned.field(), how);
                case REFUSED_BY_VDAF -> vdafRefusal(codec, bytes, fields);
              };
              if (pinned.handling() == Handling.ACCEPTED) {
                tally.accepted++;
              } else {
                tally.refused++;
              }
            }
          }
          default -> problems = List.of("unknown expect class " + expect);
        }
      }
      tally.add(expect, problems.isEmpty());
      if (expect.equals("reject") && !how.isEmpty()) {
        rejections.add(id + ": " + how.get(0));
      }
      for (String p : problems) {
        failures.add(id + " (" + expect + ", " + type + "): " + p);
      }
    }
    for (String id : EITHER.keySet()) {
      if (!eitherSeen.contains(id)) {
        failures.add(id + ": in the EITHER table but not an either vector of the file");
      }
    }
    System.out.println("DAP interop vectors (" + vectorFile() + "), " + seen.size()
        + " vectors, by source:");
    tallies.forEach((source, t) -> System.out.println("  " + t.line(source)));
    for (String id : eitherSeen) {
      Either e = EITHER.get(id);
      if (e != null) {
        System.out.println("  either " + id + ": "
            + e.handling().name().toLowerCase(Locale.ROOT) + " - " + e.reason());
      }
    }
    rejections.forEach(r -> System.out.println("  reject " + r));
    assertEquals(file.path("vectors").size(), seen.size(), "vectors read");
    assertFalse(seen.isEmpty(), "the file holds vectors");
    if (!failures.isEmpty()) {
      fail(failures.size() + " mismatches:\n  " + String.join("\n  ", failures));
    }
  }

  /**
   * The file reports whether any implementation publishes HPKE-sealed DAP-18 data (a sealed
   * report or aggregate share with known keys) that {@code Hpke} could open. None does at the
   * time of writing (the RFC 9180 vectors are run by HpkeTest); if that changes, this fails so
   * that a test opening the data is added.
   */
  @Test
  void noHpkeSealedTestDataIsPublishedYet() throws IOException {
    JsonNode hpke = readFile().path("hpke_sealed_test_data");
    assertTrue(hpke.isObject(), "hpke_sealed_test_data is present");
    System.out.println("hpke_sealed_test_data: found=" + hpke.path("found") + ": "
        + hpke.path("summary").asText());
    assertFalse(hpke.path("found").asBoolean(true),
        "hpke_sealed_test_data now has data: add a test that opens it with Hpke");
  }

  /**
   * Every HPKE config in the file that decodes (roundtrip vectors and accepted either vectors)
   * names an unknown or unimplemented algorithm or has a key of the wrong length: a Client would
   * skip each one, and {@link HpkeConfig#unsupportedReason()} says why.
   */
  @Test
  void noHpkeConfigOfTheVectorsIsUsableAndEachSaysWhy() throws IOException {
    List<String> failures = new ArrayList<>();
    int checked = 0;
    for (JsonNode v : readFile().path("vectors")) {
      String id = v.path("id").asText();
      String type = v.path("message_type").asText();
      Either e = EITHER.get(id);
      boolean decodes = v.path("expect").asText().equals("roundtrip")
          || (e != null && e.handling() == Handling.ACCEPTED);
      if (!decodes || !(type.equals("HpkeConfig") || type.equals("HpkeConfigList"))) {
        continue;
      }
      byte[] bytes = HEX.parseHex(v.path("hex").asText());
      List<HpkeConfig> configs = type.equals("HpkeConfig")
          ? List.of(HpkeConfig.decode(bytes)) : HpkeConfigList.decode(bytes).configs();
      for (HpkeConfig c : configs) {
        checked++;
        if (c.isSupported() || c.unsupportedReason().isEmpty()) {
          failures.add(id + ": config " + c.id().value() + " is usable: " + c);
        } else {
          System.out.println("  " + id + " config " + c.id().value() + " unusable: "
              + c.unsupportedReason().get());
        }
      }
    }
    assertEquals(7, checked, "HPKE configs that decode: daphne/HpkeConfig/1 and /2, "
        + "janus/HpkeConfig/5, divviup-ts/HpkeConfig/1 and /2, two in divviup-ts/HpkeConfigList/2");
    if (!failures.isEmpty()) {
      fail(String.join("\n", failures));
    }
  }

  /**
   * The harness itself can fail: a changed value (also above 2^63), an asserted key the decoded
   * message lacks, a list of another length and a wrong encoding are each reported.
   */
  @Test
  void theHarnessReportsEveryDifference() throws IOException {
    Map<String, JsonNode> byId = new LinkedHashMap<>();
    for (JsonNode v : readFile().path("vectors")) {
      byId.put(v.path("id").asText(), v);
    }
    JsonNode report = byId.get("janus/Report/2");
    byte[] bytes = HEX.parseHex(report.path("hex").asText());
    ObjectNode fields = ((ObjectNode) report.path("fields")).deepCopy();
    assertEquals(List.of(), roundTrip(CODECS.get("Report"), "Report", bytes, fields));
    ((ObjectNode) fields.path("report_metadata")).put("time", 54322);
    ((ObjectNode) fields.path("report_metadata")).put("no_such_field", "00");
    ((ArrayNode) fields.path("report_metadata").path("public_extensions")).add(JSON.objectNode());
    ((ObjectNode) fields.path("helper_encrypted_input_share")).put("enc", "61626366");
    List<String> found = roundTrip(CODECS.get("Report"), "Report", bytes, fields);
    assertEquals(4, found.size(), found.toString());
    assertTrue(found.get(0).startsWith("fields.report_metadata.time: asserted 54322"), found.get(0));
    assertTrue(found.get(1).startsWith("fields.report_metadata.public_extensions: asserted"),
        found.get(1));
    assertTrue(found.get(2).startsWith("fields.report_metadata.no_such_field: asserted \"00\","
        + " not present"), found.get(2));
    assertTrue(found.get(3).startsWith("fields.helper_encrypted_input_share.enc"), found.get(3));

    JsonNode interval = byId.get("janus/Interval/1");
    ObjectNode big = ((ObjectNode) interval.path("fields")).deepCopy();
    big.put("duration", new BigInteger("18446744073709551614"));
    assertEquals(List.of("fields.duration: asserted 18446744073709551614, decoded"
        + " 18446744073709551615"), roundTrip(CODECS.get("Interval"), "Interval",
        HEX.parseHex(interval.path("hex").asText()), big));

    // bytes that decode but are not the asserted encoding: Interval/2's fields, Interval/1's bytes
    List<String> wrong = roundTrip(CODECS.get("Interval"), "Interval",
        HEX.parseHex(interval.path("hex").asText()), byId.get("janus/Interval/2").path("fields"));
    assertEquals(2, wrong.size(), wrong.toString());
    assertEquals(List.of("accepted, as " + Interval.of(0, -1)), refusal(CODECS.get("Interval"),
        HEX.parseHex(interval.path("hex").asText()), big, null, null, new ArrayList<>()));
  }

  private static byte[] concat(byte[]... parts) {
    int n = 0;
    for (byte[] p : parts) {
      n += p.length;
    }
    byte[] out = new byte[n];
    int at = 0;
    for (byte[] p : parts) {
      System.arraycopy(p, 0, out, at, p.length);
      at += p.length;
    }
    return out;
  }
}
