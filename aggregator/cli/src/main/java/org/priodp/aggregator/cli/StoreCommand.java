package org.priodp.aggregator.cli;

import java.io.IOException;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * A command that works on a running deployment's store: the tasks of a task file ({@link
 * TaskOptions}) and the database they live in ({@link StoreOptions}). The operator commands
 * {@code jobs}, {@code collection-jobs}, {@code verify-keys}, {@code status} and {@code budget}
 * share these options; a command with subcommands prints its usage and exits 2 when called without
 * one.
 */
abstract class StoreCommand implements PrioDpSubcommand {
  @Mixin
  TaskOptions tasks = new TaskOptions();

  @Mixin
  StoreOptions store = new StoreOptions();

  @Spec
  CommandSpec spec;

  /** Prints the usage (a subcommand is missing) and returns 2; commands without subcommands override it. */
  @Override
  public Integer call() throws IOException {
    spec.commandLine().usage(spec.commandLine().getOut());
    return 2;
  }
}
