package org.priodp.conformance.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import org.priodp.aggregator.cli.PrioDpSubcommand;
import org.priodp.conformance.audit.TimingAudit;
import org.priodp.noise.Rational;
import org.priodp.noise.local.KaryRandomizedResponse;
import org.priodp.noise.local.SymmetricRappor;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Audits of the samplers on this machine: {@code timing} measures timing side channels. */
@Command(
    name = "audit",
    mixinStandardHelpOptions = true,
    description = {
      "Audits the samplers on this machine for side channels.",
      "",
      "timing: a dudect-style Welch t-test between the running times of draws whose outputs"
          + " fall in two classes (small vs large noise, true vs flipped report)."
    },
    footer = {"%nExample:", "  prio-dp audit timing --measurements 1000000"},
    subcommands = {AuditCommand.Timing.class})
public final class AuditCommand implements PrioDpSubcommand {

  @Spec CommandSpec spec;

  /** Without a subcommand: fail with the usage. */
  @Override
  public Integer call() {
    throw new CommandLine.ParameterException(spec.commandLine(), "Missing required subcommand (timing)");
  }

  /**
   * The dudect-style timing audit of the exact and hardened Laplace and Gaussian samplers, RR,
   * k-RR and RAPPOR, with a random-label control.
   */
  @Command(
      name = "timing",
      mixinStandardHelpOptions = true,
      description = {
        "Tests whether sampler running times depend on the output (dudect).",
        "",
        "Times every draw of each target with System.nanoTime, interleaved after a warm-up: the"
            + " plain and the hardened (fixed-work) discrete Laplace sampler, the exact and the"
            + " hardened discrete Gaussian at each --sigma2 (and the first exact Gaussian again with"
            + " random class labels, the control), and binary and k-ary"
            + " randomized response and symmetric RAPPOR in their exact and fixed-work forms, each"
            + " with its own production random source. Each"
            + " draw is classified by its output (|z| at or below the median vs above it; for"
            + " the local randomizers the true value kept vs replaced) and Welch's t statistic between"
            + " the two classes' times is printed, over all measurements and over those below the"
            + " 90th percentile. |t| > 4.5 is dudect's threshold for a timing leak. Exits 0 either"
            + " way: it is a measurement, not a test."
      },
      footer = {"%nExample:", "  prio-dp audit timing --measurements 1000000 --scale 2"})
  static final class Timing implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(names = "--measurements", defaultValue = "1000000", paramLabel = "N",
        description = "Timed draws per target.")
    int measurements;

    @Option(names = "--warmup", defaultValue = "200000", paramLabel = "N",
        description = "Untimed draws per target first, for the JIT.")
    int warmup;

    @Option(names = "--batch", defaultValue = "100", paramLabel = "N",
        description = "Draws of one target in a row before the next (order reshuffled every round).")
    int batch;

    @Option(names = "--scale", defaultValue = "2", paramLabel = "T",
        description = "Scale of the discrete Laplace targets (integer or fraction).")
    String scale;

    @Option(names = "--sigma2", defaultValue = "100,1000000", paramLabel = "S2[,S2...]", split = ",",
        description = "sigma^2 of the discrete Gaussian targets (integers or fractions).")
    List<String> sigma2;

    @Option(names = "--k", defaultValue = "16", paramLabel = "K", description = "Buckets of the k-RR target.")
    int k;

    @Option(names = "--length", defaultValue = "16", paramLabel = "L", description = "Length of the RAPPOR target.")
    int length;

    @Option(names = "--epsilon", defaultValue = "1", paramLabel = "EPSILON",
        description = "Epsilon of the RR, k-RR and RAPPOR targets.")
    String epsilon;

    @Override
    public Integer call() {
      if (measurements < 2 || warmup < 0 || batch < 1) {
        throw new CommandLine.ParameterException(spec.commandLine(),
            "--measurements must be >= 2, --warmup >= 0 and --batch >= 1");
      }
      Rational t = Rational.parsePositive("--scale", scale);
      Rational eps = Rational.parsePositive("--epsilon", epsilon);
      KaryRandomizedResponse krr = new KaryRandomizedResponse(k, eps);
      SymmetricRappor rappor = SymmetricRappor.untruncated(length, eps);
      PrintWriter out = spec.commandLine().getOut();
      long resolution = TimingAudit.clockResolution(System::nanoTime);
      out.printf("timing audit (dudect-style): %d timed draws per target after %d warm-up draws,"
          + " interleaved in batches of %d; clock System.nanoTime, resolution %d ns%n",
          measurements, warmup, batch, resolution);
      out.printf("|t| > %.1f is dudect's threshold for a timing leak (the classes' mean times differ);"
          + " t(<p90) uses the draws below the 90th percentile of the times%n", TimingAudit.THRESHOLD);
      out.flush();
      List<TimingAudit.Result> results = TimingAudit.run(
          TimingAudit.standardTargets(t, sigma2.stream().map(v -> Rational.parsePositive("--sigma2", v)).toList(),
              krr, rappor, System.nanoTime()),
          measurements, warmup, batch, System::nanoTime, System.nanoTime());
      out.printf("%-56s %-26s %9s %9s %9s %9s %9s %9s  %s%n",
          "target", "classes (0 vs 1)", "n0", "n1", "mean0 ns", "mean1 ns", "t", "t(<p90)", "verdict");
      for (TimingAudit.Result r : results) {
        out.printf("%-56s %-26s %9d %9d %9.1f %9.1f %9.2f %9.2f  %s%n", r.target(), r.classes(),
            r.n0(), r.n1(), r.mean0(), r.mean1(), r.t(), r.tCropped(),
            r.leaks() ? "LEAK (|t| > 4.5)" : "no leak detected");
      }
      out.flush();
      return 0;
    }
  }
}
