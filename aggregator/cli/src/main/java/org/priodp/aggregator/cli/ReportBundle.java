package org.priodp.aggregator.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.priodp.aggregator.dap.Report;

/**
 * A bundle of encoded reports in a file, for the collector_selected batch mode
 * (draft-ietf-ppm-dap-attribution-00 section 4: Clients hand their reports to the website, which
 * uploads a bundle to its collection job): one DAP {@code Report} per line, its encoding in
 * base64url without padding. One per line so that a website can review, filter and concatenate
 * bundles with ordinary tools; blank lines and lines starting with {@code #} are skipped.
 */
final class ReportBundle {
  private ReportBundle() {
  }

  /** Writes the reports, one base64url line each; replaces the file. */
  static void write(Path file, List<Report> reports) throws IOException {
    StringBuilder b = new StringBuilder();
    Base64.Encoder enc = Base64.getUrlEncoder().withoutPadding();
    for (Report r : reports) {
      b.append(enc.encodeToString(r.encode())).append('\n');
    }
    Files.writeString(file, b, StandardCharsets.US_ASCII);
  }

  /**
   * Reads the reports of a bundle file; a line that is not base64url or not one Report is an
   * IllegalArgumentException naming the file and line.
   */
  static List<Report> read(Path file) throws IOException {
    if (!Files.isRegularFile(file)) {
      throw new IOException("--reports " + file + ": no such file");
    }
    List<Report> out = new ArrayList<>();
    int n = 0;
    for (String line : Files.readAllLines(file, StandardCharsets.US_ASCII)) {
      n++;
      String l = line.strip();
      if (l.isEmpty() || l.startsWith("#")) {
        continue;
      }
      try {
        out.add(Report.decode(Base64.getUrlDecoder().decode(l)));
      } catch (IllegalArgumentException e) { // DapDecodeException included
        throw new IllegalArgumentException("--reports " + file + " line " + n
            + ": not one base64url-encoded DAP Report (" + e.getMessage() + ")", e);
      }
    }
    return out;
  }
}
