package org.priodp.aggregator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PrioDpTest {

  @Test
  void versionComesFromTheBuild() {
    CliRun r = CliRun.of("--version");
    assertEquals(0, r.code());
    assertTrue(r.out().matches("prio-dp \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?\\R"), r.out());
  }

  @Test
  void helpSucceeds() {
    CliRun r = CliRun.of("--help");
    assertEquals(0, r.code());
    assertTrue(r.out().startsWith("Usage: prio-dp"), r.out());
  }

  @Test
  void unknownCommandsAndOptionsFailWithOneLineAndTheUsage() {
    for (String bad : new String[] {"no-such-command", "--no-such-option"}) {
      CliRun r = CliRun.of(bad);
      assertEquals(2, r.code(), bad);
      String first = r.err().lines().findFirst().orElse("");
      assertTrue(first.contains(bad), "first line names the bad argument: " + first);
      assertTrue(r.err().contains("Usage: prio-dp"), r.err());
    }
  }

  @Test
  void noCommandFails() {
    CliRun r = CliRun.of();
    assertEquals(2, r.code());
    assertTrue(r.err().startsWith("Missing required command"), r.err());
  }

  @Test
  void theLoggingConfigurationIsInsideTheCliPackageNotAtTheJarRoot() throws Exception {
    // a project linking the aggregator keeps its own logging: no logback.xml at the root of
    // the aggregator's classes, and the command line's own configuration is where main finds it
    java.nio.file.Path classes = java.nio.file.Path.of(PrioDp.class.getProtectionDomain()
        .getCodeSource().getLocation().toURI());
    assertTrue(!java.nio.file.Files.exists(classes.resolve("logback.xml")), classes.toString());
    assertTrue(java.nio.file.Files.exists(classes.resolve(PrioDp.LOGGING_CONFIGURATION)));
  }
}
