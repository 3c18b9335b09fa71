package org.priodp.conformance.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The {@code vectors} command: one line per file, the closing count and the exit code. */
class VectorsCommandTest {

  private static Path vectorDir() {
    String root = System.getProperty("priodp.root");
    if (root == null) {
      fail("system property priodp.root is not set; cannot locate ../shared/vectors/vdaf-18");
    }
    return Path.of(root).resolve("../shared/vectors/vdaf-18").normalize();
  }

  private record Run(int exit, String out) {}

  private static Run run(String... args) {
    StringWriter sw = new StringWriter();
    CommandLine cl = new CommandLine(new VectorsCommand());
    cl.setOut(new PrintWriter(sw));
    int exit = cl.execute(args);
    return new Run(exit, sw.toString());
  }

  @Test
  void theOfficialFolderPasses() throws IOException {
    long files;
    try (var s = Files.list(vectorDir())) {
      files = s.filter(p -> p.toString().endsWith(".json")).count();
    }
    Run r = run(vectorDir().toString());
    assertEquals(0, r.exit(), r.out());
    String[] lines = r.out().split("\n");
    assertEquals(files + 1, lines.length, r.out());
    for (int i = 0; i < files; i++) {
      assertTrue(lines[i].startsWith("PASS "), lines[i]);
    }
    assertEquals(files + " passed, 0 failed", lines[lines.length - 1]);
  }

  /** The footer's example: both shared folders, the Prio3L1BoundSum vector listed with the rest. */
  @Test
  void theFootersFoldersPassAndListTheL1BoundSumVector() {
    Path l1 = vectorDir().resolveSibling("l1-bound-sum");
    Run r = run(vectorDir().toString(), l1.toString());
    assertEquals(0, r.exit(), r.out());
    assertTrue(r.out().contains("PASS " + l1.resolve("Prio3L1BoundSum_0.json") + "\n"), r.out());
    assertTrue(r.out().contains("PASS " + vectorDir().resolve("Prio3MultihotCountVec_0.json") + "\n"), r.out());
    assertTrue(r.out().endsWith(" passed, 0 failed\n"), r.out());
  }

  @Test
  void aBrokenFileFailsWithOneLineAndANonZeroExit(@TempDir Path dir) throws IOException {
    String good = Files.readString(vectorDir().resolve("Prio3Count_0.json"), StandardCharsets.UTF_8);
    Files.writeString(dir.resolve("Prio3Count_0.json"), good);
    Files.writeString(dir.resolve("Prio3Count_9.json"), "not json");
    Path sub = Files.createDirectories(dir.resolve("sub"));
    // An expected verifier share changed in its first byte.
    int at = good.indexOf('"', good.indexOf('[', good.indexOf('[', good.indexOf("\"verifier_shares\"")) + 1) + 1) + 1;
    String broken = good.substring(0, at) + (good.charAt(at) == 'f' ? 'e' : 'f') + good.substring(at + 1);
    Files.writeString(sub.resolve("Prio3Count_1.json"), broken);
    Run r = run(dir.toString(), dir.resolve("missing.json").toString());
    assertEquals(1, r.exit(), r.out());
    String out = r.out();
    assertTrue(out.contains("PASS " + dir.resolve("Prio3Count_0.json")), out);
    assertTrue(out.contains("FAIL " + dir.resolve("Prio3Count_9.json") + ": cannot use vector"), out);
    assertTrue(
        out.contains("FAIL " + sub.resolve("Prio3Count_1.json")
            + ": operation #1 (verify_init, report 0, aggregator 0): verifier_share mismatch"),
        out);
    assertTrue(out.contains("FAIL " + dir.resolve("missing.json") + ": no such file or folder"), out);
    assertTrue(out.endsWith("1 passed, 3 failed\n"), out);
  }
}
