package org.priodp.noise.compress.dql;

/**
 * The privacy and cost statements of the DQL paper as functions: database epsilon * d-privacy
 * and decoder ell * epsilon * d-privacy with the l1 metric (Theorem 7), and the Theorem 8 bound
 * on the expected length of the signed Elias delta description.
 */
public final class DqlGuarantees {
  private static final double LOG2E = 1 / Math.log(2);

  private DqlGuarantees() {}

  /** Returns epsilon: X-hat is epsilon * d-private against the database (Theorem 7). */
  public static double databaseEpsilon(DqlParameters p) {
    return p.epsilon();
  }

  /** Returns ell * epsilon: (U, M) is ell epsilon * d-private against the decoder (Theorem 7). */
  public static double decoderEpsilon(DqlParameters p) {
    return p.ell() * p.epsilon();
  }

  /** Returns the bound epsilon ||x - x'||_1 on the database's privacy loss between x and x'. */
  public static double databasePrivacyLoss(DqlParameters p, double[] x, double[] xPrime) {
    return databaseEpsilon(p) * l1Distance(x, xPrime);
  }

  /** Returns the bound ell epsilon ||x - x'||_1 on the decoder's privacy loss between x and x'. */
  public static double decoderPrivacyLoss(DqlParameters p, double[] x, double[] xPrime) {
    return decoderEpsilon(p) * l1Distance(x, xPrime);
  }

  /** Returns L(z) = z log2(e) + 2 log2(z log2(e) + 1) + 1 of Theorem 8. */
  public static double lengthFunction(double z) {
    return z * LOG2E + 2 * Math.log(z * LOG2E + 1) * LOG2E + 1;
  }

  /**
   * Returns the Theorem 8 bound on the expected signed Elias delta length (bits) of the
   * description of x: n L(ln(2 epsilon ||x||_1 / n + (9/8) ln(2 ell ln ell + 1) + 2)
   * + E[-ln delta_T]), with E[-ln delta_T] computed from the mixture.
   */
  public static double expectedLengthBound(DqlParameters p, double[] x) {
    return lengthBound(p, x, DqlMixture.of(p.ell()).expectedMinusLogDelta());
  }

  /**
   * Returns the paper's closed-form version of the Theorem 8 bound, with E[-ln delta_T]
   * replaced by ln(e / (ell - 1) + 1) - 1/2 (checked numerically in the paper and in
   * DqlGuaranteesTest).
   */
  public static double expectedLengthBoundClosedForm(DqlParameters p, double[] x) {
    return lengthBound(p, x, Math.log(Math.E / (p.ell() - 1) + 1) - 0.5);
  }

  private static double lengthBound(DqlParameters p, double[] x, double levelTerm) {
    int n = x.length;
    if (n == 0) {
      return 0;
    }
    double norm = 0;
    for (double v : x) {
      norm += Math.abs(v);
    }
    double ell = p.ell();
    double inner = 2 * p.epsilon() * norm / n + 9.0 / 8 * Math.log(2 * ell * Math.log(ell) + 1) + 2;
    return n * lengthFunction(Math.log(inner) + levelTerm);
  }

  private static double l1Distance(double[] x, double[] xPrime) {
    if (x.length != xPrime.length) {
      throw new IllegalArgumentException("vectors differ in length: " + x.length + " and " + xPrime.length);
    }
    double d = 0;
    for (int i = 0; i < x.length; i++) {
      d += Math.abs(x[i] - xPrime[i]);
    }
    return d;
  }
}
