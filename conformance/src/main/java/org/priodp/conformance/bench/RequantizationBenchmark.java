package org.priodp.conformance.bench;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.priodp.conformance.reproduce.RequantizationReproduction;
import org.priodp.noise.compress.requantization.RequantizationDesign;

/**
 * Time to design the randomized requantization channels of the paper's Fig. 1 (requantization
 * paper, Sec. 4: R = 4, ratios 1, 0.75, 0.5, 0.25, family of 153 Gaussians), single shot per
 * iteration: {@code figure1Sweep} designs the whole reproduction (52 distortion bounds 0.25..13
 * per ratio, bisection with one Hipparchus LP per step, exact channels), {@code fourRatios} one
 * channel per ratio at delta = 6. Target: the sweep in 5 s or less.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class RequantizationBenchmark {

  private RequantizationReproduction.Setup setup;
  private double[] deltas;

  /** Builds the alphabets and the family (not timed). */
  @Setup
  public void setup() {
    setup = RequantizationReproduction.Setup.paper();
    deltas = RequantizationReproduction.Settings.paper().deltas();
  }

  /** Designs all channels of Fig. 1 (4 ratios x 52 bounds; infeasible bounds are skipped). */
  @Benchmark
  public int figure1Sweep() {
    int designed = 0;
    for (int k = 0; k < RequantizationReproduction.BITS_OUT.length; k++) {
      List<RequantizationDesign> all = setup.designer(k).designAll(deltas);
      for (RequantizationDesign d : all) {
        designed += d == null ? 0 : 1;
      }
    }
    return designed;
  }

  /** Designs one channel per ratio at delta = 6 (feasible for all four). */
  @Benchmark
  public double fourRatios() {
    double s = 0;
    for (int k = 0; k < RequantizationReproduction.BITS_OUT.length; k++) {
      s += setup.designer(k).design(6.0).guaranteedEpsilon();
    }
    return s;
  }
}
