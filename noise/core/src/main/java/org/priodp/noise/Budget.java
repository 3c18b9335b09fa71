package org.priodp.noise;

import java.util.Objects;

/**
 * A privacy budget: pure epsilon-DP or zero-concentrated rho-zCDP, held exactly.
 *
 * <p>The set is closed. Both parameters must be strictly positive.
 */
public sealed interface Budget permits Budget.PureDp, Budget.ZCdp {

  /** Returns the budget's parameter: epsilon for pure DP, rho for zCDP. */
  Rational parameter();

  /** Pure epsilon-differential privacy. */
  record PureDp(Rational epsilon) implements Budget {
    /** Validates that epsilon > 0. */
    public PureDp {
      Objects.requireNonNull(epsilon, "epsilon");
      if (epsilon.signum() <= 0) {
        throw new IllegalArgumentException("epsilon must be > 0, got " + epsilon);
      }
    }

    /** Parses epsilon from a decimal or a fraction, e.g. "0.1" or "1/10". */
    public static PureDp parse(String epsilon) {
      return new PureDp(Rational.parsePositive("epsilon", epsilon));
    }

    /** Returns epsilon. */
    @Override
    public Rational parameter() {
      return epsilon;
    }

    /**
     * Returns the zCDP guarantee that epsilon-DP implies: rho = epsilon^2 / 2 (Bun and Steinke
     * 2016, Proposition 1.4), exactly.
     */
    public ZCdp toZCdp() {
      return new ZCdp(epsilon.square().divide(Rational.of(2)));
    }
  }

  /** Zero-concentrated differential privacy with parameter rho. */
  record ZCdp(Rational rho) implements Budget {
    /** Validates that rho > 0. */
    public ZCdp {
      Objects.requireNonNull(rho, "rho");
      if (rho.signum() <= 0) {
        throw new IllegalArgumentException("rho must be > 0, got " + rho);
      }
    }

    /** Parses rho from a decimal or a fraction, e.g. "0.5" or "1/2". */
    public static ZCdp parse(String rho) {
      return new ZCdp(Rational.parsePositive("rho", rho));
    }

    /** Returns rho. */
    @Override
    public Rational parameter() {
      return rho;
    }
  }
}
