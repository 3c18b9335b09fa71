package org.priodp.aggregator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.priodp.noise.DiscreteGaussian;
import org.priodp.noise.DiscreteLaplace;
import org.priodp.noise.RandomSource;
import org.priodp.noise.Rational;
import org.priodp.noise.SeededRandomSource;

class SampleCommandTest {

  @Test
  void seededLaplaceSamplesMatchTheLibrary() {
    CliRun r = CliRun.of("sample", "--mechanism", "discrete-laplace", "--scale", "5/2", "--count", "50", "--insecure-seed", "0a0b");
    assertEquals(0, r.code(), r.err());
    assertEquals(50, r.out().lines().count());
    assertEquals("warning: --insecure-seed: noise drawn from a fixed seed is reproducible and gives no privacy;"
        + " for tests only\n", r.err());
    RandomSource rnd = SeededRandomSource.fromHex("0a0b");
    DiscreteLaplace dl = DiscreteLaplace.of(Rational.of(5, 2));
    for (String line : r.out().lines().toList()) {
      assertEquals(dl.sample(rnd), Long.parseLong(line));
    }
  }

  @Test
  void seededGaussianAndHardenedSamples() {
    CliRun g = CliRun.of("sample", "--mechanism", "discrete-gaussian", "--sigma2", "25", "--count", "20", "--insecure-seed", "01");
    assertEquals(0, g.code(), g.err());
    RandomSource rnd = SeededRandomSource.fromHex("01");
    DiscreteGaussian dg = DiscreteGaussian.of(Rational.of(25));
    for (String line : g.out().lines().toList()) {
      assertEquals(dg.sample(rnd), Long.parseLong(line));
    }
    CliRun h = CliRun.of("sample", "--mechanism", "discrete-laplace", "--scale", "2", "--count", "10", "--hardened", "--insecure-seed", "01");
    assertEquals(0, h.code(), h.err());
    assertEquals(10, h.out().lines().count());
    assertTrue(h.err().startsWith("hardened: 7 digits, 72 random bits per sample, delta <= 2^-"), h.err());
    assertTrue(h.err().contains("warning: --insecure-seed"), h.err());
    CliRun hg = CliRun.of("sample", "--mechanism", "discrete-gaussian", "--sigma2", "10000", "--count", "10", "--hardened",
        "--insecure-seed", "01");
    assertEquals(0, hg.code(), hg.err());
    RandomSource hgRnd = SeededRandomSource.fromHex("01");
    org.priodp.noise.HardenedDiscreteGaussian hgSampler = org.priodp.noise.HardenedDiscreteGaussian.of(Rational.of(10000));
    for (String line : hg.out().lines().toList()) {
      assertEquals(hgSampler.sample(hgRnd), Long.parseLong(line));
    }
    assertTrue(hg.err().startsWith("hardened: 13 rounds of 124 blocks, 3328 random bits per sample, delta <= 2^-"), hg.err());
  }

  @Test
  void secureByDefaultAndTheOldSeedOptionIsGone() {
    CliRun secure = CliRun.of("sample", "--mechanism", "discrete-laplace", "--scale", "2", "--count", "3");
    assertEquals(0, secure.code(), secure.err());
    assertEquals(3, secure.out().lines().count());
    assertEquals("", secure.err(), "no warning without a seed");
    CliRun old = CliRun.of("sample", "--mechanism", "discrete-laplace", "--scale", "2", "--seed", "01");
    assertEquals(2, old.code());
    assertTrue(old.err().startsWith("Unknown options: '--seed'"), old.err());
    CliRun help = CliRun.of("sample", "--help");
    assertTrue(help.out().contains("--insecure-seed") && help.out().contains("Example:\n  prio-dp sample"), help.out());
  }

  @Test
  void badInputFailsWithOneClearLine() {
    String[][] cases = {
      {"--mechanism", "discrete-laplace", "--scale", "0"},
      {"--mechanism", "discrete-laplace", "--scale", "NaN"},
      {"--mechanism", "discrete-laplace"},
      {"--mechanism", "discrete-gaussian", "--scale", "2"},
      {"--mechanism", "discrete-gaussian", "--sigma2", "1e19", "--hardened"},
      {"--mechanism", "discrete-laplace", "--scale", "1", "--insecure-seed", "xyz"},
      {"--mechanism", "discrete-laplace", "--scale", "1", "--count", "-1"},
    };
    for (String[] c : cases) {
      String[] args = new String[c.length + 1];
      args[0] = "sample";
      System.arraycopy(c, 0, args, 1, c.length);
      CliRun r = CliRun.of(args);
      assertEquals(2, r.code(), String.join(" ", c));
      assertTrue(r.out().isEmpty(), "nothing on stdout for " + String.join(" ", c));
      assertEquals(1, r.err().lines().count(), "one line for " + String.join(" ", c) + ": " + r.err());
    }
    CliRun unknown = CliRun.of("sample", "--mechanism", "gauss", "--sigma2", "1");
    assertEquals(2, unknown.code());
    assertTrue(unknown.err().startsWith("Invalid value for option '--mechanism'"), unknown.err());
  }
}
