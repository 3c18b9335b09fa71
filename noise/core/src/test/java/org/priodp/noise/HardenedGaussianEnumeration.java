package org.priodp.noise;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.Arrays;
import org.priodp.noise.internal.FixedPointExp;

/**
 * The exact output distribution of {@link HardenedDiscreteGaussian#sample} and its exact total
 * variation to N_Z(0, sigma^2), without statistics and without the sampler's own error terms.
 *
 * <p>Direct mode: output -(X - 1) + i has probability (T_(i+1) - T_i) / 2^126 over the stored
 * thresholds (T_0 = 0, T_(2X-1) = 2^126). Rejection mode: one round yields the candidate of
 * (block x, offset y, sign s) with probability (T_(x+1) - T_x) 2^-126 / (2k) times its acceptance
 * probability P / 2^126, P the sampler's own masked fixed-point product {@link
 * HardenedDiscreteGaussian#acceptanceThreshold} (exact: V is a uniform 126-bit integer and the
 * decision is V < P). Summed, alpha(z) per output and p = sum alpha, all exact integers in units
 * of 2^-(253 + j). The R rounds in closed form: P[Z = z] = alpha(z) (1 - (1 - p)^R) / p, plus (1
 * - p)^R at 0 (no round accepted). The reference PMF w(z) / sum w is evaluated from {@link
 * FixedPointExp} at 400 bits (every 256th weight directly, the ones between by the exact
 * recurrence w(z + 1) = w(z) e^(-1/(2 sigma^2)) e^(-z/sigma^2) in 400-bit fixed point), the sums
 * and the TV in 80-digit decimals.
 *
 * <p>A {@link Variant} other than {@link Variant#EXACT} enumerates a plausible bug instead of
 * the sampler (the negative controls): the enumeration must tell it apart.
 */
final class HardenedGaussianEnumeration {
  static final MathContext MC = new MathContext(80);
  private static final int BITS = 400;
  private static final int ANCHOR = 256;

  /** What is enumerated: the sampler itself, or the sampler with one plausible bug. */
  enum Variant {
    /** The sampler as it is. */
    EXACT,
    /** Rejection mode with one round instead of R. */
    ONE_ROUND,
    /** Rejection mode with two rounds instead of R. */
    TWO_ROUNDS,
    /** The all-rounds-fail output counted twice at 0. */
    FAIL_COUNTED_TWICE,
    /** The sign mapped to -z instead of -(z + 1): 0 drawn from both signs, -kX never. */
    SIGN_DOUBLES_ZERO,
    /** A biased offset: y = k - 1 never drawn, y = 0 twice as often (a "mod (k - 1)" bug). */
    BIASED_OFFSET,
    /** The acceptance product ignores the sign: N = y (2kx + y) for both signs. */
    ACCEPTANCE_IGNORES_SIGN,
    /** Direct mode off by one: interval i returns -X + i instead of -(X - 1) + i. */
    DIRECT_OFF_BY_ONE
  }

  /** The outcome: the total mass of the enumerated distribution and its TV to N_Z(0, sigma^2). */
  record Result(BigDecimal mass, BigDecimal tv, BigDecimal failMass) {
    /** True if the mass is 1 (to 60 digits) and the TV is at most delta. */
    boolean within(Rational delta) {
      return mass.subtract(BigDecimal.ONE).abs().compareTo(BigDecimal.ONE.movePointLeft(60)) <= 0
          && tv.compareTo(decimal(delta)) <= 0;
    }

    /** log2 of the TV, for people. */
    double log2Tv() { // double: a figure printed for people
      return Math.log(tv.doubleValue()) / Math.log(2);
    }
  }

  private HardenedGaussianEnumeration() {}

  /** Enumerates {@code variant} of {@code h} and measures it against N_Z(0, sigma^2). */
  static Result enumerate(HardenedDiscreteGaussian h, Variant variant) {
    long k = 1L << h.blockBits();
    long support = k * h.blocks(); // outputs in [-support, support]
    long offset = support + 1; // index of 0 in out
    BigInteger[] out = new BigInteger[(int) (2 * support + 3)];
    Arrays.fill(out, BigInteger.ZERO);
    BigInteger two126 = BigInteger.ONE.shiftLeft(126);
    int n = h.thresholdCount();
    BigDecimal failMass = BigDecimal.ZERO;
    BigDecimal[] p;
    if (h.direct()) {
      int shift = variant == Variant.DIRECT_OFF_BY_ONE ? -1 : 0;
      for (int i = 0; i < n; i++) {
        BigInteger width = (i == n - 1 ? two126 : h.threshold(i + 1)).subtract(h.threshold(i));
        int z = 1 - h.blocks() + i + shift;
        out[(int) (z + offset)] = out[(int) (z + offset)].add(width);
      }
      p = scaled(out, BigDecimal.ONE.divide(new BigDecimal(two126), MC));
    } else {
      int j = h.blockBits();
      long[] q = new long[2];
      BigInteger accept = BigInteger.ZERO; // p in units of 2^-(253 + j)
      for (int x = 0; x < n; x++) {
        BigInteger width = (x == n - 1 ? two126 : h.threshold(x + 1)).subtract(h.threshold(x));
        long kx = (long) x << j;
        for (long y = 0; y < k; y++) {
          long yWeight = offsetWeight(variant, y, k);
          if (yWeight == 0) {
            continue;
          }
          for (long s = 0; s < 2; s++) {
            long ys = y + (variant == Variant.ACCEPTANCE_IGNORES_SIGN ? 0 : s);
            h.acceptanceThreshold(ys * (2 * kx + ys), q);
            BigInteger alpha = width.multiply(unsigned126(q[0], q[1])).multiply(BigInteger.valueOf(yWeight));
            long value = variant == Variant.SIGN_DOUBLES_ZERO ? (s == 0 ? kx + y : -(kx + y))
                : HardenedDiscreteGaussian.candidate(kx, y, s);
            out[(int) (value + offset)] = out[(int) (value + offset)].add(alpha);
            accept = accept.add(alpha);
          }
        }
      }
      BigDecimal unit = BigDecimal.ONE.divide(new BigDecimal(BigInteger.ONE.shiftLeft(253 + j)), MC);
      BigDecimal acc = new BigDecimal(accept).multiply(unit, MC);
      int rounds = variant == Variant.ONE_ROUND ? 1 : variant == Variant.TWO_ROUNDS ? 2 : h.rounds();
      failMass = BigDecimal.ONE.subtract(acc, MC).pow(rounds, MC);
      BigDecimal scale = BigDecimal.ONE.subtract(failMass, MC).divide(acc, MC).multiply(unit, MC);
      BigDecimal atZero = variant == Variant.FAIL_COUNTED_TWICE ? failMass.multiply(BigDecimal.valueOf(2)) : failMass;
      p = scaled(out, scale);
      p[(int) offset] = p[(int) offset].add(atZero, MC);
    }
    return compare(h.sigma2(), p, offset, failMass);
  }

