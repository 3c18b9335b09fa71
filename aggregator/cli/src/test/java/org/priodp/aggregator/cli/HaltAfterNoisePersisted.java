package org.priodp.aggregator.cli;

import picocli.CommandLine;

/**
 * Runs {@code prio-dp serve} as {@link PrioDp#main} does, with a crash injected for the crash
 * tests (DESIGN.md non-negotiable 3): the process halts like SIGKILL (exit 137, no shutdown
 * hooks) right after a batch's noised share is persisted and before it is sealed and released
 * (DAP-18 "Obtaining Aggregate Shares"). Test code only: production has no way to turn it on.
 */
public final class HaltAfterNoisePersisted {
  private HaltAfterNoisePersisted() {
  }

  /** Runs the command line, e.g. {@code serve --config ...}, with the halting observer. */
  public static void main(String[] args) {
    if (System.getProperty("logback.configurationFile") == null) {
      System.setProperty("logback.configurationFile", PrioDp.LOGGING_CONFIGURATION);
    }
    CommandLine cl = PrioDp.commandLine();
    ServeCommand serve = (ServeCommand) cl.getSubcommands().get("serve").getCommand();
    serve.releaseObserver = (taskId, batch) -> Runtime.getRuntime().halt(137);
    System.exit(cl.execute(args));
  }
}
