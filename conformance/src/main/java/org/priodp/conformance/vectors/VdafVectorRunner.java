package org.priodp.conformance.vectors;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.priodp.conformance.internal.Json;
import org.priodp.field.FieldVector;
import org.priodp.vdaf.Prio3;
import org.priodp.vdaf.Prio3Variant;
import org.priodp.vdaf.VdafException;
import org.priodp.vdaf.internal.TestOnlyPrio3;

/**
 * Runs the known-answer tests of a VDAF test vector file (VDAF draft-20, section "Test
 * Vectors"): every operation of {@code operations} in order, each on the messages of the vector,
 * comparing each output with the vector byte for byte. An operation marked {@code success:
 * false} passes when it fails with {@link VdafException}.
 *
 * <p>The VDAF is derived from the file name prefix (Prio3Count, Prio3Sum, Prio3SumVec,
 * Prio3SumVecWithMultiproof, Prio3Histogram, Prio3MultihotCountVec, Prio3HigherDegree), the
 * number of aggregators {@code shares} and the variant's parameters in the file ({@code
 * max_measurement}, {@code length}, {@code chunk_length}, {@code max_weight}; for the multiproof
 * SumVec the optional {@code proofs}, default 3), as {@link Prio3Variant#parse} reads them.
 */
public final class VdafVectorRunner {
  private VdafVectorRunner() {}

  /** One difference between an operation's result and the vector. */
  public record Mismatch(String field, String detail) {}

  /** The result of one operation; it passed when there are no mismatches. */
  public record OperationResult(
      int index, String operation, Integer reportIndex, Integer aggregatorId, List<Mismatch> mismatches) {
    /** Copies the list. */
    public OperationResult {
      mismatches = List.copyOf(mismatches);
    }

    /** Returns true if the operation matched the vector. */
    public boolean passed() {
      return mismatches.isEmpty();
    }

    /** Returns e.g. "operation #3 (verify_init, report 0, aggregator 1)"; indices start at 0. */
    public String describe() {
      StringBuilder b = new StringBuilder("operation #").append(index).append(" (").append(operation);
      if (reportIndex != null) {
        b.append(", report ").append(reportIndex);
      }
      if (aggregatorId != null) {
        b.append(", aggregator ").append(aggregatorId);
      }
      return b.append(')').toString();
    }
  }

  /**
   * The result of one file: an error if it could not be read, parsed or instantiated, else one
   * result per operation.
   */
  public record FileResult(Path file, String error, List<OperationResult> operations) {
    /** Copies the list. */
    public FileResult {
      operations = List.copyOf(operations);
    }

    /** Returns true if the file was run and every operation matched. */
    public boolean passed() {
      return error == null && operations.stream().allMatch(OperationResult::passed);
    }

    /** Returns the one-line reason of the first failure, or empty if the file passed. */
    public String firstFailure() {
      if (error != null) {
        return error;
      }
      for (OperationResult op : operations) {
        if (!op.passed()) {
          Mismatch m = op.mismatches().get(0);
          // Byte mismatches stay short (the hex is in mismatches()); outcome and result
          // mismatches say what happened.
          boolean explain = m.field().equals("success") || m.field().equals("agg_result");
          return op.describe() + ": " + m.field() + " mismatch" + (explain ? " (" + m.detail() + ")" : "");
        }
      }
      return "";
    }
  }