  /** The weight (in units of 1/k) of offset y: 1, or the biased variant's 2, 1, ..., 1, 0. */
  private static long offsetWeight(Variant variant, long y, long k) {
    if (variant != Variant.BIASED_OFFSET) {
      return 1;
    }
    return y == 0 ? 2 : y == k - 1 ? 0 : 1;
  }

  private static BigDecimal[] scaled(BigInteger[] out, BigDecimal scale) {
    BigDecimal[] p = new BigDecimal[out.length];
    for (int i = 0; i < out.length; i++) {
      p[i] = out[i].signum() == 0 ? BigDecimal.ZERO : new BigDecimal(out[i]).multiply(scale, MC);
    }
    return p;
  }

  /** Mass and TV of p (p[i] the probability of i - offset) against N_Z(0, sigma^2). */
  private static Result compare(Rational sigma2, BigDecimal[] p, long offset, BigDecimal failMass) {
    BigInteger[] w = weights(sigma2, Math.max(offset, range(sigma2)));
    BigInteger normFixed = w[0];
    for (int z = 1; z < w.length; z++) {
      normFixed = normFixed.add(w[z].shiftLeft(1));
    }
    BigDecimal invNorm = BigDecimal.ONE.divide(new BigDecimal(normFixed), MC);
    BigDecimal mass = BigDecimal.ZERO;
    BigDecimal l1 = BigDecimal.ZERO;
    for (long z = -(w.length - 1); z < w.length; z++) {
      BigDecimal dg = new BigDecimal(w[(int) Math.abs(z)]).multiply(invNorm, MC);
      long i = z + offset;
      BigDecimal pz = i >= 0 && i < p.length ? p[(int) i] : BigDecimal.ZERO;
      mass = mass.add(pz, MC);
      l1 = l1.add(pz.subtract(dg, MC).abs(), MC);
    }
    return new Result(mass, l1.divide(BigDecimal.valueOf(2), MC), failMass);
  }

  /** 15 sigma + 40: the reference mass beyond it is below e^-112, far below the TV resolved. */
  private static long range(Rational sigma2) {
    return 15 * sigma2.ceil().sqrt().longValueExact() + 40;
  }

  /** w(z) = e^(-z^2 / (2 sigma^2)) for z in [0, upTo] in units of 2^-400. */
  private static BigInteger[] weights(Rational sigma2, long upTo) {
    BigInteger n = sigma2.numerator();
    BigInteger d = sigma2.denominator();
    BigInteger twoN = n.shiftLeft(1);
    BigInteger half = FixedPointExp.expNeg(d, twoN, BITS); // e^(-1/(2 sigma^2))
    BigInteger[] w = new BigInteger[(int) upTo + 1];
    BigInteger step = BigInteger.ZERO; // e^(-z/sigma^2)
    BigInteger ratio = FixedPointExp.expNeg(d, n, BITS); // e^(-1/sigma^2)
    for (int z = 0; z <= upTo; z++) {
      if (z % ANCHOR == 0) {
        BigInteger bz = BigInteger.valueOf(z);
        w[z] = FixedPointExp.expNeg(bz.multiply(bz).multiply(d), twoN, BITS);
        step = FixedPointExp.expNeg(bz.multiply(d), n, BITS);
      } else {
        w[z] = w[z - 1].multiply(half).shiftRight(BITS).multiply(step).shiftRight(BITS);
        step = step.multiply(ratio).shiftRight(BITS);
      }
    }
    return w;
  }

  private static BigInteger unsigned126(long hi, long lo) {
    return BigInteger.valueOf(hi).shiftLeft(64).or(new BigInteger(Long.toUnsignedString(lo)));
  }

  static BigDecimal decimal(Rational r) {
    return new BigDecimal(r.numerator()).divide(new BigDecimal(r.denominator()), MC);
  }
}
