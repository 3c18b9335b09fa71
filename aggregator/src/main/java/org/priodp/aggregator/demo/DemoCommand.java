package org.priodp.aggregator.demo;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import org.priodp.aggregator.cli.PrioDpSubcommand;
import org.priodp.noise.Rational;
import org.priodp.vdaf.Prio3;
import org.priodp.vdaf.Prio3Variant;
import org.priodp.vdaf.dp.Collector;
import org.priodp.vdaf.dp.CollectorResult;
import org.priodp.vdaf.dp.DpStrategy;
import org.priodp.vdaf.dp.Prio3DpMechanism;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Runs the whole flow on one machine: clients shard Prio3Histogram measurements, the two
 * aggregators verify and aggregate them, the helper serves its once-noised, HPKE-sealed
 * aggregate share over DAP-18 on loopback from an SQLite store, the leader collects it, and the
 * collector decrypts both shares, unshards and prints the noisy histogram with its intervals.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description = {
      "Runs prio-dp end to end on one machine and prints a noisy histogram.",
      "",
      "Simulated clients shard Prio3Histogram measurements, two aggregators verify and aggregate"
          + " them and release noised aggregate shares over DAP-18 on loopback, and the collector"
          + " prints the noisy histogram with 95%% intervals next to the true counts."
    },
    footer = {"%nExample:", "  prio-dp demo --clients 1000 --length 4 --epsilon 1/2"})
public final class DemoCommand implements PrioDpSubcommand {

  @Spec CommandSpec spec;

  @Option(names = "--clients", defaultValue = "10000", paramLabel = "N",
      description = "Number of simulated clients.")
  int clients;

  @Option(names = "--length", defaultValue = "10", paramLabel = "N",
      description = "Histogram buckets (the VDAF's length).")
  int length;

  @Option(names = "--epsilon", defaultValue = "1", paramLabel = "EPSILON",
      description = "Epsilon of the pure-DP discrete Laplace strategy, a decimal or fraction.")
  String epsilon;

  @Option(names = "--measurement-seed", defaultValue = "1", paramLabel = "N",
      description = "Seed of the simulated measurements; all cryptographic randomness and noise"
          + " come from SecureRandom.")
  long measurementSeed;

  @Option(names = "--data-dir", paramLabel = "DIR", description = "Folder for the aggregators' SQLite files (default: a new temporary folder).")
  Path dataDir;

  @Override
  public Integer call() throws java.io.IOException, InterruptedException {
    if (clients < 1 || clients > 10_000_000) {
      throw new IllegalArgumentException("--clients must be in [1, 10000000], got " + clients);
    }
    if (length < 2 || length > 100_000) {
      throw new IllegalArgumentException("--length must be in [2, 100000], got " + length);
    }
    DpStrategy.PureDpDiscreteLaplace strategy =
        new DpStrategy.PureDpDiscreteLaplace(Rational.parsePositive("--epsilon", epsilon));
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    int chunk = Math.max(1, (int) Math.round(Math.sqrt(length)));
    Prio3Variant.Histogram variant = new Prio3Variant.Histogram(length, chunk);
    Prio3 prio3 = new Prio3(variant);
    Prio3DpMechanism mechanism = Prio3DpMechanism.of(variant, strategy);

    out.printf("prio-dp demo: %d clients, Prio3Histogram(length=%d, chunk_length=%d), epsilon = %s%n",
        clients, length, chunk, strategy.epsilon());
    out.printf("  %s%n", mechanism.describeNoise());
    out.flush();
    SecureRandom random = new SecureRandom();
    long t0 = System.nanoTime();
    ClientsAndAggregators agg = ClientsAndAggregators.run(prio3, clients, measurementSeed, random, err);
    out.printf("  %d reports sharded, verified by both aggregators and aggregated (%d rejected) in %.1f s%n",
        agg.accepted(), agg.rejected(), (System.nanoTime() - t0) / 1e9);

    Path dir = dataDir != null ? dataDir : Files.createTempDirectory("prio-dp-demo");
    Files.createDirectories(dir);
    DapFlow flow = DapFlow.run(variant, strategy, agg, dir, random);
    out.printf("  helper: wrote its batch aggregation to %s and served its noised, HPKE-sealed share at %s%n",
        flow.helperDatabase(), flow.helperUrl());
    out.println("  leader: released its own noised share and collected the helper's with an AggregateShareReq (DAP-18)");
    out.println("  collector: decrypted both shares (the AAD binds the task configuration) and unsharded");

    CollectorResult result =
        Collector.of(mechanism).unshard(List.of(flow.leaderShare(), flow.helperShare()), agg.accepted());
    DemoTable.print(out, agg.trueCounts(), result);
    out.printf("  epsilon %s: %s%n", strategy.epsilon(), result.noiseNote());
    out.flush();
    return 0;
  }
}
