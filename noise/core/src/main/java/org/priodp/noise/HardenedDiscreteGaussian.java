package org.priodp.noise;

import java.math.BigInteger;
import java.util.Objects;
import org.priodp.noise.internal.FixedPointExp;

/**
 * A fixed-work discrete Gaussian sampler (Canonne, Kamath and Steinke 2020, Definition 1): the
 * loop bounds, the operations, the memory accesses and the randomness consumed depend only on
 * sigma^2, never on the value returned, and the output is within total variation distance
 * {@link #delta()} (at most 2^-64 by default) of the exact N_Z(0, sigma^2). The analogue of
 * {@link HardenedDiscreteLaplace} for rho-zCDP tasks.
 *
 * <h2>Method for sigma < 16: one inversion of the whole truncated CDF</h2>
 *
 * With w(z) = e^(-z^2 / (2 sigma^2)) and K the truncation below, Z in (-K, K) has probability
 * w(Z) / sum_(|y| < K) w(y); the sampler reads one 126-bit uniform U and returns -(K - 1) + #{i
 * : U >= T_i} over the 2K - 2 cumulative thresholds T_i, every one compared with masks (a linear
 * scan, no lookup that depends on U). 126 random bits per draw.
 *
 * <h2>Method for sigma >= 16: a fixed number of rejection rounds, constant-time selection</h2>
 *
 * Write w(z) = e^(-z^2 / (2 sigma^2)) and pick a block width k = 2^j (the largest power of two
 * at most floor(sigma)/8, so k >= 2 here) and a number of blocks X (below). (The factory would
 * fall back to rejection rounds with k = 1 if direct inversion missed the bound for some
 * floor(sigma) < 16, but that never happens for a supported bound >= 2^-100: K stays near 200
 * there, so its threshold term (2K - 2) 5 2^-126 is below 2^-114; the test {@code
 * directInversionMeetsTheSmallestSupportedBound} checks it at the top of the direct range.) One
 * round draws
 *
 * <ul>
 *   <li>a block x in [0, X) with probability Q(x) = w(kx) / S, S = sum_(x < X) w(kx), by
 *       inversion of a 126-bit uniform U against the X - 1 cumulative thresholds T_i =
 *       sum_(x < i) Q(x): x = #{i : U >= T_i}, every threshold compared (a linear scan with
 *       masks, no table lookup that depends on U);
 *   <li>an offset y uniform in [0, k) (j random bits) and a sign bit s, giving the candidate Z =
 *       z for s = 0 and Z = -(z + 1) for s = 1, z = kx + y (so |Z| = z + s);
 *   <li>acceptance iff V < e^(-N / (2 sigma^2)) for a second 126-bit uniform V, where N = (y +
 *       s)(2kx + y + s) = (z + s)^2 - (kx)^2 >= 0 is an integer below 2^L, L the bit length of
 *       k^2 (2X - 1): e^(-N / (2 sigma^2)) is the product over the set bits i of N of R_i =
 *       e^(-2^i / (2 sigma^2)), computed as in {@link HardenedDiscreteLaplace} with every product
 *       formed and kept or dropped by a mask.
 * </ul>
 *
 * A round proposes Z with probability Q(x) / (2k) = w(kx) / (2kS) and accepts it with
 * probability w(|Z|) / w(kx), so it returns Z with probability w(Z) / (2kS) for every Z in [-kX,
 * kX): an accepted round returns the discrete Gaussian conditioned on [-kX, kX). The sampler runs
 * exactly R rounds and returns the candidate of the first accepted round, chosen with masks (0
 * if none accepted). Each round reads 253 + j random bits (126 for U, j for y, 1 for s, 126 for
 * V), so a draw reads R (253 + j) bits whatever it returns.
 *
 * <h2>The delta, derived</h2>
 *
 * <b>Direct inversion.</b> Couple the sampler with the exact inversion of the continuous U_c
 * of which it reads u = floor(U_c 2^126). At a threshold with exact value T and stored T', |T' -
 * T| <= e, the decisions [u 2^-126 >= T'] and [U_c >= T] differ only if U_c lies in [T - e, T + e
 * + 2^-126): probability at most 2e + 2^-126. The stored T_i are quotients of 192-bit sums
 * rounded down to 2^-126: with E_y the 192-bit value of w(y) ({@link FixedPointExp}: |E_y - 2^192
 * w(y)| <= 4), A' = sum_(y < i) E_y and S' = sum_y E_y the normalising sum over all n = 2K - 1
 * outcomes, and A, S the exact sums, T'_i = floor(2^126 A'/S') 2^-126. Since A <= S, the
 * quotient errs by |A'/S' - A/S| = |(A' - 2^192 A) - (A/S)(S' - 2^192 S)| / S' <= (4i + 4n)/S'
 * <= 8n/S', and S' >= E_0 >= 2^192 - 4 (w(0) = 1), so by less than 8n 2^-192 (1 + 2^-189) <
 * 16K 2^-192 <= 2^-176 (K <= 2^12, the most the factory tries); with the rounding down e <
 * 2^-126 + 2^-176 <= 2 2^-126: at most 5 2^-126 per threshold. The
 * exact inversion returns the discrete Gaussian conditioned on (-K, K), within P[|Z| >= K] <=
 * tail(K) (below) of the discrete Gaussian, so delta = tail(K) + (2K - 2) 5 2^-126.
 *
 * <p><b>Rejection rounds.</b> Couple the sampler with the exact, infinite-precision rejection sampler I that uses the same
 * rounds with continuous uniforms U_c, V_c (the sampler reads u = floor(U_c 2^126), v =
 * floor(V_c 2^126)) and exact thresholds, and runs until a round accepts. I returns exactly the
 * discrete Gaussian conditioned on [-kX, kX). The sampler and I return different values only if
 *
 * <ol>
 *   <li><b>a decision in the first R rounds differs.</b> At a comparison with exact threshold T
 *       and stored T', |T' - T| <= e, the decisions [u 2^-126 >= T'] and [U_c >= T] differ only
 *       if U_c lies in [T - e, T + e + 2^-126): probability at most 2e + 2^-126. The stored T_i
 *       are quotients A'/S' of 192-bit sums over the X block weights w(kx) rounded down to
 *       2^-126, as in direct inversion: the quotient errs by at most (4i + 4X)/S' <= 8X/S' <
 *       8X 2^-192 (1 + 2^-189) < 2^-176 (X <= 2^12, the most blocks the factory tries), so e <
 *       2^-126 + 2^-176 <= 2 2^-126: 5 2^-126 per threshold, (X - 1) 5 2^-126 per round. The
 *       acceptance threshold is a product of at most L stored factors, each rounded down from
 *       192 bits to units of 2^-127, with the product formed as in {@link
 *       HardenedDiscreteLaplace} (its class comment: each multiplication adds less than 5
 *       2^-126), so e <= (5L + 2) 2^-126 and the acceptance decision differs with probability
 *       at most (10L + 5) 2^-126. The bound is conservative here: the + 2 is the Laplace
 *       sampler's error of its stored constant c, while this product starts from 1, which is
 *       exact; and the 5 per multiplication allows P <= 2 where here P <= 1. Per round:
 *       (5(X - 1) + 10L + 5) 2^-126; over R rounds, R times that (union bound; y and s are
 *       exact).
 *   <li><b>I accepts none of the first R rounds.</b> Probability (1 - p)^R, p the exact
 *       acceptance probability of a round. By Jensen's inequality (e^(-g) is convex) the mean
 *       over y of e^(-N/(2 sigma^2)) is at least e^(-mean N / (2 sigma^2)), and mean N =
 *       ((k - 1)(2k - 1) + 6kx(k - 1)) / 6 for s = 0, ((k + 1)(2k + 1) + 6kx(k + 1)) / 6 for s =
 *       1, so p >= p_low = (1/2) sum_x Q_low(x) (e^(-a_0(x)) + e^(-a_1(x)))_low, every term a
 *       certified lower bound from 192-bit exponentials; 1 - p_low is rounded up to a multiple
 *       of 2^-64, giving q, and (1 - p)^R <= q^R.
 * </ol>
 *
 * And the conditioned distribution is within P[|Z| >= kX] of the discrete Gaussian, which is at
 * most tail(kX) = 2 w(K) / (1 - e^(-(2K + 1)/(2 sigma^2))) for K = kX (the sum of w over z >= K
 * is dominated by a geometric series, since w(z + 1)/w(z) = e^(-(2z + 1)/(2 sigma^2)); the
 * normalizer sum_Z w(Z) is at least w(0) = 1). Hence
 *
 * <pre>
 *   delta = tail(kX) + R (5(X - 1) + 10L + 5) 2^-126 + q^R,
 * </pre>
 *
 * evaluated as an exact {@link Rational} from upper bounds (E + 4)/2^192 of every exponential.
 * The factory takes the smallest X with tail(kX) <= maxDelta/4, then (sigma >= 16) the smallest R
 * (at most {@value #MAX_ROUNDS}) with delta <= maxDelta. For 2^-64: direct with K = 7 at sigma^2 =
 * 1/2 and K = 97 at sigma^2 = 100; k = 8, X = 124, R = 13 at sigma^2 = 10^4; k = 64, X = 158, R
 * = 13 at sigma^2 = 10^6 (the test prints them with the true p and tail next to delta).
 *
 * <h2>Range</h2>
 *
 * sigma^2 in (0, {@value #MAX_SIGMA2_TEXT}]: beyond it the integer N (below about 2.9 sigma^2)
 * no longer fits the 62 bits the fixed-work product handles. The factory refuses larger
 * sigma^2 with a message naming the largest supported value; use the exact {@link
 * DiscreteGaussian} there.
 *
 * <h2>Privacy of a whole share</h2>
 *
 * A share of n independently noised coordinates is within n delta of the exact noise vector
 * (total variation is subadditive over independent coordinates). If the exact mechanism is
 * rho-zCDP, the hardened one is (epsilon, delta_exact(epsilon) + (1 + e^epsilon) n delta)-DP
 * for every epsilon, where delta_exact is the exact mechanism's conversion (CKS 2020,
 * Corollary 13).
 *
 * <h2>Threat model</h2>
 *
 * As for {@link HardenedDiscreteLaplace}: it hides the value from an observer who times the
 * sampler or counts the randomness it consumes (same loop bounds, same constants touched in the
 * same order, same number of random bits, comparisons and selections by arithmetic and masks);
 * it cannot hide what Java does not promise (the JIT may turn arithmetic into branches, GC and
 * safepoints, shared caches, the caller's handling of the value). {@code ./prio-dp audit timing}
 * measures it.
 */
