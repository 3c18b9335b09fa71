package org.priodp.aggregator.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * Provisions DAP tasks ("Task Configuration"), DAP-19 unless told dap-18: {@code task new} writes the task files of the
 * Leader, the Helper, the Collector and the Clients.
 */
@Command(
    name = "task",
    mixinStandardHelpOptions = true,
    subcommands = {TaskNewCommand.class},
    description = {
      "Provisions DAP tasks for a Leader, a Helper, Clients and a Collector.",
      "The tasks speak DAP-19 unless task new --dap-version says dap-18.",
      "task new generates a task's identifiers, keys and tokens and writes one file per party,"
          + " each holding only the secrets that party needs."},
    footer = {"%nExample:", "  prio-dp task new --vdaf Prio3Histogram --length 4 --chunk-length 2"
        + " --epsilon 1 --leader-url https://leader.example/ --helper-url https://helper.example/"
        + " --out t"})
public final class TaskCommand implements PrioDpSubcommand {
  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getOut());
    return 2;
  }
}
