package org.priodp.aggregator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@code task}: without a subcommand it prints its usage, naming {@code new}, and exits 2. */
class TaskCommandTest {
  @Test
  void withoutASubcommandItShowsItsUsage() {
    CliRun r = CliRun.of("task");
    assertEquals(2, r.code());
    assertTrue(r.out().contains("Usage: prio-dp task") && r.out().contains("  new "), r.out());
  }
}
