package org.priodp.noise.internal;

import java.math.BigInteger;
import org.priodp.noise.RandomSource;

/**
 * Exact sampling primitives after Canonne, Kamath and Steinke, "The Discrete Gaussian for
 * Differential Privacy" (2020), Algorithms 1-3, with a {@code long} fast path and a BigInteger
 * path.
 *
 * <p>Bernoulli(n/d) compares a lazily generated uniform real in [0, 1) with the binary
 * expansion of n/d, one bit at a time: the first differing bit decides, so a draw costs two
 * random bits on average and is exact. Uniform integers use Lumbroso's Fast Dice Roller, exact
 * and within two bits of log2(n) on average.
 *
 * <p>The {@code long} methods require the documented bounds; callers check them (or catch the
 * {@link ArithmeticException} that overflow-checked steps throw) and fall back to the
 * BigInteger methods, which draw from the same distributions.
 */
public final class Exact {
  /** Largest denominator the {@code long} Bernoulli handles: 2d must not overflow. */
  public static final long MAX_LONG_DENOMINATOR = 1L << 61;

  private static final BigInteger BIG_MAX_LONG_DENOMINATOR = BigInteger.valueOf(MAX_LONG_DENOMINATOR);

  private Exact() {}

  // ------------------------------------------------------------------ uniform integers

  /** Returns a uniform integer in [0, n) for 1 <= n <= 2^61 (Fast Dice Roller). */
  public static long uniform(long n, RandomSource rnd) {
    long v = 1;
    long c = 0;
    while (true) {
      v <<= 1;
      c = (c << 1) | rnd.nextBit();
      if (v >= n) {
        if (c < n) {
          return c;
        }
        v -= n;
        c -= n;
      }
    }
  }

  /** Returns a uniform integer in [0, n) for n >= 1 (Fast Dice Roller on BigIntegers). */
  public static BigInteger uniform(BigInteger n, RandomSource rnd) {
    if (n.compareTo(BIG_MAX_LONG_DENOMINATOR) <= 0) {
      return BigInteger.valueOf(uniform(n.longValueExact(), rnd));
    }
    BigInteger v = BigInteger.ONE;
    BigInteger c = BigInteger.ZERO;
    while (true) {
      v = v.shiftLeft(1);
      c = c.shiftLeft(1);
      if (rnd.nextBit() == 1) {
        c = c.setBit(0);
      }
      if (v.compareTo(n) >= 0) {
        if (c.compareTo(n) < 0) {
          return c;
        }
        v = v.subtract(n);
        c = c.subtract(n);
      }
    }
  }

  // ------------------------------------------------------------------ Bernoulli(n/d)

  /** Returns true with probability n/d, for 0 <= n <= d <= 2^61. */
  public static boolean bernoulli(long n, long d, RandomSource rnd) {
    if (n == 0) {
      return false;
    }
    if (n == d) {
      return true;
    }
    long r = n;
    while (true) {
      r <<= 1;
      int pbit = 0;
      if (r >= d) {
        pbit = 1;
        r -= d;
      }
      int w = rnd.nextBit();
      if (w != pbit) {
        return w < pbit;
      }
    }
  }

  /** Returns true with probability n/d, for 0 <= n <= d. */
  public static boolean bernoulli(BigInteger n, BigInteger d, RandomSource rnd) {
    if (d.compareTo(BIG_MAX_LONG_DENOMINATOR) <= 0) {
      return bernoulli(n.longValueExact(), d.longValueExact(), rnd);
    }
    if (n.signum() == 0) {
      return false;
    }
    if (n.equals(d)) {
      return true;
    }
    BigInteger r = n;
    while (true) {
      r = r.shiftLeft(1);
      int pbit = 0;
      if (r.compareTo(d) >= 0) {
        pbit = 1;
        r = r.subtract(d);
      }
      int w = rnd.nextBit();
      if (w != pbit) {
        return w < pbit;
      }
    }
  }

  // ------------------------------------------------------------------ Bernoulli(exp(-g))

