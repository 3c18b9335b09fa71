package org.priodp.vdaf.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.bouncycastle.crypto.digests.Kangaroo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * TurboSHAKE128 against the RFC 9861 test vectors, against Bouncy Castle's KangarooTwelve (which
 * is TurboSHAKE128 with D = 0x07 for short inputs), and incremental use against one-shot use.
 */
class TurboShake128Test {
  private static final HexFormat HEX = HexFormat.of();

  /** ptn(n) of RFC 9861: n bytes of the repeating pattern 0x00 .. 0xFA. */
  static byte[] ptn(int n) {
    byte[] m = new byte[n];
    for (int i = 0; i < n; i++) {
      m[i] = (byte) (i % 251);
    }
    return m;
  }

  private static byte[] ff(int n) {
    byte[] m = new byte[n];
    java.util.Arrays.fill(m, (byte) 0xFF);
    return m;
  }

  private static byte[] hex(String s) {
    return HEX.parseHex(s.replace(" ", ""));
  }

  // ------------------------------------------------------------------ RFC 9861 vectors

  static Stream<Arguments> rfc9861() {
    return Stream.of(
        Arguments.of("M = empty, D = 1F, L = 32", new byte[0], 0x1F, 32, 0,
            "1E 41 5F 1C 59 83 AF F2 16 92 17 27 7D 17 BB 53"
                + "8C D9 45 A3 97 DD EC 54 1F 1C E4 1A F2 C1 B7 4C"),
        Arguments.of("M = empty, D = 1F, L = 64", new byte[0], 0x1F, 64, 0,
            "1E 41 5F 1C 59 83 AF F2 16 92 17 27 7D 17 BB 53"
                + "8C D9 45 A3 97 DD EC 54 1F 1C E4 1A F2 C1 B7 4C"
                + "3E 8C CA E2 A4 DA E5 6C 84 A0 4C 23 85 C0 3C 15"
                + "E8 19 3B DF 58 73 73 63 32 16 91 C0 54 62 C8 DF"),
        Arguments.of("M = empty, D = 1F, last 32 of L = 10032", new byte[0], 0x1F, 10032, 32,
            "A3 B9 B0 38 59 00 CE 76 1F 22 AE D5 48 E7 54 DA"
                + "10 A5 24 2D 62 E8 C6 58 E3 F3 A9 23 A7 55 56 07"),
        Arguments.of("M = ptn(17^0), D = 1F, L = 32", ptn(1), 0x1F, 32, 0,
            "55 CE DD 6F 60 AF 7B B2 9A 40 42 AE 83 2E F3 F5"
                + "8D B7 29 9F 89 3E BB 92 47 24 7D 85 69 58 DA A9"),
        Arguments.of("M = ptn(17^1), D = 1F, L = 32", ptn(17), 0x1F, 32, 0,
            "9C 97 D0 36 A3 BA C8 19 DB 70 ED E0 CA 55 4E C6"
                + "E4 C2 A1 A4 FF BF D9 EC 26 9C A6 A1 11 16 12 33"),
        Arguments.of("M = ptn(17^2), D = 1F, L = 32", ptn(17 * 17), 0x1F, 32, 0,
            "96 C7 7C 27 9E 01 26 F7 FC 07 C9 B0 7F 5C DA E1"
                + "E0 BE 60 BD BE 10 62 00 40 E7 5D 72 23 A6 24 D2"),
        Arguments.of("M = ptn(17^3), D = 1F, L = 32", ptn(17 * 17 * 17), 0x1F, 32, 0,
            "D4 97 6E B5 6B CF 11 85 20 58 2B 70 9F 73 E1 D6"
                + "85 3E 00 1F DA F8 0E 1B 13 E0 D0 59 9D 5F B3 72"),
        Arguments.of("M = ptn(17^4), D = 1F, L = 32", ptn(17 * 17 * 17 * 17), 0x1F, 32, 0,
            "DA 67 C7 03 9E 98 BF 53 0C F7 A3 78 30 C6 66 4E"
                + "14 CB AB 7F 54 0F 58 40 3B 1B 82 95 13 18 EE 5C"),
        Arguments.of("M = ptn(17^5), D = 1F, L = 32", ptn(17 * 17 * 17 * 17 * 17), 0x1F, 32, 0,
            "B9 7A 90 6F BF 83 EF 7C 81 25 17 AB F3 B2 D0 AE"
                + "A0 C4 F6 03 18 CE 11 CF 10 39 25 12 7F 59 EE CD"),
        Arguments.of("M = ptn(17^6), D = 1F, L = 32", ptn(17 * 17 * 17 * 17 * 17 * 17), 0x1F,
            32, 0,
            "35 CD 49 4A DE DE D2 F2 52 39 AF 09 A7 B8 EF 0C"
                + "4D 1C A4 FE 2D 1A C3 70 FA 63 21 6F E7 B4 C2 B1"),
        Arguments.of("M = FF FF FF, D = 01, L = 32", ff(3), 0x01, 32, 0,
            "BF 32 3F 94 04 94 E8 8E E1 C5 40 FE 66 0B E8 A0"
                + "C9 3F 43 D1 5E C0 06 99 84 62 FA 99 4E ED 5D AB"),
        Arguments.of("M = FF, D = 06, L = 32", ff(1), 0x06, 32, 0,
            "8E C9 C6 64 65 ED 0D 4A 6C 35 D1 35 06 71 8D 68"
                + "7A 25 CB 05 C7 4C CA 1E 42 50 1A BD 83 87 4A 67"),
        Arguments.of("M = FF FF FF, D = 07, L = 32", ff(3), 0x07, 32, 0,
            "B6 58 57 60 01 CA D9 B1 E5 F3 99 A9 F7 77 23 BB"
                + "A0 54 58 04 2D 68 20 6F 72 52 68 2D BA 36 63 ED"),
        Arguments.of("M = FF^7, D = 0B, L = 32", ff(7), 0x0B, 32, 0,
            "8D EE AA 1A EC 47 CC EE 56 9F 65 9C 21 DF A8 E1"
                + "12 DB 3C EE 37 B1 81 78 B2 AC D8 05 B7 99 CC 37"),
        Arguments.of("M = FF, D = 30, L = 32", ff(1), 0x30, 32, 0,
            "55 31 22 E2 13 5E 36 3C 32 92 BE D2 C6 42 1F A2"
                + "32 BA B0 3D AA 07 C7 D6 63 66 03 28 65 06 32 5B"),
        Arguments.of("M = FF FF FF, D = 7F, L = 32", ff(3), 0x7F, 32, 0,
            "16 27 4C C6 56 D4 4C EF D4 22 39 5D 0F 90 53 BD"
                + "A6 D2 8E 12 2A BA 15 C7 65 E5 AD 0E 6E AF 26 F9"));
  }

