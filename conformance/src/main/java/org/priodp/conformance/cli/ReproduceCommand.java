package org.priodp.conformance.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import org.priodp.aggregator.cli.PrioDpSubcommand;
import org.priodp.conformance.reproduce.RandomizedResponseReproduction;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** Reproduces a paper's figure from simulation with a fixed seed: a CSV and a PNG plot. */
@Command(
    name = "reproduce",
    mixinStandardHelpOptions = true,
    description = {
      "Reproduces a paper's result by seeded simulation: a CSV and a PNG plot.",
      "",
      "randomized-response: the RR mean estimator's error against n for several epsilons, beside"
          + " the lecture's Theorem 5 bound.",
      "dql: Fig. 3 of the dyadic quantized Laplace paper (MSE against database and decoder epsilon"
          + " at 5 bits, beside Laplace-then-quantize) and the Theorem 8 length bound.",
      "requantization: Figs. 1 and 2 of the randomized requantization paper (minimum epsilon"
          + " against the distortion bound for 4 compression ratios; MSE against epsilon beside"
          + " Laplace-then-quantize; the error of the sum and of the mean as the number of users"
          + " grows).",
      "ppr: Fig. 1 of the PPR paper (MSE against central epsilon for PPR, CSGM and the Gaussian"
          + " mechanism at 25-400 bits per client, analytic and simulated); --quick for a shorter"
          + " run."
    },
    footer = {"%nExample:", "  prio-dp reproduce randomized-response --out /tmp/rr"})
public final class ReproduceCommand implements PrioDpSubcommand {

  @Spec CommandSpec spec;

  @Parameters(paramLabel = "WHAT", description = "randomized-response, dql, requantization or ppr.")
  String what;

  @Option(names = "--out", paramLabel = "DIR", description = "Output folder (default: ./reproductions/WHAT).")
  Path out;

  @Option(names = "--seed", defaultValue = "5252", paramLabel = "HEX", description = "Seed of the simulation (hex).")
  String seed;

  @Option(names = "--quick", description = "ppr only: fewer epsilons and simulated points.")
  boolean quick;

  @Override
  public Integer call() throws IOException {
    Path dir = out != null ? out : Path.of("reproductions", what);
    PrintWriter pw = spec.commandLine().getOut();
    PrintWriter progress = spec.commandLine().getErr();
    List<Path> files;
    switch (what) {
      case "randomized-response" -> {
        List<RandomizedResponseReproduction.Row> rows = RandomizedResponseReproduction.simulate(seed);
        files = RandomizedResponseReproduction.write(rows, dir);
        long within = rows.stream().filter(r -> r.quantile() <= r.bound()).count();
        pw.printf("randomized-response: %d (epsilon, n) points, seed %s; simulated 95%% quantile within the"
            + " lecture bound at %d of %d%n", rows.size(), seed, within, rows.size());
      }
      case "dql" -> files = org.priodp.conformance.reproduce.DqlReproduction.run(dir, progress);
      case "requantization" -> {
        long s;
        try {
          s = Long.parseUnsignedLong(seed.strip(), 16);
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException("--seed must be at most 16 hex digits, got '" + seed + "'");
        }
        files = org.priodp.conformance.reproduce.RequantizationReproduction.run(dir, progress, s);
      }
      case "ppr" -> files = org.priodp.conformance.reproduce.PprReproduction.run(dir, pw,
          quick ? org.priodp.conformance.reproduce.PprReproduction.Settings.quick()
              : org.priodp.conformance.reproduce.PprReproduction.Settings.paper(), seed);
      default -> throw new IllegalArgumentException("unknown reproduction '" + what
          + "' (available: randomized-response, dql, requantization, ppr)");
    }
    for (Path f : files) {
      pw.println("wrote " + f.toAbsolutePath().normalize());
    }
    pw.flush();
    return 0;
  }
}
