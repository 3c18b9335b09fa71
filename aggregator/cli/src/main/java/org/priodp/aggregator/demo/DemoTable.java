package org.priodp.aggregator.demo;

import java.io.PrintWriter;
import org.priodp.vdaf.dp.UnshardResult;

/** Prints the collector's view next to the truth: bucket, true count, noisy count, interval. */
final class DemoTable {
  private DemoTable() {}

  /** Prints one row per bucket and a closing line on how many intervals cover the truth. */
  static int print(PrintWriter out, long[] trueCounts, UnshardResult result) {
    return print(out, trueCounts, result, "bucket", "true count", "noisy count");
  }

  /**
   * Prints one row per coordinate under the given column names (e.g. "source", "true value",
   * "noisy value") and a closing line on how many intervals cover the truth.
   */
  static int print(PrintWriter out, long[] trueCounts, UnshardResult result, String coordinate,
      String truth, String noisy) {
    int covered = 0;
    out.printf("%n  %6s  %10s  %10s  %-24s%n", coordinate, truth, noisy,
        String.format("%.0f%% interval", 100 * result.confidence()));
    for (int i = 0; i < trueCounts.length; i++) {
      String interval = "[" + result.lower(i) + ", " + result.upper(i) + "]";
      boolean inside = result.lower(i).longValueExact() <= trueCounts[i]
          && trueCounts[i] <= result.upper(i).longValueExact();
      covered += inside ? 1 : 0;
      out.printf("  %6d  %10d  %10s  %-24s%s%n", i, trueCounts[i], result.estimates().get(i),
          interval, inside ? "" : "  (true count outside)");
    }
    out.printf("  %d of %d intervals contain the true %s%n", covered, trueCounts.length,
        truth.replaceFirst("^true ", ""));
    return covered;
  }
}
