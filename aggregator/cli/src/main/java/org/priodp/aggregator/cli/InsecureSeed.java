package org.priodp.aggregator.cli;

import java.io.PrintWriter;
import picocli.CommandLine.Model.CommandSpec;

/** The warning printed when a command draws privacy noise from a fixed seed. */
final class InsecureSeed {
  private InsecureSeed() {}

  /** The text after the option name. */
  static final String WARNING = "noise drawn from a fixed seed is reproducible and gives no privacy; for tests only";

  /** Prints "warning: OPTION: ..." as one line on the command's stderr. */
  static void warn(CommandSpec spec, String option) {
    PrintWriter err = spec.commandLine().getErr();
    err.println("warning: " + option + ": " + WARNING);
    err.flush();
  }
}
