package org.priodp.aggregator.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import org.priodp.noise.RandomSource;
import org.priodp.noise.SeededRandomSource;
import org.priodp.vdaf.Prio3Variant;
import org.priodp.vdaf.dp.Prio3DpMechanism;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Reads an encoded Prio3 aggregate share and writes it with differential-privacy noise added. */
@Command(
    name = "noise-share",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Adds differential-privacy noise to an encoded Prio3 aggregate share.",
      "",
      "Reads an un-noised aggregate share (hex) and writes the noised share in the same encoding:"
          + " one independent draw per coordinate, with the scale derived from the VDAF's parameters"
          + " and --epsilon or --rho. Nothing is written when anything is wrong. The noise comes"
          + " from SecureRandom."
    },
    footer = {
      "%nExample:",
      "  prio-dp noise-share --vdaf Prio3Histogram --length 4 --chunk-length 2 --epsilon 1"
          + " --in share.hex"
    })
public final class NoiseShareCommand implements PrioDpSubcommand {
  @Spec CommandSpec spec;

  @Mixin VdafOptions vdaf = new VdafOptions();

  @Mixin DpOptions dp = new DpOptions();

  @Option(names = "--insecure-seed", paramLabel = "HEX",
      description = "Seed a deterministic noise source: anybody who knows the seed knows the noise, so"
          + " for tests only (a warning is printed on stderr) (default: SecureRandom).")
  String seed;

  @Option(names = "--hardened",
      description = "Draw the noise with the fixed-work sampler (discrete Laplace or Gaussian: its time"
          + " and randomness do not depend on the noise; within total variation 2^-64 of the exact"
          + " distribution).")
  boolean hardened;

  @Option(names = "--in", paramLabel = "FILE", description = "Read the hex share from FILE (default: stdin).")
  Path in;

  @Option(names = "--out", paramLabel = "FILE", description = "Write the hex noised share to FILE (default: stdout).")
  Path out;

  @Override
  public Integer call() throws IOException {
    Prio3Variant variant = vdaf.variant();
    if (!dp.given()) {
      throw new IllegalArgumentException("needs --epsilon or --rho (an un-noised share is never written)");
    }
    Prio3DpMechanism m = Prio3DpMechanism.of(variant, dp.strategy(), dp.rule());
    if (hardened) {
      m = m.withHardenedSampler();
    }
    RandomSource rnd = seed == null ? RandomSource.secure() : SeededRandomSource.fromHex(seed);
    byte[] share = CliIo.hex("aggregate share", CliIo.readText(in, System.in));
    String noised = CliIo.hex(m.addNoiseToAggShare(share, rnd)) + "\n";
    if (out == null) {
      PrintWriter w = spec.commandLine().getOut();
      w.print(noised);
      w.flush();
    } else {
      CliIo.writeAtomically(out, noised);
    }
    if (seed != null) {
      InsecureSeed.warn(spec, "--insecure-seed");
    }
    return 0;
  }
}
