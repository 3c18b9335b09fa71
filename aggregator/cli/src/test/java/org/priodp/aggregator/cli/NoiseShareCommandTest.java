package org.priodp.aggregator.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.priodp.field.Field128;
import org.priodp.field.FieldVector;
import org.priodp.noise.SeededRandomSource;
import org.priodp.vdaf.Prio3Variant;
import org.priodp.vdaf.dp.DpStrategy;
import org.priodp.vdaf.dp.Prio3DpMechanism;

class NoiseShareCommandTest {
  private static final String[] HISTOGRAM = {"noise-share", "--vdaf", "Prio3Histogram", "--length", "4", "--chunk-length", "2"};
  private static final FieldVector SHARE = FieldVector.fromSigned(Field128.FIELD, 3, -1, 0, 7);

  @TempDir Path dir;

  private static String[] args(String... more) {
    String[] a = java.util.Arrays.copyOf(HISTOGRAM, HISTOGRAM.length + more.length);
    System.arraycopy(more, 0, a, HISTOGRAM.length, more.length);
    return a;
  }

  @Test
  void seededNoiseMatchesTheLibrary() throws IOException {
    Path in = dir.resolve("share.hex");
    Path out = dir.resolve("noised.hex");
    Files.writeString(in, HexFormat.of().formatHex(SHARE.encode()) + "\n");
    CliRun r = CliRun.of(args("--epsilon", "1", "--insecure-seed", "c0ffee", "--in", in.toString(), "--out", out.toString()));
    assertEquals(0, r.code(), r.err());
    assertEquals("", r.out());
    assertEquals("warning: --insecure-seed: noise drawn from a fixed seed is reproducible and gives no privacy;"
        + " for tests only\n", r.err());
    byte[] expected = Prio3DpMechanism.of(new Prio3Variant.Histogram(4, 2), DpStrategy.PureDpDiscreteLaplace.parse("1"))
        .addNoiseToAggShare(SHARE.encode(), SeededRandomSource.fromHex("c0ffee"));
    assertEquals(HexFormat.of().formatHex(expected) + "\n", Files.readString(out));
    assertEquals(0, Files.list(dir).filter(p -> p.toString().endsWith(".tmp")).count(), "no temp file left");

    // to stdout, same seed: same bytes; another seed: different noise
    CliRun again = CliRun.of(args("--epsilon", "1", "--insecure-seed", "c0ffee", "--in", in.toString()));
    assertEquals(Files.readString(out), again.out());
    CliRun other = CliRun.of(args("--epsilon", "1", "--insecure-seed", "c0ffef", "--in", in.toString()));
    assertNotEquals(again.out(), other.out());
    // without a seed: SecureRandom; the output still decodes to 4 elements
    CliRun secure = CliRun.of(args("--rho", "1/2", "--in", in.toString()));
    assertEquals(0, secure.code(), secure.err());
    assertEquals("", secure.err(), "no warning without a seed");
    assertEquals(4, FieldVector.decode(Field128.FIELD, HexFormat.of().parseHex(secure.out().strip())).length());
  }