  /** Returns true with probability exp(-n/d), for n >= 0 and 1 <= d <= 2^55. */
  public static boolean bernoulliExp(long n, long d, RandomSource rnd) {
    if (n <= d) {
      return bernoulliExpAtMostOne(n, d, rnd);
    }
    long whole = n / d;
    for (long i = 0; i < whole; i++) {
      if (!bernoulliExpAtMostOne(1, 1, rnd)) {
        return false;
      }
    }
    return bernoulliExpAtMostOne(n - whole * d, d, rnd);
  }

  /**
   * CKS Algorithm 1 for g = n/d in [0, 1]: draw Bernoulli(g/k) for k = 1, 2, ... until the
   * first failure; return whether the number of draws is odd.
   */
  private static boolean bernoulliExpAtMostOne(long n, long d, RandomSource rnd) {
    if (n == 0) {
      return true;
    }
    long k = 1;
    while (true) {
      if (d > MAX_LONG_DENOMINATOR / (k + 1)) {
        // d * k would leave the long range: continue the same loop on BigIntegers
        return bernoulliExpAtMostOne(BigInteger.valueOf(n), BigInteger.valueOf(d), k, rnd);
      }
      if (!bernoulli(n, d * k, rnd)) {
        return (k & 1) == 1;
      }
      k++;
    }
  }

  /** Returns true with probability exp(-n/d), for n >= 0 and d >= 1. */
  public static boolean bernoulliExp(BigInteger n, BigInteger d, RandomSource rnd) {
    if (n.bitLength() < 63 && d.compareTo(BigInteger.ONE.shiftLeft(55)) <= 0) {
      return bernoulliExp(n.longValue(), d.longValue(), rnd);
    }
    if (n.compareTo(d) <= 0) {
      return bernoulliExpAtMostOne(n, d, 1, rnd);
    }
    BigInteger[] qr = n.divideAndRemainder(d);
    for (BigInteger i = BigInteger.ZERO; i.compareTo(qr[0]) < 0; i = i.add(BigInteger.ONE)) {
      if (!bernoulliExpAtMostOne(1, 1, rnd)) {
        return false;
      }
    }
    return bernoulliExpAtMostOne(qr[1], d, 1, rnd);
  }

  private static boolean bernoulliExpAtMostOne(BigInteger n, BigInteger d, long firstK, RandomSource rnd) {
    if (n.signum() == 0) {
      return true;
    }
    long k = firstK;
    while (bernoulli(n, d.multiply(BigInteger.valueOf(k)), rnd)) {
      k++;
    }
    return (k & 1) == 1;
  }

  // ------------------------------------------------------------------ discrete Laplace

  /**
   * CKS Algorithm 2: a discrete Laplace sample with scale t/s, for 1 <= t <= 2^55 and s >= 1.
   *
   * @throws ArithmeticException if the sample itself does not fit in a long, which needs
   *     |sample| >= 2^63 (probability below exp(-128) for t <= 2^55); use the BigInteger
   *     version where that matters
   */
  public static long discreteLaplace(long t, long s, RandomSource rnd) {
    while (true) {
      long u = uniform(t, rnd);
      if (!bernoulliExp(u, t, rnd)) {
        continue;
      }
      long v = 0;
      while (bernoulliExpAtMostOne(1, 1, rnd)) {
        v++;
      }
      long y;
      try {
        y = Math.addExact(u, Math.multiplyExact(t, v)) / s;
      } catch (ArithmeticException overflow) {
        // v >= 2^62 / t happens with probability below exp(-128) for t <= 2^55
        y = BigInteger.valueOf(t).multiply(BigInteger.valueOf(v)).add(BigInteger.valueOf(u))
            .divide(BigInteger.valueOf(s)).longValueExact();
      }
      int sign = rnd.nextBit();
      if (sign == 1 && y == 0) {
        continue;
      }
      return sign == 1 ? -y : y;
    }
  }