  /**
   * RFC 9861 section 5: TurboSHAKE128(M, D, L); when {@code tail > 0} only the last {@code
   * tail} bytes of the output are given.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("rfc9861")
  void rfc9861Vectors(String name, byte[] m, int d, int outputLength, int tail, String expected) {
    byte[] out = TurboShake128.hash(m, d, outputLength);
    byte[] got = tail == 0 ? out : java.util.Arrays.copyOfRange(out, outputLength - tail,
        outputLength);
    assertEquals(HEX.formatHex(hex(expected)), HEX.formatHex(got), name);
  }

  /** RFC 9861 section 5: KT128(M = empty, C = empty, 32), run through Bouncy Castle. */
  @Test
  void bouncyCastleKangarooTwelveMatchesRfc9861() {
    assertEquals(
        "1ac2d450fc3b4205d19da7bfca1b37513c0803577ac7167f06fe2ce1f0ef39e5",
        HEX.formatHex(kangarooTwelve(new byte[0], 32)));
  }

  // ------------------------------------------------------------------ Bouncy Castle oracle

  private static byte[] kangarooTwelve(byte[] m, int outputLength) {
    Kangaroo.KangarooTwelve k12 = new Kangaroo.KangarooTwelve();
    k12.update(m, 0, m.length);
    byte[] out = new byte[outputLength];
    k12.doFinal(out, 0, outputLength);
    return out;
  }