  /** Thrown when the vector itself is malformed. */
  private static final class VectorFormatException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    VectorFormatException(String message) {
      super(message);
    }
  }

  /**
   * Returns the vector files named by the paths: files as given, folders searched recursively
   * for {@code .json} files, sorted.
   */
  public static List<Path> collect(List<Path> paths) throws IOException {
    List<Path> out = new ArrayList<>();
    for (Path p : paths) {
      if (Files.isDirectory(p)) {
        try (Stream<Path> s = Files.walk(p)) {
          out.addAll(
              s.filter(f -> Files.isRegularFile(f) && f.getFileName().toString().endsWith(".json"))
                  .sorted()
                  .collect(Collectors.toList()));
        }
      } else {
        out.add(p);
      }
    }
    return out;
  }

  /** Reads and runs one vector file; never throws. */
  public static FileResult run(Path file) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException | RuntimeException e) {
      return new FileResult(file, "cannot read file: " + e, List.of());
    }
    Path name = file.getFileName();
    return run(file, name == null ? file.toString() : name.toString(), text);
  }

  /**
   * Runs the vector in {@code json}, taking the VDAF from {@code fileName}'s prefix; never
   * throws.
   */
  public static FileResult run(Path file, String fileName, String json) {
    Map<String, Object> doc;
    Prio3 prio3;
    List<Object> ops;
    try {
      Object parsed = Json.parse(json);
      if (!(parsed instanceof Map<?, ?>)) {
        throw new VectorFormatException("top level is not a JSON object");
      }
      doc = castMap(parsed, "document");
      prio3 = instantiate(fileName, doc);
      ops = list(doc, "operations");
    } catch (RuntimeException e) {
      return new FileResult(file, "cannot use vector: " + e.getMessage(), List.of());
    }
    try {
      return new FileResult(file, null, new Session(prio3, doc).runAll(ops));
    } catch (VectorFormatException e) {
      return new FileResult(file, "malformed vector: " + e.getMessage(), List.of());
    } catch (RuntimeException e) {
      return new FileResult(file, "runner error: " + e, List.of());
    }
  }

  /**
   * Builds the VDAF that a vector file describes: the variant named by the file name's prefix,
   * with the parameters of {@link Prio3Variant#parameterNames} that the document holds, parsed
   * by {@link Prio3Variant#parse}.
   */
  static Prio3 instantiate(String fileName, Map<String, Object> doc) {
    int underscore = fileName.indexOf('_');
    String prefix = underscore < 0 ? fileName.replace(".json", "") : fileName.substring(0, underscore);
    int shares = intParam(doc, "shares");
    if (prefix.equals("Prio3HigherDegree")) {
      return TestOnlyPrio3.higherDegree(shares);
    }
    try {
      Map<String, String> parameters = new java.util.LinkedHashMap<>();
      for (String key : Prio3Variant.parameterNames(prefix)) {
        if (doc.containsKey(key)) {
          parameters.put(key, String.valueOf(doc.get(key)));
        }
      }
      return new Prio3(Prio3Variant.parse(prefix, parameters), shares);
    } catch (IllegalArgumentException e) {
      throw new VectorFormatException(
          e.getMessage().startsWith("unknown VDAF") ? e.getMessage() + " (from the file name)"
              : "bad " + prefix + " parameters: " + e.getMessage());
    }
  }

  // ------------------------------------------------------------------ one file's run

  private static final class Session {
    private final Prio3 prio3;
    private final byte[] ctx;
    private final byte[] verifyKey;
    private final List<Object> reports;
    private final Map<String, Object> doc;
    private final Map<Long, Prio3.VerifyState> states = new java.util.HashMap<>();

    Session(Prio3 prio3, Map<String, Object> doc) {
      this.prio3 = prio3;
      this.doc = doc;
      this.ctx = hex(doc.get("ctx"), "ctx");
      this.verifyKey = hex(doc.get("verify_key"), "verify_key");
      this.reports = list(doc, "reports");
    }

    List<OperationResult> runAll(List<Object> ops) {
      List<OperationResult> results = new ArrayList<>();
      for (int i = 0; i < ops.size(); i++) {
        Map<String, Object> op = castMap(ops.get(i), "operations[" + i + "]");
        String name = string(op.get("operation"), "operations[" + i + "].operation");
        Integer report = optInt(op, "report_index");
        Integer agg = optInt(op, "aggregator_id");
        Integer round = optInt(op, "round");
        boolean success = !(op.get("success") instanceof Boolean b) || b;
        List<Mismatch> mismatches = new ArrayList<>();
        RuntimeException failure = null;
        try {
          run(name, report, agg, round == null ? 0 : round, mismatches);
        } catch (VectorFormatException e) {
          throw e;
        } catch (RuntimeException e) {
          failure = e;
        }
        if (success && failure != null) {
          mismatches.add(new Mismatch("success", "expected success, failed: " + failure));
        } else if (!success) {
          if (failure == null) {
            mismatches.clear();
            mismatches.add(new Mismatch("success", "expected failure, the operation succeeded"));
          } else if (!(failure instanceof VdafException)) {
            mismatches.add(
                new Mismatch("success", "failed with " + failure + " instead of VdafException"));
          } else {
            mismatches.clear();
          }
        }
        results.add(new OperationResult(i, name, report, agg, mismatches));
      }
      return results;
    }

    private void run(String name, Integer report, Integer agg, int round, List<Mismatch> out) {
      switch (name) {
        case "shard" -> shard(require(report, "report_index"), out);
        case "verify_init" -> verifyInit(require(report, "report_index"), require(agg, "aggregator_id"), round, out);
        case "verifier_shares_to_message" -> toMessage(require(report, "report_index"), round, out);
        case "verify_next" -> verifyNext(require(report, "report_index"), require(agg, "aggregator_id"), round, out);
        case "aggregate" -> aggregate(require(agg, "aggregator_id"), out);
        case "unshard" -> unshard(out);
        default -> throw new VectorFormatException("unknown operation '" + name + "'");
      }
    }

    private void shard(int r, List<Mismatch> out) {
      Map<String, Object> rep = report(r);
      Prio3.ShardResult result =
          prio3.shard(ctx, measurement(rep.get("measurement")), hex(rep.get("nonce"), "nonce"), hex(rep.get("rand"), "rand"));
      compare(out, "public_share", result.publicShare().encode(), rep.get("public_share"));
      List<Object> expected = list(rep, "input_shares");
      if (expected.size() != result.inputShares().size()) {
        out.add(new Mismatch("input_shares", "count " + result.inputShares().size() + " vs " + expected.size()));
        return;
      }
      for (int j = 0; j < expected.size(); j++) {
        compare(out, "input_shares[" + j + "]", result.inputShares().get(j).encode(), expected.get(j));
      }
    }

    private void verifyInit(int r, int agg, int round, List<Mismatch> out) {
      Map<String, Object> rep = report(r);
      Prio3.PublicShare publicShare = prio3.decodePublicShare(hex(rep.get("public_share"), "public_share"));
      Prio3.InputShare inputShare =
          prio3.decodeInputShare(agg, hex(element(list(rep, "input_shares"), agg, "input_shares"), "input share"));
      Prio3.VerifyInitResult result =
          prio3.verifyInit(verifyKey, ctx, agg, hex(rep.get("nonce"), "nonce"), publicShare, inputShare);
      states.put(key(r, agg), result.state());
      List<Object> rounds = list(rep, "verifier_shares");
      if (round < rounds.size() && rounds.get(round) instanceof List<?> shares && agg < shares.size()) {
        compare(out, "verifier_share", result.verifierShare().encode(), shares.get(agg));
      } else {
        out.add(new Mismatch("verifier_share", "the vector has no verifier share for this aggregator"));
      }
    }

    private void toMessage(int r, int round, List<Mismatch> out) {
      Map<String, Object> rep = report(r);
      List<Object> rounds = list(rep, "verifier_shares");
      List<Object> encoded = castList(element(rounds, round, "verifier_shares"), "verifier_shares[" + round + "]");
      List<Prio3.VerifierShare> shares = new ArrayList<>();
      for (int j = 0; j < encoded.size(); j++) {
        shares.add(prio3.decodeVerifierShare(hex(encoded.get(j), "verifier share")));
      }
      Prio3.VerifierMessage message = prio3.verifierSharesToMessage(ctx, shares);
      List<Object> messages = list(rep, "verifier_messages");
      if (round < messages.size()) {
        compare(out, "verifier_message", message.encode(), messages.get(round));
      } else {
        out.add(new Mismatch("verifier_message", "the vector has no verifier message for round " + round));
      }
    }

    private void verifyNext(int r, int agg, int round, List<Mismatch> out) {
      Map<String, Object> rep = report(r);
      Prio3.VerifyState state = states.get(key(r, agg));
      if (state == null) {
        throw new VectorFormatException("verify_next of report " + r + ", aggregator " + agg + " before verify_init");
      }
      List<Object> messages = list(rep, "verifier_messages");
      Prio3.VerifierMessage message =
          prio3.decodeVerifierMessage(hex(element(messages, round - 1, "verifier_messages"), "verifier message"));
      FieldVector outShare = prio3.verifyNext(state, message);
      List<Object> expected = list(rep, "out_shares");
      if (agg < expected.size()) {
        compare(out, "out_share", outShare.encode(), expected.get(agg));
      } else {
        out.add(new Mismatch("out_share", "the vector has no output share for this aggregator"));
      }
    }

    private void aggregate(int agg, List<Mismatch> out) {
      List<FieldVector> outShares = new ArrayList<>();
      for (int r = 0; r < reports.size(); r++) {
        List<Object> shares = list(report(r), "out_shares");
        outShares.add(prio3.decodeAggregateShare(hex(element(shares, agg, "out_shares"), "out share")));
      }
      FieldVector aggShare = prio3.aggregate(outShares);
      compare(out, "agg_share", aggShare.encode(), element(list(doc, "agg_shares"), agg, "agg_shares"));
    }

    private void unshard(List<Mismatch> out) {
      List<FieldVector> aggShares = new ArrayList<>();
      for (Object o : list(doc, "agg_shares")) {
        aggShares.add(prio3.decodeAggregateShare(hex(o, "agg share")));
      }
      List<BigInteger> result = prio3.unshard(aggShares, reports.size());
      List<BigInteger> expected = measurement(doc.get("agg_result"));
      if (!result.equals(expected)) {
        out.add(new Mismatch("agg_result", "got " + result + ", expected " + expected));
      }
    }

    private Map<String, Object> report(int r) {
      return castMap(element(reports, r, "reports"), "reports[" + r + "]");
    }

    private static long key(int r, int agg) {
      return ((long) r << 32) | agg;
    }
  }

  // ------------------------------------------------------------------ JSON helpers

  private static void compare(List<Mismatch> out, String field, byte[] actual, Object expectedHex) {
    byte[] expected = hex(expectedHex, field);
    if (!Arrays.equals(actual, expected)) {
      out.add(new Mismatch(field, "got " + HexFormat.of().formatHex(actual) + ", expected " + HexFormat.of().formatHex(expected)));
    }
  }

  private static int require(Integer v, String key) {
    if (v == null) {
      throw new VectorFormatException("operation lacks " + key);
    }
    return v;
  }

  /** Converts a JSON measurement or aggregate result to a list of integers (booleans as 0/1). */
  static List<BigInteger> measurement(Object o) {
    List<BigInteger> out = new ArrayList<>();
    if (o instanceof List<?> l) {
      for (Object e : l) {
        out.add(integer(e));
      }
    } else {
      out.add(integer(o));
    }
    return out;
  }

  private static BigInteger integer(Object o) {
    if (o instanceof BigInteger b) {
      return b;
    } else if (o instanceof Boolean b) {
      return b ? BigInteger.ONE : BigInteger.ZERO;
    }
    throw new VectorFormatException("expected an integer or boolean, got " + o);
  }

  private static byte[] hex(Object o, String what) {
    if (!(o instanceof String s)) {
      throw new VectorFormatException(what + " is not a hex string");
    }
    try {
      return HexFormat.of().parseHex(s);
    } catch (IllegalArgumentException e) {
      throw new VectorFormatException(what + " is not valid hex: " + e.getMessage());
    }
  }

  private static Object element(List<Object> l, int i, String what) {
    if (i < 0 || i >= l.size()) {
      throw new VectorFormatException(what + " has no element " + i);
    }
    return l.get(i);
  }

  private static List<Object> list(Map<String, Object> m, String key) {
    return castList(m.get(key), key);
  }

  @SuppressWarnings("unchecked")
  private static List<Object> castList(Object o, String what) {
    if (!(o instanceof List<?>)) {
      throw new VectorFormatException(what + " is missing or not a list");
    }
    return (List<Object>) o;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> castMap(Object o, String what) {
    if (!(o instanceof Map<?, ?>)) {
      throw new VectorFormatException(what + " is not an object");
    }
    return (Map<String, Object>) o;
  }

  private static String string(Object o, String what) {
    if (!(o instanceof String s)) {
      throw new VectorFormatException(what + " is not a string");
    }
    return s;
  }

  private static Integer optInt(Map<String, Object> m, String key) {
    Object o = m.get(key);
    if (o == null) {
      return null;
    }
    if (!(o instanceof BigInteger b) || b.bitLength() > 31) {
      throw new VectorFormatException(key + " is not a small integer");
    }
    return b.intValue();
  }

  private static int intParam(Map<String, Object> doc, String key) {
    Integer v = optInt(doc, key);
    if (v == null) {
      throw new VectorFormatException("parameter " + key + " is missing");
    }
    return v;
  }
}
