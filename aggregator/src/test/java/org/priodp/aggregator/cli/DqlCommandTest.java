package org.priodp.aggregator.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.priodp.noise.SeededRandomSource;
import org.priodp.noise.compress.DqlCodec;
import org.priodp.noise.compress.DqlDescription;
import org.priodp.noise.compress.DqlParameters;
import org.priodp.noise.compress.EliasCode;
import org.priodp.noise.compress.SharedRandomness;

class DqlCommandTest {

  @Test
  void encodeThenDecodeMatchesTheLibrary() {
    CliRun enc = CliRun.of("dql", "encode", "--epsilon", "1", "--ell", "2", "--shared-seed", "00ff", "--local-seed", "01",
        "0.5", "-0.25", "3");
    assertEquals(0, enc.code(), enc.err());
    String[] lines = enc.out().strip().split("\n");
    assertEquals(2, lines.length);
    DqlCodec codec = DqlCodec.of(DqlParameters.of(1, 2), EliasCode.DELTA);
    SharedRandomness shared = SharedRandomness.fromHex("00ff");
    DqlDescription d = codec.encode(new double[] {0.5, -0.25, 3}, shared, 0, SeededRandomSource.fromHex("01"));
    assertEquals(d.hex(), lines[0]);
    assertEquals(d.bitLength() + " bits", lines[1]);

    CliRun dec = CliRun.of("dql", "decode", "--epsilon", "1", "--ell", "2", "--shared-seed", "00ff", "--count", "3", lines[0]);
    assertEquals(0, dec.code(), dec.err());
    double[] got = dec.out().lines().mapToDouble(Double::parseDouble).toArray();
    assertArrayEquals(codec.decode(HexFormat.of().parseHex(lines[0]), 3, shared, 0), got);
  }

  @Test
  void gammaCodeAndReportIndex() {
    CliRun enc = CliRun.of("dql", "encode", "--epsilon", "1/2", "--ell", "10", "--shared-seed", "ab", "--code", "gamma",
        "--report", "5", "--local-seed", "02", "--", "-1", "2");
    assertEquals(0, enc.code(), enc.err());
    String hex = enc.out().lines().findFirst().orElseThrow();
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
    assertTrue(CliRun.of("dql", "decode", "--epsilon", "1", "--ell", "2", "--shared-seed", "00", "--count", "2", "zz").failedWithOneLine("hex"));
    assertTrue(CliRun.of("dql", "decode", "--epsilon", "1", "--ell", "2", "--shared-seed", "00", "--count", "3", "0a").failedWithOneLine("truncated"));
    assertTrue(CliRun.of("dql", "decode", "--epsilon", "1", "--ell", "2", "--shared-seed", "00", "--count", "1", "ffff").failedWithOneLine("left"));
    assertTrue(CliRun.of("dql", "decode", "--epsilon", "1", "--ell", "2", "--shared-seed", "00", "--count", "1", "--code", "x", "80").failedWithOneLine("--code"));
    CliRun none = CliRun.of("dql");
    assertTrue(none.code() != 0 && none.err().contains("Missing required subcommand"), none.err());
  }
}
