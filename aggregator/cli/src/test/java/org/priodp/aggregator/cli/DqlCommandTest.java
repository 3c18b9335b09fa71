package org.priodp.aggregator.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.priodp.noise.SeededRandomSource;
import org.priodp.noise.compress.EliasCode;
import org.priodp.noise.compress.SharedRandomness;
import org.priodp.noise.compress.dql.DqlCodec;
import org.priodp.noise.compress.dql.DqlDescription;
import org.priodp.noise.compress.dql.DqlParameters;

class DqlCommandTest {

  @Test
  void encodeThenDecodeMatchesTheLibrary() {
    CliRun enc = CliRun.of("dql", "encode", "--epsilon", "1", "--ell", "2", "--shared-seed", "00ff", "--local-seed", "01",
        "0.5", "-0.25", "3");
    assertEquals(0, enc.code(), enc.err());
    assertTrue(enc.err().startsWith("warning: --local-seed: noise drawn from a fixed seed"), enc.err());
    String[] lines = enc.out().strip().split("\n");
    assertEquals(3, lines.length);
    assertTrue(lines[2].startsWith("report "), lines[2]);
    long report = Long.parseLong(lines[2].substring("report ".length()));
    System.out.println("fresh report index " + report);
    assertTrue(report >= 0);
    DqlCodec codec = DqlCodec.of(DqlParameters.of(1, 2), EliasCode.DELTA);
    SharedRandomness shared = SharedRandomness.fromHex("00ff");
    DqlDescription d = codec.encode(new double[] {0.5, -0.25, 3}, shared, report, SeededRandomSource.fromHex("01"));
    assertEquals(d.hex(), lines[0]);
    assertEquals(d.bitLength() + " bits", lines[1]);

    CliRun dec = CliRun.of("dql", "decode", "--epsilon", "1", "--ell", "2", "--shared-seed", "00ff", "--count", "3",
        "--report", Long.toString(report), lines[0]);
    assertEquals(0, dec.code(), dec.err());
    double[] got = dec.out().lines().mapToDouble(Double::parseDouble).toArray();
    assertArrayEquals(codec.decode(HexFormat.of().parseHex(lines[0]), 3, shared, report), got);
  }

  /**
   * Without --report every run used to read report 0 of the shared stream, so two encodings
   * shared their dither: now each run draws a fresh index (two runs collide with probability
   * 2^-63), and decode refuses to guess one.
   */
  @Test
  void eachEncodingGetsAFreshReportIndexAndDecodeNeedsIt() {
    java.util.Set<String> reports = new java.util.HashSet<>();
    for (int i = 0; i < 3; i++) {
      CliRun enc = CliRun.of("dql", "encode", "--epsilon", "1", "--ell", "2", "--shared-seed", "00ff", "1");
      assertEquals(0, enc.code(), enc.err());
      assertEquals("", enc.err(), "no warning without --local-seed");
      reports.add(enc.out().lines().skip(2).findFirst().orElseThrow());
    }
    assertEquals(3, reports.size(), "three different report indices: " + reports);
    CliRun dec = CliRun.of("dql", "decode", "--epsilon", "1", "--ell", "2", "--shared-seed", "00ff", "--count", "1", "80");
    assertTrue(dec.failedWithOneLine("decode: missing --report"), dec.err());
    CliRun help = CliRun.of("dql", "encode", "--help");
    assertTrue(help.out().contains("Example:\n  prio-dp dql encode") && help.out().contains("fresh random"), help.out());
    assertTrue(CliRun.of("dql", "decode", "--help").out().contains("Example:\n  prio-dp dql decode"));
  }

  @Test
  void gammaCodeAndReportIndex() {
    CliRun enc = CliRun.of("dql", "encode", "--epsilon", "1/2", "--ell", "10", "--shared-seed", "ab", "--code", "gamma",
        "--report", "5", "--local-seed", "02", "--", "-1", "2");
    assertEquals(0, enc.code(), enc.err());
    String hex = enc.out().lines().findFirst().orElseThrow();
    assertEquals("report 5", enc.out().lines().skip(2).findFirst().orElseThrow(), "a given index is echoed");
    CliRun dec = CliRun.of("dql", "decode", "--epsilon", "0.5", "--ell", "10", "--shared-seed", "ab", "--code", "gamma",
        "--report", "5", "--count", "2", hex);
    assertEquals(0, dec.code(), dec.err());
    assertEquals(2, dec.out().lines().count());
  }

  @Test
  void badInputFailsWithOneLine() {
    assertTrue(CliRun.of("dql", "encode", "--epsilon", "0", "--ell", "2", "--shared-seed", "00", "1").failedWithOneLine("--epsilon"));
    assertTrue(CliRun.of("dql", "encode", "--epsilon", "-1", "--ell", "2", "--shared-seed", "00", "1").failedWithOneLine("--epsilon"));
    assertTrue(CliRun.of("dql", "encode", "--epsilon", "1", "--ell", "1", "--shared-seed", "00", "1").failedWithOneLine("--ell"));
    assertTrue(CliRun.of("dql", "encode", "--epsilon", "1", "--ell", "0.5", "--shared-seed", "00", "1").failedWithOneLine("--ell"));
    assertTrue(CliRun.of("dql", "encode", "--epsilon", "1", "--ell", "2", "--shared-seed", "0g", "1").failedWithOneLine("shared seed"));
    assertTrue(CliRun.of("dql", "encode", "--epsilon", "1", "--ell", "2", "--shared-seed", "00", "abc").failedWithOneLine("abc"));
    assertTrue(CliRun.of("dql", "encode", "--epsilon", "1", "--ell", "2", "--shared-seed", "00", "NaN").failedWithOneLine("finite"));
    assertTrue(CliRun.of("dql", "encode", "--epsilon", "1", "--ell", "2", "--shared-seed", "00", "1e9").failedWithOneLine("exceeds"));
    assertTrue(CliRun.of("dql", "encode", "--epsilon", "1", "--ell", "2", "--shared-seed", "00", "--report", "-1", "1").failedWithOneLine("--report must be >= 0"));
    assertTrue(CliRun.of("dql", "decode", "--epsilon", "1", "--ell", "2", "--shared-seed", "00", "--report", "0", "--count", "2", "zz").failedWithOneLine("hex"));
    assertTrue(CliRun.of("dql", "decode", "--epsilon", "1", "--ell", "2", "--shared-seed", "00", "--report", "0", "--count", "3", "0a").failedWithOneLine("truncated"));
    assertTrue(CliRun.of("dql", "decode", "--epsilon", "1", "--ell", "2", "--shared-seed", "00", "--report", "0", "--count", "1", "ffff").failedWithOneLine("left"));
    assertTrue(CliRun.of("dql", "decode", "--epsilon", "1", "--ell", "2", "--shared-seed", "00", "--report", "0", "--count", "1", "--code", "x", "80").failedWithOneLine("--code"));
    CliRun none = CliRun.of("dql");
    assertTrue(none.code() != 0 && none.err().contains("Missing required subcommand"), none.err());
  }
}
