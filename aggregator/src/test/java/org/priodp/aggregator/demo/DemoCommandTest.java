package org.priodp.aggregator.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.priodp.aggregator.cli.CliRun;
import org.junit.jupiter.api.io.TempDir;

class DemoCommandTest {
  private static final Pattern ROW =
      Pattern.compile("\\s+(\\d+)\\s+(\\d+)\\s+(-?\\d+)\\s+\\[(-?\\d+), (-?\\d+)\\].*");

  @Test
  void smallDemoPrintsAnHonestTable(@TempDir Path dir) {
    CliRun r = CliRun.of("demo", "--clients", "300", "--length", "6", "--epsilon", "1/2",
        "--data-dir", dir.toString());
    assertEquals(0, r.code(), r.err());
    String out = r.out();
    assertTrue(out.contains("epsilon = 1/2"), out);
    assertTrue(out.contains("300 reports sharded, verified by both aggregators and aggregated (0 rejected)"), out);
    assertTrue(out.contains("served its noised, HPKE-sealed share at http://127.0.0.1:"), out);
    assertTrue(out.contains("collector: decrypted both shares"), out);
    assertTrue(Files.isRegularFile(dir.resolve("helper.sqlite")), "the helper's SQLite store");
    List<String> rows = out.lines().filter(l -> ROW.matcher(l).matches()).toList();
    assertEquals(6, rows.size(), out);
    long trueTotal = 0;
    int covered = 0;
    for (String row : rows) {
      Matcher m = ROW.matcher(row);
      assertTrue(m.matches());
      long truth = Long.parseLong(m.group(2));
      long noisy = Long.parseLong(m.group(3));
      long lo = Long.parseLong(m.group(4));
      long hi = Long.parseLong(m.group(5));
      trueTotal += truth;
      // the interval is centred on the noisy count: scale 4 per aggregator at epsilon 1/2
      assertEquals(noisy, (lo + hi) / 2, row);
      assertTrue(hi - lo > 0 && hi - lo < 100, row);
      covered += lo <= truth && truth <= hi ? 1 : 0;
    }
    assertEquals(300, trueTotal, "every client's measurement is counted once");
    // each interval covers with probability >= 0.95; 4 or more of 6 fail with probability < 1e-4
    assertTrue(covered >= 4, out);
    assertTrue(out.contains(covered + " of 6 intervals contain the true count"), out);
  }

  @Test
  void badOptionsFailWithOneLine() {
    for (String[] args : new String[][] {
        {"demo", "--clients", "0"}, {"demo", "--length", "1"}, {"demo", "--epsilon", "-1"}}) {
      CliRun r = CliRun.of(args);
      assertEquals(2, r.code(), String.join(" ", args));
      assertEquals(1, r.err().lines().count(), r.err());
    }
  }
}