public final class HardenedDiscreteGaussian implements NoiseSampler {

  /** The default bound on delta, 2^-64. */
  public static final Rational DEFAULT_DELTA = HardenedDiscreteLaplace.DEFAULT_DELTA;

  /** The largest supported sigma^2, as text. */
  public static final String MAX_SIGMA2_TEXT = "1000000000000000000";

  /** The largest supported sigma^2, 10^18. */
  public static final Rational MAX_SIGMA2 = Rational.parse(MAX_SIGMA2_TEXT);

  /** The most rejection rounds the factory will use. */
  public static final int MAX_ROUNDS = 256;

  private static final int PRECISION = 192;
  private static final int FRACTION_BITS = 126;
  private static final int MAX_BLOCKS = 1 << 12;
  private static final BigInteger ERR = BigInteger.valueOf(FixedPointExp.ERROR_ULPS);

  private final Rational sigma2;
  private final int blockBits; // j
  private final int blocks; // X
  private final int rounds; // R
  private final int productBits; // L
  private final long[] thresholdHi; // T_i, i in [1, X), in units of 2^-126
  private final long[] thresholdLo;
  private final long[] ratioHi; // R_i = e^(-2^i/(2 sigma^2)) in units of 2^-127
  private final long[] ratioLo;
  private final Rational acceptanceLow;
  private final Rational delta;