  /** KT128(M, C = empty, L) = TurboSHAKE128(M || 0x00, 0x07, L) when |M| + 1 <= 8192. */
  private static byte[] viaTurboShake(byte[] m, int outputLength) {
    return new TurboShake128(0x07).absorb(m).absorb(new byte[] {0}).squeeze(outputLength);
  }

  private static List<Integer> oracleMessageLengths() {
    List<Integer> lengths = new ArrayList<>();
    for (int n = 0; n <= 600; n++) {
      lengths.add(n);
    }
    for (int k = 4; k <= 48; k++) {
      for (int delta = -9; delta <= 9; delta++) {
        int n = k * TurboShake128.RATE + delta - 1; // S = M || 0x00 is one byte longer
        if (n > 600 && n <= 8191) {
          lengths.add(n);
        }
      }
    }
    for (int n = 8180; n <= 8191; n++) {
      if (!lengths.contains(n)) {
        lengths.add(n);
      }
    }
    return lengths;
  }

  /** Many message lengths, around every multiple of the rate, up to 8191 bytes. */
  @Test
  void matchesBouncyCastleKangarooTwelve() {
    long seed = 20261121L;
    System.out.println("TurboShake128Test.matchesBouncyCastleKangarooTwelve seed = " + seed);
    SplittableRandom rnd = new SplittableRandom(seed);
    int[] outputLengths = {0, 1, 7, 8, 32, 167, 168, 169, 336, 500};
    List<String> failures = new ArrayList<>();
    int checks = 0;
    for (int n : oracleMessageLengths()) {
      byte[] m = new byte[n];
      rnd.nextBytes(m);
      int outputLength = outputLengths[checks % outputLengths.length];
      checks++;
      byte[] expected = kangarooTwelve(m, outputLength);
      byte[] got = viaTurboShake(m, outputLength);
      if (!java.util.Arrays.equals(expected, got)) {
        failures.add("|M| = " + n + ", L = " + outputLength);
      }
    }
    assertEquals(
        0,
        failures.size(),
        "seed " + seed + ": " + failures.size() + " of " + checks
            + " inputs differ from KT128; first ones: "
            + failures.subList(0, Math.min(20, failures.size())));
  }

  /** A long output squeezed through many permutations agrees with Bouncy Castle. */
  @Test
  void longOutputMatchesBouncyCastle() {
    byte[] m = ptn(1000);
    assertArrayEquals(kangarooTwelve(m, 10_000), viaTurboShake(m, 10_000));
  }

  // ------------------------------------------------------------------ incremental use

  /** Absorbing and squeezing in random chunks gives the one-shot result. */
  @Test
  void incrementalAbsorbAndSqueezeMatchOneShot() {
    long seed = 9861L;
    System.out.println("TurboShake128Test.incrementalAbsorbAndSqueezeMatchOneShot seed = " + seed);
    SplittableRandom rnd = new SplittableRandom(seed);
    for (int trial = 0; trial < 300; trial++) {
      int n = rnd.nextInt(1200);
      int outputLength = rnd.nextInt(1200);
      int d = 1 + rnd.nextInt(0x7F);
      byte[] m = new byte[n];
      rnd.nextBytes(m);
      byte[] expected = TurboShake128.hash(m, d, outputLength);

      TurboShake128 t = new TurboShake128(d);
      for (int off = 0; off < n; ) {
        int len = Math.min(n - off, chunk(rnd));
        t.absorb(m, off, len);
        off += len;
      }
      byte[] got = new byte[outputLength + 3];
      for (int off = 1; off < outputLength + 1; ) {
        int len = Math.min(outputLength + 1 - off, chunk(rnd));
        t.squeeze(got, off, len);
        off += len;
      }
      assertArrayEquals(
          expected,
          java.util.Arrays.copyOfRange(got, 1, outputLength + 1),
          "seed " + seed + ", trial " + trial + ", |M| = " + n + ", L = " + outputLength
              + ", D = " + d);
    }
  }

