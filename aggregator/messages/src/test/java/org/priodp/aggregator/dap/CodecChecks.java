package org.priodp.aggregator.dap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;

/** Shared checks for the DAP-18 codec tests: spec bytes both ways, truncations, mutations. */
final class CodecChecks {
  static final HexFormat HEX = HexFormat.of();

  private CodecChecks() {
  }

  /** Parses hex, ignoring spaces so that literals can be grouped by field. */
  static byte[] hex(String s) {
    return HEX.parseHex(s.replace(" ", ""));
  }

  /** Checks that value encodes to exactly the hand-written bytes and that they decode to value. */
  static <T> void assertSpecBytes(String expectedHex, T value, Function<T, byte[]> encode,
      Function<byte[], T> decode) {
    byte[] expected = hex(expectedHex);
    assertEquals(HEX.formatHex(expected), HEX.formatHex(encode.apply(value)), "encode");
    assertEquals(value, decode.apply(expected), "decode");
  }

  /** Decodes and expects a DapDecodeException of type invalidMessage naming exactly this field. */
  static DapDecodeException assertRejects(Function<byte[], ?> decode, byte[] input, String field) {
    return assertRejects(decode, input, field, DapError.INVALID_MESSAGE);
  }

  /** Decodes and expects a DapDecodeException of the given type naming exactly this field. */
  static DapDecodeException assertRejects(Function<byte[], ?> decode, byte[] input, String field,
      DapError error) {
    DapDecodeException e = assertThrows(DapDecodeException.class, () -> decode.apply(input),
        () -> "expected rejection naming " + field + " for " + HEX.formatHex(input));
    assertEquals(field, e.field(), e.getMessage());
    assertEquals(error, e.error(), e.getMessage());
    return e;
  }

  /**
   * Checks every proper prefix of a valid encoding: prefixes whose length is in {@code valid}
   * (element boundaries of a sequence that runs to the end of the body) must decode to a value that
   * re-encodes to the prefix; all others must be rejected as invalidMessage.
   */
  static <T> void assertEveryTruncation(byte[] enc, Function<byte[], T> decode,
      Function<T, byte[]> encode, Set<Integer> valid) {
    for (int n = 0; n < enc.length; n++) {
      byte[] cut = Arrays.copyOf(enc, n);
      if (valid.contains(n)) {
        assertArrayEquals(cut, encode.apply(decode.apply(cut)), "prefix " + n + " should decode");
      } else {
        int len = n;
        DapDecodeException e = assertThrows(DapDecodeException.class, () -> decode.apply(cut),
            () -> "prefix of " + len + " bytes should be rejected");
        assertEquals(DapError.INVALID_MESSAGE, e.error());
      }
    }
  }

  /** Like {@link #assertEveryTruncation} for messages of fixed structure (no valid proper prefix). */
  static <T> void assertEveryTruncationRejected(byte[] enc, Function<byte[], T> decode) {
    assertEveryTruncation(enc, decode, t -> fail("no prefix should decode"), Set.of());
  }

  /**
   * Mutates, truncates and extends valid encodings with a seeded generator (seed printed; rerun
   * with -Dpriodp.seed=N): every case either decodes to a value that re-encodes to the same bytes
   * or throws DapDecodeException, never any other exception.
   */
  static <T> void fuzz(String name, List<byte[]> bases, Function<byte[], T> decode,
      Function<T, byte[]> encode, int iterations) {
    long seed = Long.getLong("priodp.seed", System.nanoTime());
    System.out.println(name + " mutation seed=" + seed);
    Random rnd = new Random(seed);
    int decoded = 0;
    int rejected = 0;
    for (int i = 0; i < iterations; i++) {
      byte[] m = mutate(bases.get(rnd.nextInt(bases.size())), rnd);
      try {
        T value = decode.apply(m);
        if (!Arrays.equals(m, encode.apply(value))) {
          fail(name + " seed=" + seed + " case " + i + ": decoded but re-encodes differently: "
              + HEX.formatHex(m));
        }
        decoded++;
      } catch (DapDecodeException e) {
        rejected++;
      } catch (RuntimeException | Error e) {
        throw new AssertionError(name + " seed=" + seed + " case " + i + ": " + HEX.formatHex(m), e);
      }
    }
    System.out.println(name + " mutations: decoded=" + decoded + " rejected=" + rejected);
    assertTrue(decoded > 0 && rejected > 0, "both outcomes should occur (seed=" + seed + ")");
  }

  private static byte[] mutate(byte[] base, Random rnd) {
    if (base.length == 0) {
      byte[] e = new byte[1 + rnd.nextInt(8)];
      rnd.nextBytes(e);
      return e;
    }
    byte[] m = base.clone();
    switch (rnd.nextInt(6)) {
      case 0: { // overwrite random bytes
        int flips = 1 + rnd.nextInt(3);
        for (int k = 0; k < flips; k++) {
          m[rnd.nextInt(m.length)] = (byte) rnd.nextInt(256);
        }
        return m;
      }
      case 1: // truncate
        return Arrays.copyOf(m, rnd.nextInt(m.length));
      case 2: { // extend with random bytes
        byte[] e = Arrays.copyOf(m, m.length + 1 + rnd.nextInt(8));
        for (int k = m.length; k < e.length; k++) {
          e[k] = (byte) rnd.nextInt(256);
        }
        return e;
      }
      case 3: // an extreme byte (hits length prefixes and enum codes)
        m[rnd.nextInt(m.length)] = rnd.nextBoolean() ? (byte) 0xff : 0;
        return m;
      case 4: { // flip one bit
        int at = rnd.nextInt(m.length);
        m[at] ^= (byte) (1 << rnd.nextInt(8));
        return m;
      }
      default: { // insert or delete one byte
        int at = rnd.nextInt(m.length);
        if (rnd.nextBoolean()) {
          byte[] d = new byte[m.length - 1];
          System.arraycopy(m, 0, d, 0, at);
          System.arraycopy(m, at + 1, d, at, m.length - at - 1);
          return d;
        }
        byte[] d = new byte[m.length + 1];
        System.arraycopy(m, 0, d, 0, at);
        d[at] = (byte) rnd.nextInt(256);
        System.arraycopy(m, at, d, at + 1, m.length - at);
        return d;
      }
    }
  }
}