  private HardenedDiscreteGaussian(Rational sigma2, int blockBits, int blocks, int rounds, int productBits,
      long[] thresholdHi, long[] thresholdLo, long[] ratioHi, long[] ratioLo, Rational acceptanceLow,
      Rational delta) {
    this.sigma2 = sigma2;
    this.blockBits = blockBits;
    this.blocks = blocks;
    this.rounds = rounds;
    this.productBits = productBits;
    this.thresholdHi = thresholdHi;
    this.thresholdLo = thresholdLo;
    this.ratioHi = ratioHi;
    this.ratioLo = ratioLo;
    this.acceptanceLow = acceptanceLow;
    this.delta = delta;
  }

  /** Returns the hardened sampler for sigma^2 with delta <= 2^-64. */
  public static HardenedDiscreteGaussian of(Rational sigma2) {
    return of(sigma2, DEFAULT_DELTA);
  }

  /**
   * Returns the hardened sampler for sigma^2 with the fewest blocks X, then the fewest rounds R,
   * whose delta (see the class comment) is at most {@code maxDelta}.
   *
   * @throws IllegalArgumentException if sigma^2 is not > 0 or above {@link #MAX_SIGMA2} (the
   *     message names the largest supported value), or maxDelta is not in [2^-100, 1)
   */
  public static HardenedDiscreteGaussian of(Rational sigma2, Rational maxDelta) {
    Objects.requireNonNull(sigma2, "sigma2");
    Objects.requireNonNull(maxDelta, "maxDelta");
    if (sigma2.signum() <= 0) {
      throw new IllegalArgumentException("discrete Gaussian sigma^2 must be > 0, got " + sigma2);
    }
    if (sigma2.compareTo(MAX_SIGMA2) > 0) {
      throw new IllegalArgumentException("sigma^2 " + sigma2 + " is too large for the fixed-work discrete"
          + " Gaussian sampler: the largest supported sigma^2 is " + MAX_SIGMA2_TEXT);
    }
    HardenedDiscreteLaplace.checkDeltaBound(maxDelta);
    BigInteger n = sigma2.numerator();
    BigInteger d = sigma2.denominator();
    int j = blockBits(n, d);
    long k = 1L << j;
    Rational tailBudget = maxDelta.divide(Rational.of(4));
    int x = 1;
    Rational tail = tailBound(n, d, k);
    while (tail.compareTo(tailBudget) > 0) {
      x++;
      if (x > MAX_BLOCKS) {
        throw new IllegalArgumentException("sigma^2 " + sigma2 + ": no truncation meets delta " + maxDelta);
      }
      tail = tailBound(n, d, k * x);
    }
    if (direct(n, d)) {
      Rational delta = tail.add(perThresholdError().multiply(Rational.of(2L * x - 2)));
      if (delta.compareTo(maxDelta) <= 0) {
        return build(sigma2, 0, x, 1, 0, Rational.ONE, delta);
      }
    }
    int l = productBits(k, x);
    if (l > 62) { // N must fit the 62 bits of the fixed-work product; holds up to MAX_SIGMA2 (tested)
      throw new IllegalArgumentException("sigma^2 " + sigma2 + " is too large for the fixed-work discrete"
          + " Gaussian sampler: the largest supported sigma^2 is " + MAX_SIGMA2_TEXT);
    }
    Rational acceptance = acceptanceLowerBound(n, d, j, x);
    Rational failure = roundUp64(Rational.ONE.subtract(acceptance));
    Rational perRound = perRoundError(x, l);
    Rational power = Rational.ONE;
    for (int r = 1; r <= MAX_ROUNDS; r++) {
      power = power.multiply(failure);
      Rational delta = delta(tail, perRound, r, power);
      if (delta.compareTo(maxDelta) <= 0) {
        return build(sigma2, j, x, r, l, acceptance, delta);
      }
    }
    throw new IllegalArgumentException("sigma^2 " + sigma2 + ": more than " + MAX_ROUNDS
        + " rounds would be needed for delta " + maxDelta);
  }