  /**
   * absorbLongs is absorb of the words' little-endian bytes and squeezeLongs is squeeze read
   * little-endian, at every byte alignment and across block boundaries.
   */
  @Test
  void wordAbsorbAndSqueezeMatchTheByteStream() {
    long seed = 0x5157L;
    System.out.println("TurboShake128Test.wordAbsorbAndSqueezeMatchTheByteStream seed = " + seed);
    SplittableRandom rnd = new SplittableRandom(seed);
    for (int trial = 0; trial < 300; trial++) {
      int head = rnd.nextInt(400);
      int words = rnd.nextInt(100);
      int headOut = rnd.nextInt(3) == 0 ? rnd.nextInt(200) : 8 * rnd.nextInt(25);
      int wordsOut = rnd.nextInt(100);
      byte[] prefix = new byte[head];
      rnd.nextBytes(prefix);
      long[] vec = new long[words];
      byte[] vecBytes = new byte[8 * words];
      for (int i = 0; i < words; i++) {
        vec[i] = rnd.nextLong();
        for (int k = 0; k < 8; k++) {
          vecBytes[8 * i + k] = (byte) (vec[i] >>> (8 * k));
        }
      }
      byte[] expected =
          new TurboShake128(1).absorb(prefix).absorb(vecBytes).squeeze(headOut + 8 * wordsOut);

      TurboShake128 t = new TurboShake128(1).absorb(prefix).absorbLongs(vec, 0, words);
      byte[] gotHead = t.squeeze(headOut);
      long[] got = new long[wordsOut + 1];
      t.squeezeLongs(got, 1, wordsOut);
      String where = "seed " + seed + ", trial " + trial;
      assertArrayEquals(java.util.Arrays.copyOf(expected, headOut), gotHead, where);
      for (int i = 0; i < wordsOut; i++) {
        long want = 0;
        for (int k = 7; k >= 0; k--) {
          want = (want << 8) | (expected[headOut + 8 * i + k] & 0xFFL);
        }
        assertEquals(want, got[i + 1], where + ", word " + i);
      }
    }
  }

  private static int chunk(SplittableRandom rnd) {
    return switch (rnd.nextInt(4)) {
      case 0 -> rnd.nextInt(9);
      case 1 -> rnd.nextInt(170);
      case 2 -> 168;
      default -> rnd.nextInt(400);
    };
  }

  /** The domain separation byte changes the output. */
  @Test
  void everyDomainSeparationByteGivesADifferentOutput() {
    java.util.Set<String> outputs = new java.util.HashSet<>();
    for (int d = 0x01; d <= 0x7F; d++) {
      outputs.add(HEX.formatHex(TurboShake128.hash(ptn(10), d, 16)));
    }
    assertEquals(0x7F, outputs.size());
  }

  // ------------------------------------------------------------------ bad arguments

  @Test
  void rejectsDomainSeparationOutsideRange() {
    for (int d : new int[] {0x00, 0x80, 0xFF, -1, 0x100}) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> new TurboShake128(d), "D = " + d);
      assertEquals(
          "TurboSHAKE128 domain separation byte must be in [0x01, 0x7F], got " + d,
          e.getMessage());
    }
  }

  @Test
  void rejectsNegativeOutputLength() {
    assertThrows(IllegalArgumentException.class, () -> new TurboShake128(1).squeeze(-1));
    assertThrows(IllegalArgumentException.class, () -> TurboShake128.hash(new byte[0], 1, -5));
  }

  @Test
  void rejectsAbsorbAfterSqueeze() {
    TurboShake128 t = new TurboShake128(1).absorb(new byte[3]);
    t.squeeze(1);
    assertThrows(IllegalStateException.class, () -> t.absorb(new byte[1]));
  }

  @Test
  void rejectsRangesOutsideTheArray() {
    TurboShake128 t = new TurboShake128(1);
    assertThrows(IndexOutOfBoundsException.class, () -> t.absorb(new byte[4], 2, 3));
    assertThrows(IndexOutOfBoundsException.class, () -> t.absorb(new byte[4], -1, 1));
    assertThrows(IndexOutOfBoundsException.class, () -> t.squeeze(new byte[4], 3, 2));
  }
}
