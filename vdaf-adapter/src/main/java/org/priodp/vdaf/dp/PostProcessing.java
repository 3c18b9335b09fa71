package org.priodp.vdaf.dp;

/**
 * Optional post-processing of a noised aggregate on the collector, off by default.
 *
 * <p>Post-processing a differentially private result cannot weaken its privacy, but it biases
 * the estimates and the confidence intervals no longer describe the post-processed values: the
 * collector reports them separately and marks them as post-processed.
 */
public enum PostProcessing {
  /** None: the estimates are the lifted noisy values. */
  NONE("none"),
  /**
   * Clamp each value to the range a noise-free aggregate can take: [0, n * m] for n
   * measurements and per-coordinate maximum m (1 for Count, Histogram and MultihotCountVec,
   * max_measurement for Sum and SumVec, max_value for L1BoundSum).
   */
  CLAMP("clamp"),
  /**
   * Prio3Histogram only: clamp at 0, then rescale to integers that sum to the number of
   * measurements (largest-remainder rounding, ties to the lower index).
   */
  ROUND_HISTOGRAM_TO_COUNT("round-histogram-to-count");

  private final String cliName;

  PostProcessing(String cliName) {
    this.cliName = cliName;
  }

  /** Returns the command-line spelling, e.g. "round-histogram-to-count". */
  public String cliName() {
    return cliName;
  }

  /**
   * Parses the command-line spelling.
   *
   * @throws IllegalArgumentException for an unknown name, listing the accepted ones
   */
  public static PostProcessing parse(String name) {
    for (PostProcessing p : values()) {
      if (p.cliName.equals(name)) {
        return p;
      }
    }
    throw new IllegalArgumentException(
        "unknown post-processing '" + name + "': use none, clamp or round-histogram-to-count");
  }
}