  @Test
  void hardenedNoiseMatchesTheLibrarysFixedWorkSampler() throws IOException {
    Path in = dir.resolve("share.hex");
    Files.writeString(in, HexFormat.of().formatHex(SHARE.encode()) + "\n");
    CliRun r = CliRun.of(args("--epsilon", "1", "--hardened", "--insecure-seed", "0b", "--in", in.toString()));
    assertEquals(0, r.code(), r.err());
    byte[] expected = Prio3DpMechanism.of(new Prio3Variant.Histogram(4, 2), DpStrategy.PureDpDiscreteLaplace.parse("1"))
        .withHardenedSampler().addNoiseToAggShare(SHARE.encode(), SeededRandomSource.fromHex("0b"));
    assertEquals(HexFormat.of().formatHex(expected) + "\n", r.out());
    CliRun gaussian = CliRun.of(args("--rho", "1", "--hardened", "--insecure-seed", "0c", "--in", in.toString()));
    assertEquals(0, gaussian.code(), gaussian.err());
    byte[] gaussianExpected = Prio3DpMechanism.of(new Prio3Variant.Histogram(4, 2), DpStrategy.ZCdpDiscreteGaussian.parse("1"))
        .withHardenedSampler().addNoiseToAggShare(SHARE.encode(), SeededRandomSource.fromHex("0c"));
    assertEquals(HexFormat.of().formatHex(gaussianExpected) + "\n", gaussian.out());
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
    "abc|aggregate share has an odd number of hex digits (3)",
    "zz|aggregate share has a non-hex character 'z'",
    "|aggregate share is empty",
    "ffffffffffffffffffffffffffffffff000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000|element 0 is not canonical",
    "00000000000000000000000000000000|Prio3Histogram aggregate share (4 Field128 elements): Field128 vector of 4 elements needs 64 bytes, got 16",
  })
  void badSharesWriteNothing(String hex, String message) throws IOException {
    Path in = dir.resolve("bad.hex");
    Files.writeString(in, hex == null ? "" : hex);
    Path out = dir.resolve("out.hex");
    CliRun r = CliRun.of(args("--epsilon", "1", "--in", in.toString(), "--out", out.toString()));
    assertTrue(r.failedWithOneLine(message), r.err());
    assertFalse(Files.exists(out), "--out is not created");
    // an existing --out is left as it was
    Files.writeString(out, "keep");
    CliRun again = CliRun.of(args("--epsilon", "1", "--in", in.toString(), "--out", out.toString()));
    assertEquals(2, again.code());
    assertEquals("keep", Files.readString(out));
    assertEquals(1, Files.list(dir).filter(p -> !p.equals(in)).count(), "no temp file left");
  }

  @Test
  void badParametersWriteNothing() throws IOException {
    Path in = dir.resolve("share.hex");
    Files.writeString(in, HexFormat.of().formatHex(SHARE.encode()));
    Path out = dir.resolve("out.hex");
    String[][] cases = {
      {"--in", in.toString(), "--out", out.toString()}, // no budget
      {"--epsilon", "0", "--in", in.toString(), "--out", out.toString()},
      {"--epsilon", "1", "--insecure-seed", "abc", "--in", in.toString(), "--out", out.toString()},
      {"--epsilon", "1", "--in", dir.resolve("missing.hex").toString(), "--out", out.toString()},
    };
    String[] messages = {"needs --epsilon or --rho", "epsilon must be > 0", "seed must be an even number of hex digits",
        "cannot read --in"};
    CliRun oldName = CliRun.of(args("--epsilon", "1", "--seed", "c0ffee", "--in", in.toString(), "--out", out.toString()));
    assertEquals(2, oldName.code());
    assertTrue(oldName.err().startsWith("Unknown options: '--seed'"), oldName.err());
    assertFalse(Files.exists(out), "the old --seed is refused, nothing written");
    for (int i = 0; i < cases.length; i++) {
      CliRun r = CliRun.of(args(cases[i]));
      assertTrue(r.failedWithOneLine(messages[i]), r.err());
      assertFalse(Files.exists(out));
    }
    CliRun wrongVdaf = CliRun.of("noise-share", "--vdaf", "Prio3Histogram", "--length", "5", "--chunk-length", "2",
        "--epsilon", "1", "--in", in.toString(), "--out", out.toString());
    assertTrue(wrongVdaf.failedWithOneLine("Prio3Histogram aggregate share (5 Field128 elements)"), wrongVdaf.err());
    assertFalse(Files.exists(out));
  }

  @Test
  void help() {
    CliRun r = CliRun.of("noise-share", "--help");
    assertEquals(0, r.code());
    assertTrue(r.out().contains("--insecure-seed"), r.out());
    assertTrue(r.out().contains("Example:\n  prio-dp noise-share"), r.out());
    assertArrayEquals(new byte[0], r.err().getBytes());
  }
}