  /** CKS Algorithm 2 on BigIntegers: a discrete Laplace sample with scale t/s. */
  public static BigInteger discreteLaplace(BigInteger t, BigInteger s, RandomSource rnd) {
    while (true) {
      BigInteger u = uniform(t, rnd);
      if (!bernoulliExp(u, t, rnd)) {
        continue;
      }
      long v = 0;
      while (bernoulliExpAtMostOne(1, 1, rnd)) {
        v++;
      }
      BigInteger y = u.add(t.multiply(BigInteger.valueOf(v))).divide(s);
      int sign = rnd.nextBit();
      if (sign == 1 && y.signum() == 0) {
        continue;
      }
      return sign == 1 ? y.negate() : y;
    }
  }

  // ------------------------------------------------------------------ discrete Gaussian

  /**
   * CKS Algorithm 3 with a {@code long} fast path: a discrete Gaussian sample with variance
   * parameter sigma^2 = n/d, from discrete Laplace proposals of scale t = floor(sigma) + 1
   * accepted with probability exp(-(|y| - sigma^2/t)^2 / (2 sigma^2)). Requires 1 <= t <= 2^40
   * and n, d < 2^62; the acceptance test moves to BigIntegers whenever its terms overflow.
   */
  public static long discreteGaussian(long n, long d, long t, RandomSource rnd) {
    while (true) {
      long y = discreteLaplace(t, 1, rnd);
      if (acceptGaussian(y, n, d, t, rnd)) {
        return y;
      }
    }
  }

  /** CKS Algorithm 3 on BigIntegers, for sigma^2 = n/d; see the {@code long} version. */
  public static BigInteger discreteGaussian(BigInteger n, BigInteger d, RandomSource rnd) {
    BigInteger t = gaussianProposalScale(n, d);
    while (true) {
      BigInteger y = discreteLaplace(t, BigInteger.ONE, rnd);
      if (acceptGaussian(y, n, d, t, rnd)) {
        return y;
      }
    }
  }

  /** Returns floor(sqrt(n/d)) + 1, the proposal scale of CKS Algorithm 3. */
  public static BigInteger gaussianProposalScale(BigInteger n, BigInteger d) {
    // floor(sqrt(x)) = isqrt(floor(x)) for x >= 0
    return n.divide(d).sqrt().add(BigInteger.ONE);
  }

  /**
   * The acceptance test of CKS Algorithm 3: true with probability exp(-(|y| - sigma^2/t)^2 /
   * (2 sigma^2)) for sigma^2 = n/d (n, d >= 1) and proposal scale t >= 1; exact, on longs while
   * the terms fit and on BigIntegers otherwise.
   */
  public static boolean acceptGaussian(long y, long n, long d, long t, RandomSource rnd) {
    try {
      // g = (|y| d t - n)^2 / (2 n d t^2)
      long diff = Math.subtractExact(Math.multiplyExact(Math.multiplyExact(Math.abs(y), d), t), n);
      long gn = Math.multiplyExact(diff, diff);
      long gd = Math.multiplyExact(Math.multiplyExact(2 * n, d), Math.multiplyExact(t, t));
      if (gd <= (1L << 55)) {
        return bernoulliExp(gn, gd, rnd);
      }
    } catch (ArithmeticException overflow) {
      // the same test, exactly, on BigIntegers
    }
    return acceptGaussian(BigInteger.valueOf(y), BigInteger.valueOf(n), BigInteger.valueOf(d),
        BigInteger.valueOf(t), rnd);
  }

  /** The acceptance test of CKS Algorithm 3 on BigIntegers; see the {@code long} version. */
  public static boolean acceptGaussian(BigInteger y, BigInteger n, BigInteger d, BigInteger t, RandomSource rnd) {
    BigInteger diff = y.abs().multiply(d).multiply(t).subtract(n);
    BigInteger gn = diff.multiply(diff);
    BigInteger gd = BigInteger.TWO.multiply(n).multiply(d).multiply(t).multiply(t);
    return bernoulliExp(gn, gd, rnd);
  }
}
