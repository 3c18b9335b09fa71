package org.priodp.conformance.cli;

import java.nio.file.Path;
import java.util.List;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.priodp.aggregator.cli.PrioDpSubcommand;
import picocli.CommandLine.Command;
import picocli.CommandLine.Help;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Runs the JMH benchmarks of the conformance module. */
@Command(
    name = "benchmarks",
    mixinStandardHelpOptions = true,
    description = {
      "Runs the JMH benchmarks (field, samplers, ...) on this machine.",
      "",
      "Scores and units are documented in docs/PERFORMANCE.md."
    },
    footer = {
      "%nExample:",
      "  prio-dp benchmarks FieldBenchmark --forks 1 --warmup 3 --iterations 5 --time 1s"
    })
public final class BenchmarksCommand implements PrioDpSubcommand {

  @Parameters(
      paramLabel = "REGEX",
      arity = "0..*",
      showDefaultValue = Help.Visibility.NEVER,
      description = "Run only the benchmarks whose full name matches (default: all).")
  List<String> patterns = List.of();

  @Option(names = "--forks", defaultValue = "1", paramLabel = "N", description = "JVM forks per benchmark.")
  int forks;

  @Option(names = "--warmup", defaultValue = "3", paramLabel = "N", description = "Warm-up iterations.")
  int warmup;

  @Option(names = "--iterations", defaultValue = "5", paramLabel = "N", description = "Measured iterations.")
  int iterations;

  @Option(names = "--time", defaultValue = "1s", paramLabel = "TIME",
      description = "Time per iteration, e.g. 500ms, 2s.")
  String time;

  @Option(names = "--json", paramLabel = "FILE", description = "Also write JMH's JSON results to FILE.")
  Path json;

  @Option(names = {"-p", "--param"}, paramLabel = "NAME=VALUES",
      showDefaultValue = Help.Visibility.NEVER,
      description = "Override a benchmark @Param, e.g. -p scale=2,100 (repeatable).")
  List<String> params = List.of();

  @Option(names = "--prof", paramLabel = "PROFILER", showDefaultValue = Help.Visibility.NEVER,
      description = "Attach a JMH profiler, e.g. gc or stack:lines=3 (repeatable).")
  List<String> profilers = List.of();

  @Option(names = "--list", description = "List the benchmarks and exit.")
  boolean list;

  @Override
  public Integer call() throws RunnerException {
    if (forks < 0 || warmup < 0 || iterations < 1) {
      throw new IllegalArgumentException("--forks and --warmup must be >= 0, --iterations >= 1");
    }
    TimeValue t;
    try {
      t = TimeValue.fromString(time);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("--time: cannot read '" + time + "' (use e.g. 500ms or 2s)");
    }
    ChainedOptionsBuilder b =
        new OptionsBuilder()
            .forks(forks)
            .warmupIterations(warmup)
            .warmupTime(t)
            .measurementIterations(iterations)
            .measurementTime(t)
            .threads(1);
    if (patterns.isEmpty()) {
      b.include("org\\.priodp\\.conformance\\.bench\\..*");
    }
    patterns.forEach(b::include);
    for (String p : params) {
      int eq = p.indexOf('=');
      if (eq <= 0 || eq == p.length() - 1) {
        throw new IllegalArgumentException("--param: expected NAME=V1,V2, got '" + p + "'");
      }
      b.param(p.substring(0, eq), p.substring(eq + 1).split(","));
    }
    for (String prof : profilers) {
      int colon = prof.indexOf(':'); // NAME or NAME:options, as JMH's -prof takes them
      if (colon < 0) {
        b.addProfiler(prof);
      } else {
        b.addProfiler(prof.substring(0, colon), prof.substring(colon + 1));
      }
    }
    if (json != null) {
      b.result(json.toString()).resultFormat(ResultFormatType.JSON);
    }
    Runner runner = new Runner(b.build());
    if (list) {
      runner.list();
      return 0;
    }
    return runner.run().isEmpty() ? 1 : 0;
  }
}