  /**
   * j with 2^j the largest power of two <= floor(sigma)/8 (0 for direct inversion). Blocks of
   * sigma/2, sigma/4 and sigma/16 measured 1.1-2x slower than sigma/8 (fewer blocks but more
   * rounds, or the reverse).
   */
  static int blockBits(BigInteger n, BigInteger d) {
    if (direct(n, d)) {
      return 0;
    }
    BigInteger eighth = n.divide(d).sqrt().shiftRight(3);
    return eighth.signum() == 0 ? 0 : eighth.bitLength() - 1;
  }

  /** True for floor(sigma) < 16: one inversion of the whole truncated CDF. */
  static boolean direct(BigInteger n, BigInteger d) {
    return n.divide(d).sqrt().compareTo(BigInteger.valueOf(16)) < 0;
  }

  /** L, the bit length of k^2 (2X - 1), the largest N. */
  static int productBits(long k, int blocks) {
    return BigInteger.valueOf(k).pow(2).multiply(BigInteger.valueOf(2L * blocks - 1)).bitLength();
  }

  /** e^(-num/den) rounded up: (E + 4) / 2^192. */
  private static Rational expUp(BigInteger num, BigInteger den) {
    return Rational.of(FixedPointExp.expNeg(num, den, PRECISION).add(ERR), BigInteger.ONE.shiftLeft(PRECISION));
  }

