package org.priodp.aggregator.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.dap.HpkeCiphertext;
import org.priodp.aggregator.dap.HpkeConfigId;
import org.priodp.aggregator.dap.Report;
import org.priodp.aggregator.dap.ReportId;
import org.priodp.aggregator.dap.ReportMetadata;
import org.priodp.aggregator.dap.Time;

/** The bundle file of the collector_selected mode: one base64url Report per line, strict. */
class ReportBundleTest {
  @TempDir
  Path dir;

  private static Report report(int n) {
    byte[] id = new byte[16];
    id[15] = (byte) n;
    return new Report(new ReportMetadata(new ReportId(id), new Time(n), List.of()), new byte[] {1},
        new HpkeCiphertext(new HpkeConfigId(1), new byte[32], new byte[] {2}),
        new HpkeCiphertext(new HpkeConfigId(2), new byte[32], new byte[] {3}));
  }

  @Test
  void writesOneBase64UrlReportPerLineAndReadsThemBack() throws Exception {
    Path f = dir.resolve("b.txt");
    ReportBundle.write(f, List.of(report(1), report(2)));
    List<String> lines = Files.readAllLines(f);
    assertEquals(2, lines.size());
    assertArrayEquals(report(2).encode(), Base64.getUrlDecoder().decode(lines.get(1)));
    Files.writeString(f, "# reviewed by the site\n\n" + String.join("\n", lines) + "\n",
        java.nio.file.StandardOpenOption.TRUNCATE_EXISTING);
    assertEquals(List.of(report(1), report(2)), ReportBundle.read(f));
  }

  @Test
  void aBadLineIsNamed() throws Exception {
    Path f = dir.resolve("bad.txt");
    Files.writeString(f, Base64.getUrlEncoder().encodeToString(report(1).encode()) + "\nAAAA\n");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ReportBundle.read(f));
    assertTrue(e.getMessage().contains("line 2"), e.getMessage());
    assertThrows(java.io.IOException.class, () -> ReportBundle.read(dir.resolve("none")));
  }
}
