package org.priodp.conformance.vectors;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.priodp.conformance.internal.Json;
import org.priodp.field.Field128;
import org.priodp.field.Field64;
import org.priodp.field.PrimeField;
import org.priodp.vdaf.XofTurboShake128;

/** XofTurboShake128 against the official vector {@code ../shared/vectors/xof/XofTurboShake128.json}. */
class XofVectorTest {
  private static final HexFormat HEX = HexFormat.of();
  private static final String VECTOR = "vectors/xof/XofTurboShake128.json";

  private static String readShared(String relative) {
    String root = System.getProperty("priodp.root");
    if (root == null || root.isEmpty()) {
      fail("system property priodp.root is not set; cannot locate ../shared/" + relative);
    }
    Path p = Path.of(root).resolve("../shared").resolve(relative).normalize();
    if (!Files.isRegularFile(p)) {
      fail("shared test file is missing: " + p);
    }
    try {
      return Files.readString(p);
    } catch (IOException e) {
      throw new AssertionError("cannot read " + p, e);
    }
  }

  /** Every field of vectors/xof/XofTurboShake128.json; all mismatches are reported together. */
  @Test
  void officialVector() {
    @SuppressWarnings("unchecked")
    Map<String, Object> v = (Map<String, Object>) Json.parse(readShared(VECTOR));
    List<String> problems = new ArrayList<>();
    byte[] seed = HEX.parseHex((String) v.get("seed"));
    byte[] dst = HEX.parseHex((String) v.get("dst"));
    byte[] binder = HEX.parseHex((String) v.get("binder"));
    int length = ((BigInteger) v.get("length")).intValueExact();
    int checkedOutputs = 0;

    for (Map.Entry<String, Object> e : v.entrySet()) {
      String key = e.getKey();
      switch (key) {
        case "seed", "dst", "binder", "length" -> {
          // inputs, used above
        }
        case "derived_seed" -> {
          checkedOutputs++;
          String got = HEX.formatHex(XofTurboShake128.deriveSeed(seed, dst, binder));
          if (!got.equals(e.getValue())) {
            problems.add("derived_seed: expected " + e.getValue() + ", got " + got);
          }
        }
        default -> {
          if (!key.startsWith("expanded_vec_")) {
            problems.add("unknown key \"" + key + "\" (not checked)");
            break;
          }
          PrimeField field = fieldNamed(key.substring("expanded_vec_".length()));
          if (field == null) {
            problems.add(key + ": unknown field");
            break;
          }
          checkedOutputs++;
          checkExpandedVec(key, field, (String) e.getValue(), seed, dst, binder, length,
              problems);
        }
      }
    }
    if (checkedOutputs == 0) {
      problems.add("the vector has no output to check");
    }
    assertTrue(problems.isEmpty(),
        VECTOR + ": " + problems.size() + " mismatch(es):\n  " + String.join("\n  ", problems));
  }

  private static PrimeField fieldNamed(String name) {
    return switch (name) {
      case "field64" -> Field64.FIELD;
      case "field128" -> Field128.FIELD;
      default -> null;
    };
  }

  private static void checkExpandedVec(String key, PrimeField field, String expectedHex,
      byte[] seed, byte[] dst, byte[] binder, int length, List<String> problems) {
    int size = field.encodedSize();
    if (expectedHex.length() != 2 * size * length) {
      problems.add(key + ": " + expectedHex.length() / 2 + " bytes, but length " + length
          + " needs " + size * length);
    }
    long[] got = XofTurboShake128.expandIntoVec(field, seed, dst, binder, length);
    byte[] encoded = new byte[size * length];
    field.encode(got, length, encoded, 0);
    String gotHex = HEX.formatHex(encoded);
    for (int i = 0; i < length; i++) {
      int from = 2 * size * i;
      int to = from + 2 * size;
      String want = to <= expectedHex.length() ? expectedHex.substring(from, to) : "(missing)";
      String have = gotHex.substring(from, to);
      if (!want.equals(have)) {
        problems.add(key + "[" + i + "]: expected " + want + ", got " + have);
      }
    }
  }
}