  /**
   * tail(K) = 2 w(K) / (1 - e^(-(2K + 1)/(2 sigma^2))) with upper bounds of both exponentials,
   * an upper bound of P[|Z| >= K]; 1 when the bound says nothing.
   */
  static Rational tailBound(BigInteger n, BigInteger d, long bigK) {
    BigInteger kk = BigInteger.valueOf(bigK);
    BigInteger twoN = n.shiftLeft(1);
    Rational w = expUp(kk.multiply(kk).multiply(d), twoN);
    Rational ratio = expUp(kk.shiftLeft(1).add(BigInteger.ONE).multiply(d), twoN);
    if (ratio.compareTo(Rational.ONE) >= 0) {
      return Rational.ONE;
    }
    Rational t = w.multiply(Rational.of(2)).divide(Rational.ONE.subtract(ratio));
    return t.compareTo(Rational.ONE) > 0 ? Rational.ONE : t;
  }

  /**
   * p_low, a lower bound of the probability that a round accepts (the class comment, item 2),
   * from lower bounds (E - 4)/2^192 of every exponential.
   */
  static Rational acceptanceLowerBound(BigInteger n, BigInteger d, int j, int blocks) {
    long k = 1L << j;
    BigInteger bk = BigInteger.valueOf(k);
    BigInteger twoN = n.shiftLeft(1);
    BigInteger twelveN = n.multiply(BigInteger.valueOf(12));
    BigInteger weightUp = BigInteger.ZERO;
    BigInteger sum = BigInteger.ZERO;
    BigInteger c0 = bk.subtract(BigInteger.ONE).multiply(bk.shiftLeft(1).subtract(BigInteger.ONE));
    BigInteger c1 = bk.add(BigInteger.ONE).multiply(bk.shiftLeft(1).add(BigInteger.ONE));
    for (int x = 0; x < blocks; x++) {
      BigInteger kx = bk.multiply(BigInteger.valueOf(x));
      BigInteger e = FixedPointExp.expNeg(kx.multiply(kx).multiply(d), twoN, PRECISION);
      weightUp = weightUp.add(e.add(ERR));
      BigInteger a0 = c0.add(BigInteger.valueOf(6).multiply(kx).multiply(bk.subtract(BigInteger.ONE)));
      BigInteger a1 = c1.add(BigInteger.valueOf(6).multiply(kx).multiply(bk.add(BigInteger.ONE)));
      BigInteger f0 = lower(FixedPointExp.expNeg(a0.multiply(d), twelveN, PRECISION));
      BigInteger f1 = lower(FixedPointExp.expNeg(a1.multiply(d), twelveN, PRECISION));
      sum = sum.add(lower(e).multiply(f0.add(f1)));
    }
    return Rational.of(sum, weightUp.shiftLeft(PRECISION + 1));
  }

  private static BigInteger lower(BigInteger e) {
    return e.subtract(ERR).max(BigInteger.ZERO);
  }

  /** x rounded up to a multiple of 2^-64. */
  static Rational roundUp64(Rational x) {
    BigInteger scaled = x.numerator().shiftLeft(64);
    BigInteger[] qr = scaled.divideAndRemainder(x.denominator());
    BigInteger up = qr[1].signum() == 0 ? qr[0] : qr[0].add(BigInteger.ONE);
    return Rational.of(up, BigInteger.ONE.shiftLeft(64));
  }

  /** (5(X - 1) + 10L + 5) 2^-126, the probability that a decision of one round differs. */
  static Rational perRoundError(int blocks, int productBits) {
    return Rational.of(BigInteger.valueOf(5L * (blocks - 1) + 10L * productBits + 5),
        BigInteger.ONE.shiftLeft(FRACTION_BITS));
  }

  /** 5 2^-126, the probability that the decision at one CDT threshold differs. */
  static Rational perThresholdError() {
    return Rational.of(BigInteger.valueOf(5), BigInteger.ONE.shiftLeft(FRACTION_BITS));
  }

  /** tail + R perRound + q^R: the class comment's bound, exactly. */
  static Rational delta(Rational tail, Rational perRound, int rounds, Rational failurePower) {
    return tail.add(perRound.multiply(Rational.of(rounds))).add(failurePower);
  }

