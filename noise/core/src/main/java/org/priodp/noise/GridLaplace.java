package org.priodp.noise;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * The Laplace mechanism for real-valued queries (lecture, Definitions 7 and 11: f(x) + Lap(Δf/ε)
 * per coordinate) made exact: each coordinate of f(x), given as a {@link BigDecimal}, is snapped
 * to the grid of granularity 2^-k, discrete Laplace noise is added in grid units, and the result
 * is returned exactly as a BigDecimal.
 *
 * <p><b>Sensitivity after rounding.</b> Snapping is r(u) = floor(u 2^k + 1/2). For reals u >= v,
 * r(u) - r(v) is an integer below (u - v) 2^k + 1, so |r(u) - r(v)| <= ceil(|u - v| 2^k). If the
 * query has L1 sensitivity Δ over d coordinates, the snapped vectors differ in L1 by at most a
 * sum of d ceilings of non-negative reals summing to at most D = Δ 2^k; that sum is an integer
 * below D + d, hence at most ceil(D) + d - 1. The mechanism therefore uses the grid sensitivity
 * GS = ceil(Δ 2^k) + d - 1 and discrete Laplace noise of scale GS/ε in grid units (exact
 * sampler, {@link DiscreteLaplace}); by the proof of Theorem 8 (with the discrete Laplace
 * density e^(-|z|/t) in place of the continuous one) it is exactly ε-DP. For a scalar with Δ
 * 2^k an integer the rounding costs nothing; otherwise the noise grows by the factor GS/(Δ 2^k),
 * which a finer grid brings towards 1.
 *
 * <p>Accuracy (doubles, for people): {@link Accuracy#lectureLaplaceBound} gives the lecture's
 * ln(d/δ)·Δ/ε (Theorem 12) and {@link Accuracy#gridLaplaceHalfWidth} the exact tail of this
 * mechanism.
 */
public final class GridLaplace {
  /** Largest accepted grid exponent k (granularity 2^-k). */
  public static final int MAX_GRID_BITS = 256;

  private final Rational sensitivityL1;
  private final int dimension;
  private final int gridBits;
  private final Rational epsilon;
  private final BigInteger gridSensitivity;
  private final DiscreteLaplace noise;

  private GridLaplace(Rational sensitivityL1, int dimension, int gridBits, Rational epsilon) {
    this.sensitivityL1 = sensitivityL1;
    this.dimension = dimension;
    this.gridBits = gridBits;
    this.epsilon = epsilon;
    this.gridSensitivity = sensitivityL1.multiply(Rational.of(BigInteger.ONE.shiftLeft(gridBits))).ceil()
        .add(BigInteger.valueOf(dimension - 1));
    this.noise = DiscreteLaplace.of(Rational.of(gridSensitivity).divide(epsilon));
  }

  /**
   * Returns the mechanism for queries of L1 sensitivity Δ over {@code dimension} coordinates,
   * the grid 2^-{@code gridBits}, and the budget.
   *
   * @throws IllegalArgumentException if Δ <= 0, dimension < 1 or gridBits is outside [0,
   *     {@value #MAX_GRID_BITS}]
   */
  public static GridLaplace of(Rational sensitivityL1, int dimension, int gridBits, Budget.PureDp budget) {
    Objects.requireNonNull(sensitivityL1, "sensitivityL1");
    Objects.requireNonNull(budget, "budget");
    if (sensitivityL1.signum() <= 0) {
      throw new IllegalArgumentException("L1 sensitivity must be > 0, got " + sensitivityL1);
    }
    if (dimension < 1) {
      throw new IllegalArgumentException("dimension must be >= 1, got " + dimension);
    }
    if (gridBits < 0 || gridBits > MAX_GRID_BITS) {
      throw new IllegalArgumentException(
          "grid bits k must be in [0, " + MAX_GRID_BITS + "] (granularity 2^-k), got " + gridBits);
    }
    return new GridLaplace(sensitivityL1, dimension, gridBits, budget.epsilon());
  }

  /** Returns the query's L1 sensitivity Δ as given. */
  public Rational sensitivityL1() {
    return sensitivityL1;
  }

  /** Returns the number of coordinates d. */
  public int dimension() {
    return dimension;
  }

  /** Returns k, the grid being multiples of 2^-k. */
  public int gridBits() {
    return gridBits;
  }

  /** Returns epsilon. */
  public Rational epsilon() {
    return epsilon;
  }

  /** Returns the granularity 2^-k, exactly. */
  public BigDecimal granularity() {
    return BigDecimal.ONE.divide(new BigDecimal(BigInteger.ONE.shiftLeft(gridBits)));
  }

  /** Returns GS = ceil(Δ 2^k) + d - 1, the L1 sensitivity of the snapped query in grid units. */
  public BigInteger gridSensitivity() {
    return gridSensitivity;
  }

  /** Returns the noise in grid units: discrete Laplace of scale GS/ε. */
  public DiscreteLaplace noise() {
    return noise;
  }

  /** Returns r(x) = floor(x 2^k + 1/2), the grid point nearest x in grid units (ties up). */
  public BigInteger snap(BigDecimal x) {
    Objects.requireNonNull(x, "value");
    BigDecimal scaled = new BigDecimal(BigInteger.ONE.shiftLeft(gridBits)).multiply(x);
    return scaled.add(new BigDecimal("0.5")).setScale(0, RoundingMode.FLOOR).toBigIntegerExact();
  }

  /**
   * Releases a scalar query answer (dimension 1): (r(x) + Z) 2^-k.
   *
   * @throws IllegalArgumentException if the mechanism's dimension is not 1
   */
  public BigDecimal release(BigDecimal value, RandomSource rnd) {
    return release(List.of(value), rnd).get(0);
  }

  /**
   * Releases a vector query answer: (r(x_i) + Z_i) 2^-k for each coordinate, with independent
   * Z_i.
   *
   * @throws IllegalArgumentException if the number of coordinates is not the dimension
   */
  public List<BigDecimal> release(List<BigDecimal> values, RandomSource rnd) {
    Objects.requireNonNull(values, "values");
    if (values.size() != dimension) {
      throw new IllegalArgumentException(
          "mechanism has dimension " + dimension + ", got " + values.size() + " values");
    }
    BigDecimal g = granularity();
    List<BigDecimal> out = new ArrayList<>(dimension);
    for (BigDecimal v : values) {
      out.add(new BigDecimal(snap(v).add(noise.sampleBig(rnd))).multiply(g));
    }
    return Collections.unmodifiableList(out);
  }

  @Override
  public String toString() {
    return "GridLaplace(sensitivity=" + sensitivityL1 + ", d=" + dimension + ", grid=2^-" + gridBits
        + ", epsilon=" + epsilon + ", grid sensitivity=" + gridSensitivity + ")";
  }
}
