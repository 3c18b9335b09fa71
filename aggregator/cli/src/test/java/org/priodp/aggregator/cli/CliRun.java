package org.priodp.aggregator.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** Runs the command line in-process and captures its output (test helper). */
public record CliRun(int code, String out, String err) {
  /** Runs {@code ./prio-dp ARGS} in-process. */
  public static CliRun of(String... args) {
    CommandLine cl = PrioDp.commandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    int code = cl.execute(args);
    return new CliRun(code, out.toString(), err.toString());
  }

  /** Runs {@code task new} of a Prio3Count task with example URLs, writing its four files to {@code out}. */
  public static CliRun taskNew(java.nio.file.Path out) {
    return of("task", "new", "--vdaf", "Prio3Count", "--epsilon", "1",
        "--leader-url", "https://leader.example/", "--helper-url", "https://helper.example/",
        "--time-precision", "3600", "--min-batch-size", "10", "--out", out.toString());
  }

  /** Returns true if the run failed with exactly one line on stderr that contains {@code text}. */
  public boolean failedWithOneLine(String text) {
    return code != 0 && out.isEmpty() && err.lines().count() == 1 && err.contains(text);
  }
}