  private static HardenedDiscreteGaussian build(Rational sigma2, int j, int blocks, int rounds, int productBits,
      Rational acceptance, Rational delta) {
    BigInteger n = sigma2.numerator();
    BigInteger d = sigma2.denominator();
    BigInteger twoN = n.shiftLeft(1);
    BigInteger bk = BigInteger.ONE.shiftLeft(j);
    boolean direct = productBits == 0;
    // rejection: the blocks x in [0, X), weight w(kx); direct: Z in (-X, X), weight w(Z)
    int outcomes = direct ? 2 * blocks - 1 : blocks;
    BigInteger[] e = new BigInteger[outcomes];
    BigInteger total = BigInteger.ZERO;
    for (int x = 0; x < outcomes; x++) {
      BigInteger kx = direct ? BigInteger.valueOf(x - blocks + 1) : bk.multiply(BigInteger.valueOf(x));
      e[x] = FixedPointExp.expNeg(kx.multiply(kx).multiply(d), twoN, PRECISION);
      total = total.add(e[x]);
    }
    long[] tHi = new long[outcomes];
    long[] tLo = new long[outcomes];
    BigInteger partial = BigInteger.ZERO;
    for (int i = 1; i < outcomes; i++) {
      partial = partial.add(e[i - 1]);
      BigInteger t = partial.shiftLeft(FRACTION_BITS).divide(total); // T_i rounded down, < 2^126
      tHi[i] = t.shiftRight(64).longValue();
      tLo[i] = t.longValue();
    }
    BigInteger max127 = BigInteger.ONE.shiftLeft(127).subtract(BigInteger.ONE);
    long[] rHi = new long[productBits];
    long[] rLo = new long[productBits];
    for (int i = 0; i < productBits; i++) {
      BigInteger r = FixedPointExp.expNeg(d.shiftLeft(i), twoN, PRECISION).shiftRight(PRECISION - 127).min(max127);
      rHi[i] = r.shiftRight(64).longValue();
      rLo[i] = r.longValue();
    }
    return new HardenedDiscreteGaussian(sigma2, j, blocks, rounds, productBits, tHi, tLo, rHi, rLo, acceptance,
        delta);
  }

  /** Returns sigma^2. */
  public Rational sigma2() {
    return sigma2;
  }

  /** Returns j, the block width being k = 2^j. */
  public int blockBits() {
    return blockBits;
  }

  /** Returns X, the number of blocks (the support is [-kX, kX)). */
  public int blocks() {
    return blocks;
  }

  /** Returns R, the number of rejection rounds every draw runs. */
  public int rounds() {
    return rounds;
  }

  /** Returns L, the number of factors of the acceptance product. */
  public int productBits() {
    return productBits;
  }

  /** Returns p_low, the certified lower bound of one round's acceptance probability. */
  public Rational acceptanceLowerBound() {
    return acceptanceLow;
  }

  /** Returns the exact upper bound on the total variation distance to the discrete Gaussian. */
  public Rational delta() {
    return delta;
  }

  /** Returns delta: each draw is within this total variation of N_Z(0, sigma^2). */
  @Override
  public Rational totalVariationPerDraw() {
    return delta;
  }

  /** Returns the number of random bits every sample consumes: R (253 + j), or 126 when direct. */
  public long bitsPerSample() {
    return direct() ? FRACTION_BITS : rounds * (2L * FRACTION_BITS + 1 + blockBits);
  }

  /** Returns true if draws are one inversion of the whole CDT (no rejection rounds): sigma < 16. */
  public boolean direct() {
    return productBits == 0;
  }

  @Override
  public long sample(RandomSource rnd) {
    if (productBits == 0) {
      // Z = -(X - 1) + #{i : U >= T_i} over the 2X - 2 thresholds, every one compared
      long uHi = rnd.nextBits(62);
      long uLo = rnd.nextLong();
      long z = 1 - blocks;
      for (int i = 1; i < thresholdHi.length; i++) {
        z += 1 ^ HardenedDiscreteLaplace.lessThan(uHi, uLo, thresholdHi[i], thresholdLo[i]);
      }
      return z;
    }
    long result = 0;
    long done = 0; // 1 once a round has accepted
    long[] q = new long[2];
    int j = blockBits;
    for (int round = 0; round < rounds; round++) {
      // the block x = #{i : U >= T_i}, every threshold compared
      long uHi = rnd.nextBits(62);
      long uLo = rnd.nextLong();
      long x = 0;
      for (int i = 1; i < blocks; i++) {
        x += 1 ^ HardenedDiscreteLaplace.lessThan(uHi, uLo, thresholdHi[i], thresholdLo[i]);
      }
      long y = rnd.nextBits(j);
      long s = rnd.nextBits(1);
      long kx = x << j;
      long ys = y + s;
      long big = ys * (2 * kx + ys); // N = (z + s)^2 - (kx)^2 < 2^62
      acceptanceThreshold(big, q);
      long pHi = q[0];
      long pLo = q[1];
      long vHi = rnd.nextBits(62);
      long vLo = rnd.nextLong();
      long accept = HardenedDiscreteLaplace.lessThan(vHi, vLo, pHi, pLo);
      long value = candidate(kx, y, s);
      long take = -(accept & (done ^ 1));
      result = (value & take) | (result & ~take);
      done |= accept;
    }
    return result;
  }

