package org.priodp.aggregator.demo;

import java.io.PrintWriter;

/**
 * A progress bar on one line of stderr ({@code \r} redraws it): a label, a bar, done/total and
 * the seconds since the phase began. Drawn at most ten times a second.
 */
final class DemoProgress {
  private static final int WIDTH = 30;
  private final PrintWriter err;
  private final String label;
  private final long total;
  private final long start = System.nanoTime();
  private long lastDrawn = Long.MIN_VALUE;
  private boolean drawn;

  DemoProgress(PrintWriter err, String label, long total) {
    this.err = err;
    this.label = label;
    this.total = Math.max(1, total);
  }

  /** Redraws the bar with {@code done} of the total, unless it was drawn less than 0.1 s ago. */
  synchronized void update(long done) {
    long now = System.nanoTime();
    if (drawn && now - lastDrawn < 100_000_000L && done < total) {
      return;
    }
    lastDrawn = now;
    drawn = true;
    long d = Math.max(0, Math.min(done, total));
    int filled = (int) (d * WIDTH / total);
    err.printf("\r  %-12s [%s%s] %d/%d, %.1f s", label, "#".repeat(filled),
        "-".repeat(WIDTH - filled), d, total, seconds());
    err.flush();
  }

  /** Draws the bar full and ends its line; returns the phase's seconds. */
  synchronized double finish() {
    lastDrawn = Long.MIN_VALUE;
    drawn = false;
    update(total);
    err.println();
    err.flush();
    return seconds();
  }

  /** Ends the bar's line without filling it (the phase failed). */
  synchronized void abandon() {
    if (drawn) {
      err.println();
      err.flush();
    }
  }

  private double seconds() {
    return (System.nanoTime() - start) / 1e9;
  }
}
