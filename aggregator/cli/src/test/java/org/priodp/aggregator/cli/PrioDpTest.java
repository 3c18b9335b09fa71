package org.priodp.aggregator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class PrioDpTest {

  /**
   * A one-shot command in a real JVM with the shipped logging configuration prints its own line
   * and no library INFO (issue 24: HikariCP's "Starting..." before every keys command on
   * PostgreSQL), while prio-dp's own loggers (serve's) keep INFO.
   */
  @Test
  void oneShotCommandsPrintNoLibraryInfo() throws Exception {
    int closed;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
      closed = s.getLocalPort();
    }
    Process p = new ProcessBuilder(java.nio.file.Path.of(System.getProperty("java.home"), "bin",
        "java").toString(), "-cp", System.getProperty("java.class.path"), "-XX:+UseSerialGC",
        // the test class path also holds logback-test.xml; use the one that ships
        "-Dlogback.configurationFile=" + PrioDp.LOGGING_CONFIGURATION,
        "org.priodp.aggregator.cli.PrioDp", "keys", "--db",
        "jdbc:postgresql://127.0.0.1:" + closed + "/priodp", "list").start();
    p.getOutputStream().close();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(1, p.waitFor(), err);
    assertEquals("", out);
    assertEquals(1, err.lines().count(), err);
    assertTrue(err.startsWith("list: keys: cannot open store"), err);
    ch.qos.logback.classic.LoggerContext shipped = new ch.qos.logback.classic.LoggerContext();
    ch.qos.logback.classic.joran.JoranConfigurator c =
        new ch.qos.logback.classic.joran.JoranConfigurator();
    c.setContext(shipped);
    c.doConfigure(PrioDp.class.getClassLoader().getResource(PrioDp.LOGGING_CONFIGURATION));
    assertEquals(ch.qos.logback.classic.Level.INFO,
        shipped.getLogger("org.priodp.aggregator.request").getEffectiveLevel());
    assertEquals(ch.qos.logback.classic.Level.INFO,
        shipped.getLogger(ServeCommand.class).getEffectiveLevel());
  }

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
  void unknownCommandsAndOptionsFailWithOneLineAndWhereTheHelpIs() {
    for (String bad : new String[] {"xyzzy", "--no-such-option"}) {
      CliRun r = CliRun.of(bad);
      assertEquals(2, r.code(), bad);
      assertEquals(List.of(r.err().lines().findFirst().orElse(""), "see './prio-dp --help'"),
          r.err().lines().toList(), r.err());
      assertTrue(r.err().lines().findFirst().orElse("").contains(bad), r.err());
    }
    CliRun typo = CliRun.of("smaple");
    assertEquals(2, typo.code());
    List<String> lines = typo.err().lines().toList();
    assertEquals(3, lines.size(), typo.err());
    assertEquals("Unmatched argument at index 0: 'smaple'", lines.get(0));
    assertTrue(lines.get(1).startsWith("Did you mean: prio-dp sample"), lines.get(1));
    assertEquals("see './prio-dp --help'", lines.get(2));
    CliRun sub = CliRun.of("sample", "--mechanism", "discrete-laplace", "--scale", "1", "--bogus");
    assertEquals(2, sub.code());
    assertEquals("Unknown option: '--bogus'\nsee './prio-dp sample --help'\n", sub.err());
  }

  @Test
  void noCommandFails() {
    CliRun r = CliRun.of();
    assertEquals(2, r.code());
    assertEquals("Missing required command\nsee './prio-dp --help'\n", r.err());
  }

  @Test
  void helpCommandAndTheExitCodes() {
    CliRun r = CliRun.of("help", "sample");
    assertEquals(0, r.code());
    assertEquals(CliRun.of("sample", "--help").out(), r.out());
    assertTrue(CliRun.of("--help").out().contains("Exit codes: 0 ok, 1 "));
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