  /**
   * Writes e^(-N / (2 sigma^2)) in units of 2^-126 to {@code q} = {hi, lo}: the acceptance
   * threshold of a round (the class comment, rejection rounds), the product of R_i over the set
   * bits i of N, every product formed and kept or dropped by a mask. {@link #sample} runs it; the
   * test's exact enumeration runs it on every candidate.
   */
  void acceptanceThreshold(long big, long[] q) {
    long pHi = 1L << 62;
    long pLo = 0;
    for (int i = 0; i < productBits; i++) {
      HardenedDiscreteLaplace.multiply(pHi, pLo, ratioHi[i], ratioLo[i], q);
      long qHi = q[0];
      long qLo = q[1];
      long mask = -((big >>> i) & 1);
      pHi = (qHi & mask) | (pHi & ~mask);
      pLo = (qLo & mask) | (pLo & ~mask);
    }
    q[0] = pHi;
    q[1] = pLo;
  }

  /** The candidate of a round: z = kx + y for s = 0, -(z + 1) = ~z for s = 1 (the class comment). */
  static long candidate(long kx, long y, long s) {
    return (kx + y) ^ -s;
  }

  /**
   * Returns the stored cumulative threshold T_i in units of 2^-126 (0 for i = 0), i in [0,
   * {@link #thresholdCount()}): the blocks' CDT in rejection mode, the whole CDT when direct.
   */
  BigInteger threshold(int i) {
    return BigInteger.valueOf(thresholdHi[i]).shiftLeft(64).or(new BigInteger(Long.toUnsignedString(thresholdLo[i])));
  }

  /** Returns the number of inversion outcomes: X in rejection mode, 2X - 1 when direct. */
  int thresholdCount() {
    return thresholdHi.length;
  }

  /**
   * Returns {@link #sample} as a BigInteger. Not fixed-work: {@link BigInteger#valueOf} returns a
   * cached instance for small values and allocates a new one otherwise, so its time and
   * allocation depend on the value. The Prio3 noising path never calls it (it uses {@link #fill}
   * and the field's constant-time projection, {@code PrimeField.setSignedConstantTime}).
   */
  @Override
  public BigInteger sampleBig(RandomSource rnd) {
    return BigInteger.valueOf(sample(rnd));
  }

  /** Always true: every draw lies in [-kX, kX), below 2^62 in magnitude. */
  @Override
  public boolean drawsFitLong() {
    return true;
  }

  /** Returns sigma^2, the variance bound of the exact discrete Gaussian it is within delta of. */
  @Override
  public double variance() { // double: a figure shown to people, never used to sample
    return Accuracy.gaussianVarianceBound(sigma2);
  }

  /** Returns the exact discrete Gaussian's half-width for the same sigma^2. */
  @Override
  public BigInteger halfWidth(int draws, double confidence) { // double: a figure shown to people, never used to sample
    return Accuracy.halfWidth(draws, confidence, (m, c) -> Accuracy.gaussianHalfWidth(sigma2, m, c));
  }

  @Override
  public String describe() {
    return "fixed-work discrete Gaussian with sigma^2 " + sigma2 + " (total variation <= 2^"
        + HardenedDiscreteLaplace.log2(delta) + " from the exact distribution)";
  }

  @Override
  public String toString() {
    return "HardenedDiscreteGaussian(sigma2=" + sigma2 + ", blockBits=" + blockBits + ", blocks=" + blocks
        + ", rounds=" + rounds + ", productBits=" + productBits + ")";
  }
}
