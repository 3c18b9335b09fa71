package org.priodp.aggregator.cli;

import java.io.PrintWriter;
import org.priodp.noise.DiscreteGaussian;
import org.priodp.noise.DiscreteLaplace;
import org.priodp.noise.NoiseSampler;
import org.priodp.noise.RandomSource;
import org.priodp.noise.Rational;
import org.priodp.noise.SeededRandomSource;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Prints exact discrete Laplace or Gaussian samples, one integer per line. */
@Command(
    name = "sample",
    mixinStandardHelpOptions = true,
    description = {
      "Prints exact discrete Laplace or Gaussian noise samples, one per line.",
      "",
      "The randomness comes from SecureRandom; --insecure-seed makes it reproducible (for tests"
          + " only)."
    },
    footer = {"%nExample:", "  prio-dp sample --mechanism discrete-laplace --scale 5/2 --count 10"})
public final class SampleCommand implements PrioDpSubcommand {

  enum Mechanism {
    DISCRETE_LAPLACE("discrete-laplace"),
    DISCRETE_GAUSSIAN("discrete-gaussian");

    final String cliName;

    Mechanism(String cliName) {
      this.cliName = cliName;
    }

    @Override
    public String toString() {
      return cliName;
    }
  }

  @Spec CommandSpec spec;

  @Option(names = "--mechanism", required = true, paramLabel = "MECHANISM",
      converter = MechanismConverter.class, description = "discrete-laplace or discrete-gaussian.")
  Mechanism mechanism;

  @Option(names = "--scale", paramLabel = "T", description = "Discrete Laplace scale t > 0, a decimal or a fraction (e.g. 2, 0.5, 1/3).")
  String scale;

  @Option(names = "--sigma2", paramLabel = "S2", description = "Discrete Gaussian sigma^2 > 0, a decimal or a fraction.")
  String sigma2;

  @Option(names = "--count", defaultValue = "1", paramLabel = "N", description = "Number of samples.")
  long count;

  @Option(names = "--insecure-seed", paramLabel = "HEX",
      description = "Seed (hex) for a reproducible AES-CTR stream: anybody who knows it knows the noise;"
          + " for tests only (a warning is printed on stderr).")
  String seed;

  @Option(names = "--hardened", description = "Use the fixed-work sampler (delta <= 2^-64, printed on stderr).")
  boolean hardened;

  /** Converts the mechanism name, listing the choices on a mistake. */
  static final class MechanismConverter implements picocli.CommandLine.ITypeConverter<Mechanism> {
    @Override
    public Mechanism convert(String value) {
      for (Mechanism m : Mechanism.values()) {
        if (m.cliName.equals(value)) {
          return m;
        }
      }
      throw new picocli.CommandLine.TypeConversionException(
          "unknown mechanism '" + value + "' (use discrete-laplace or discrete-gaussian)");
    }
  }

  @Override
  public Integer call() {
    if (count < 0) {
      throw new IllegalArgumentException("--count must be >= 0, got " + count);
    }
    NoiseSampler sampler = sampler();
    RandomSource rnd = seed == null ? RandomSource.secure() : SeededRandomSource.fromHex(seed);
    if (seed != null) {
      InsecureSeed.warn(spec, "--insecure-seed");
    }
    PrintWriter out = spec.commandLine().getOut();
    StringBuilder line = new StringBuilder(24);
    for (long i = 0; i < count; i++) {
      line.setLength(0);
      out.append(line.append(sampler.sampleBig(rnd)).append('\n'));
    }
    out.flush();
    return 0;
  }

  private NoiseSampler sampler() {
    switch (mechanism) {
      case DISCRETE_LAPLACE:
        if (scale == null || sigma2 != null) {
          throw new IllegalArgumentException("discrete-laplace needs --scale (and no --sigma2)");
        }
        DiscreteLaplace dl = DiscreteLaplace.of(Rational.parsePositive("--scale", scale));
        if (hardened) {
          var h = dl.hardened();
          double log2Delta = Math.log(org.priodp.noise.Accuracy.toDouble(h.delta())) / Math.log(2);
          spec.commandLine().getErr().printf("hardened: %d digits, %d random bits per sample, delta <= 2^%.1f%n",
              h.digits(), h.bitsPerSample(), log2Delta);
          return h;
        }
        return dl;
      case DISCRETE_GAUSSIAN:
        if (sigma2 == null || scale != null) {
          throw new IllegalArgumentException("discrete-gaussian needs --sigma2 (and no --scale)");
        }
        DiscreteGaussian dg = DiscreteGaussian.of(Rational.parsePositive("--sigma2", sigma2));
        if (hardened) {
          var h = dg.hardened();
          double log2Delta = Math.log(org.priodp.noise.Accuracy.toDouble(h.delta())) / Math.log(2);
          spec.commandLine().getErr().printf("hardened: %s, %d random bits per sample, delta <= 2^%.1f%n",
              h.direct() ? "one inversion of " + (2 * h.blocks() - 1) + " values" : h.rounds() + " rounds of "
                  + h.blocks() + " blocks", h.bitsPerSample(), log2Delta);
          return h;
        }
        return dg;
      default:
        throw new IllegalStateException(mechanism.toString());
    }
  }
}
