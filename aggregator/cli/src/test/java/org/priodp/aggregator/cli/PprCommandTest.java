package org.priodp.aggregator.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.priodp.noise.SeededRandomSource;
import org.priodp.noise.compress.SharedRandomness;
import org.priodp.noise.compress.ppr.GaussianPprChunk;
import org.priodp.noise.compress.ppr.PprCodec;
import org.priodp.noise.compress.ppr.PprEncoding;

class PprCommandTest {

  @Test
  void encodeThenDecodeMatchesTheLibrary() {
    CliRun enc = CliRun.of("ppr", "encode", "--sigma", "0.5", "--shared-seed", "00ff", "--report", "3", "--local-seed", "01",
        "--", "0.5", "-0.25", "0.1");
    assertEquals(0, enc.code(), enc.err());
    String[] lines = enc.out().strip().split("\n");
    GaussianPprChunk chunk = GaussianPprChunk.of(3, 0.5, 1);
    PprCodec<double[]> codec = new PprCodec<>(chunk.proposal(), SharedRandomness.fromHex("00ff"), 3, 2, 10_000_000);
    PprEncoding e = codec.encode(chunk.target(new double[] {0.5, -0.25, 0.1}), SeededRandomSource.fromHex("01"));
    assertEquals("index " + e.index(), lines[0]);
    assertEquals("report 3", lines[3], "a given index is echoed");
    String code = lines[1].split(" ")[1];
    for (String[] how : new String[][] {{"--index", Long.toString(e.index())}, {"--code", code}}) {
      CliRun dec = CliRun.of("ppr", "decode", "--sigma", "0.5", "--shared-seed", "00ff", "--report", "3", "--dim", "3", how[0],
          how[1]);
      assertEquals(0, dec.code(), dec.err());
      assertArrayEquals(codec.decode(e.index()), dec.out().lines().mapToDouble(Double::parseDouble).toArray());
    }
  }

  /**
   * Without --report every run used to read report 0 of the shared stream (the same proposals
   * for every client); now encode draws a fresh index and prints it, and decode requires one.
   */
  @Test
  void eachEncodingGetsAFreshReportIndexAndDecodeNeedsIt() {
    CliRun enc = CliRun.of("ppr", "encode", "--sigma", "0.5", "--shared-seed", "00ff", "--", "0.5", "-0.25", "0.1");
    assertEquals(0, enc.code(), enc.err());
    assertEquals("", enc.err(), "no warning without --local-seed");
    String[] lines = enc.out().strip().split("\n");
    assertEquals(4, lines.length, enc.out());
    assertTrue(lines[3].startsWith("report "), lines[3]);
    String report = lines[3].substring("report ".length());
    System.out.println("fresh report index " + report);
    String index = lines[0].substring("index ".length());
    CliRun dec = CliRun.of("ppr", "decode", "--sigma", "0.5", "--shared-seed", "00ff", "--report", report, "--dim", "3",
        "--index", index);
    assertEquals(0, dec.code(), dec.err());
    assertEquals(3, dec.out().lines().count());
    CliRun other = CliRun.of("ppr", "encode", "--sigma", "0.5", "--shared-seed", "00ff", "--", "0.5", "-0.25", "0.1");
    assertNotEquals(lines[3], other.out().strip().split("\n")[3], "a second run draws another index");
    CliRun missing = CliRun.of("ppr", "decode", "--sigma", "0.5", "--shared-seed", "00ff", "--dim", "3", "--index", index);
    assertTrue(missing.failedWithOneLine("decode: missing --report"), missing.err());
    assertTrue(CliRun.of("ppr", "encode", "--help").out().contains("Example:\n  prio-dp ppr encode"));
    assertTrue(CliRun.of("ppr", "decode", "--help").out().contains("Example:\n  prio-dp ppr decode"));
    CliRun seeded = CliRun.of("ppr", "encode", "--sigma", "0.5", "--shared-seed", "00ff", "--local-seed", "01", "--", "0.1");
    assertEquals("warning: --local-seed: noise drawn from a fixed seed is reproducible and gives no privacy;"
        + " for tests only\n", seeded.err());
  }

  @Test
  void cappedRunIsReported() {
    CliRun enc = CliRun.of("ppr", "encode", "--sigma", "0.1", "--shared-seed", "00", "--local-seed", "02", "--cap", "1", "0.9");
    assertEquals(3, enc.code());
    assertTrue(enc.err().contains("NOT an exact"), enc.err());
  }

  @Test
  void badInputFailsWithOneLine() {
    assertTrue(CliRun.of("ppr", "encode", "--sigma", "0", "--shared-seed", "00", "1").failedWithOneLine("--sigma"));
    assertTrue(CliRun.of("ppr", "encode", "--sigma", "x", "--shared-seed", "00", "1").failedWithOneLine("--sigma"));
    assertTrue(CliRun.of("ppr", "encode", "--sigma", "1", "--alpha", "1", "--shared-seed", "00", "0.1").failedWithOneLine("--alpha"));
    assertTrue(CliRun.of("ppr", "encode", "--sigma", "1", "--shared-seed", "0g", "0.1").failedWithOneLine("shared seed"));
    assertTrue(CliRun.of("ppr", "encode", "--sigma", "1", "--shared-seed", "00", "2").failedWithOneLine("exceeds"));
    assertTrue(CliRun.of("ppr", "encode", "--sigma", "1", "--shared-seed", "00", "NaN").failedWithOneLine("finite"));
    assertTrue(CliRun.of("ppr", "encode", "--sigma", "1", "--shared-seed", "00", "--report", "-2", "0.1").failedWithOneLine("--report must be >= 0"));
    assertTrue(CliRun.of("ppr", "decode", "--sigma", "1", "--shared-seed", "00", "--report", "0", "--dim", "2", "--index", "0").failedWithOneLine("--index"));
    assertTrue(CliRun.of("ppr", "decode", "--sigma", "1", "--shared-seed", "00", "--report", "0", "--dim", "2", "--code", "zz").failedWithOneLine("hex"));
    assertTrue(CliRun.of("ppr", "decode", "--sigma", "1", "--shared-seed", "00", "--report", "0", "--dim", "0", "--index", "3").failedWithOneLine("--dim"));
  }
}
