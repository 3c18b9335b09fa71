package org.priodp.aggregator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class PrioDpTest {

  private record Run(int code, String out, String err) {}

  private static Run run(String... args) {
    CommandLine cl = PrioDp.commandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    int code = cl.execute(args);
    return new Run(code, out.toString(), err.toString());
  }

  @Test
  void versionComesFromTheBuild() {
    Run r = run("--version");
    assertEquals(0, r.code());
    assertTrue(r.out().matches("prio-dp \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?\\R"), r.out());
  }

  @Test
  void helpSucceeds() {
    Run r = run("--help");
    assertEquals(0, r.code());
    assertTrue(r.out().startsWith("Usage: prio-dp"), r.out());
  }

  @Test
  void unknownCommandsAndOptionsFailWithOneLineAndTheUsage() {
    for (String bad : new String[] {"no-such-command", "--no-such-option"}) {
      Run r = run(bad);
      assertEquals(2, r.code(), bad);
      String first = r.err().lines().findFirst().orElse("");
      assertTrue(first.contains(bad), "first line names the bad argument: " + first);
      assertTrue(r.err().contains("Usage: prio-dp"), r.err());
    }
  }

  @Test
  void noCommandFails() {
    Run r = run();
    assertEquals(2, r.code());
    assertTrue(r.err().startsWith("Missing required command"), r.err());
  }
}
