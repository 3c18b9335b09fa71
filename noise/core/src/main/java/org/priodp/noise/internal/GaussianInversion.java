package org.priodp.noise.internal;

import java.math.BigInteger;
import org.priodp.noise.RandomSource;

/**
 * The discrete Gaussian with sigma^2 = n/d by rejection from a tight piecewise envelope that is
 * itself sampled by exact inversion of a lazily read uniform: on average within about 6 random
 * bits of the entropy.
 *
 * <h2>The envelope</h2>
 *
 * Write w(k) = e^(-k^2 / (2 sigma^2)); |Z| = k has weight h(0) = 1 and h(k) = 2 w(k) for k >= 1
 * (the sign is drawn afterwards). Let m = 2^j be the largest power of two <= sigma/16 (m = 1 for
 * sigma < 32) and I = max(1, floor(8 sigma / m)). The envelope e(k) >= h(k) has the pieces
 *
 * <ul>
 *   <li>{0}, weight 1 (acceptance 1);
 *   <li>[1, m) (if m > 1), weight 2 each, uniform (acceptance w(k));
 *   <li>for 1 <= i < I, the block [i m, (i + 1) m), weight 2 w(i m) each, uniform: exactly j
 *       random bits (acceptance w(k) / w(i m) = e^(-x (2 i m + x) / (2 sigma^2)), x = k - i m);
 *   <li>the tail k = I m + y, y >= 0, weight 2 w(I m) rho^y with rho = e^(-I m / sigma^2), the
 *       tangent of the concave log w at I m (acceptance e^(-y^2 / (2 sigma^2))); y is drawn
 *       exactly as a geometric from {@link LaplaceInversion}.
 * </ul>
 *
 * Every piece mass has a closed form, so the cumulative masses C_1 < ... < C_(N-1) of the pieces,
 * normalized, have certified fixed-point bounds at any precision (BigInteger, from
 * {@link FixedPointExp}). The piece is chosen by a binary search comparing V (the random bits
 * as a binary fraction, read one at a time) with those bounds, deciding only when certain, as in
 * {@link LaplaceInversion}; the fast path uses 63-bit tables and hands a draw still undecided
 * after 61 bits of V to a BigInteger slow path that continues with the same bits. The
 * acceptance tests are the exact Bernoulli(exp(-g)) of {@link Exact}. Rejection sampling with
 * an exact proposal q = e / sum(e) and acceptance h / e gives exactly h / sum(h); the sign bit
 * then gives the discrete Gaussian. The average acceptance is about 1 - 0.4 m / sigma >= 0.97.
 */
public final class GaussianInversion {
  private final BigInteger n;
  private final BigInteger d;
  private final long nl;
  private final long dl;
  private final boolean fast;
  private final int j;
  private final long m;
  private final int blocks; // I
  private final int pieces; // N = 1 + (m > 1 ? 1 : 0) + (I - 1) + 1
  private final int firstBlockPiece;
  private final long[] cLo; // C_1 .. C_(N-1) in units of 2^-63 (index 1 .. N-1)
  private final long[] cHi;
  private final LaplaceInversion tail;
  private final int cap;
  /** The most precise slow-path table computed so far (immutable; shared by threads). */
  private volatile Table slowTable;

  private record Table(int p, BigInteger[][] bounds) {}

  /** The production sampler for sigma^2 = n/d (n, d >= 1). */
  public GaussianInversion(BigInteger n, BigInteger d) {
    this(n, d, 63, LaplaceInversion.DEFAULT_CAP, 0);
  }

  /**
   * A sampler for tests: fast-path thresholds rounded outward to {@code tableBits} bits, the
   * fast path handing undecided draws to the slow path after {@code cap} bits, and both bounds
   * of the first threshold (C_1 = P[piece 0], the mass of zero) shifted up by {@code
   * offsetUnits} units of 2^-tableBits (a deliberately wrong sampler when nonzero, for negative
   * controls).
   */
  public static GaussianInversion forTest(BigInteger n, BigInteger d, int tableBits, int cap, int offsetUnits) {
    return new GaussianInversion(n, d, tableBits, cap, offsetUnits);
  }

  private GaussianInversion(BigInteger n, BigInteger d, int tableBits, int cap, int offsetUnits) {
    if (tableBits < 4 || tableBits > 63 || cap < 1 || cap > LaplaceInversion.DEFAULT_CAP) {
      throw new IllegalArgumentException("tableBits in [4, 63], cap in [1, 61]");
    }
    if (n.signum() <= 0 || d.signum() <= 0) {
      throw new IllegalArgumentException("sigma^2 must be > 0, got " + n + "/" + d);
    }
    BigInteger g = n.gcd(d);
    this.n = n.divide(g);
    this.d = d.divide(g);
    this.cap = cap;
    // floor(sigma) = isqrt(floor(n/d))
    BigInteger sigmaFloor = this.n.divide(this.d).sqrt();
    int jj = 0;
    while (BigInteger.ONE.shiftLeft(jj + 1 + 4).compareTo(sigmaFloor) <= 0) {
      jj++; // 2^(jj+1) <= floor(sigma)/16
    }
    this.j = sigmaFloor.compareTo(BigInteger.valueOf(16)) < 0 ? 0 : jj;
    // I = max(1, floor(sqrt(64 sigma^2) / m)): the tail starts near 8 sigma, where w is about e^-32
    // (any I >= 1 keeps exactness; this one keeps the tail mass representable in 63 bits)
    BigInteger ib = this.n.multiply(BigInteger.valueOf(64)).divide(this.d).sqrt().shiftRight(j).max(BigInteger.ONE);
    boolean small = this.n.bitLength() < 62 && this.d.bitLength() < 62 && j <= 40 && ib.bitLength() < 12;
    this.m = small ? 1L << j : 0;
    this.blocks = small ? ib.intValueExact() : 0;
    this.nl = small ? this.n.longValueExact() : 0;
    this.dl = small ? this.d.longValueExact() : 0;
    this.firstBlockPiece = m > 1 ? 2 : 1;
    this.pieces = firstBlockPiece + (blocks - 1) + 1;
    long[] lo = new long[0];
    long[] hi = new long[0];
    LaplaceInversion geometric = null;
    if (small) {
      // the tail geometric: ratio rho = e^(-I m d / n), i.e. a Laplace of scale n / (I m d)
      geometric = new LaplaceInversion(this.n, this.d.multiply(BigInteger.valueOf(blocks)).shiftLeft(j));
      BigInteger[][] c = thresholds(63);
      lo = new long[pieces];
      hi = new long[pieces];
      long mask = (1L << (63 - tableBits)) - 1;
      long offset = (long) offsetUnits * (mask + 1);
      for (int i = 1; i < pieces && small; i++) {
        if (c[1][i].bitLength() > 63 || c[0][i].signum() <= 0) {
          small = false; // a piece too light for 63 bits (sigma below about 1/3): not on the fast path
        } else {
          long off = i == 1 ? offset : 0;
          lo[i] = Math.max(0, (c[0][i].longValueExact() & ~mask) + off);
          hi[i] = Math.min(Long.MAX_VALUE, (c[1][i].longValueExact() | mask) + off);
        }
      }
    }
    this.fast = small;
    this.cLo = lo;
    this.cHi = hi;
    this.tail = geometric;
  }

  /** True if draws use the long fast path. */
  public boolean fastPath() {
    return fast;
  }

  /**
   * Returns {lo, hi}: lo[i] 2^-p <= C_i <= hi[i] 2^-p for 1 <= i < N, where C_i is the envelope
   * mass of pieces 0 .. i-1 over the total.
   */
  private BigInteger[][] thresholds(int p) {
    int q = p + 16;
    if (q > 4096) {
      throw new ArithmeticException("discrete Gaussian: precision limit reached");
    }
    BigInteger one = BigInteger.ONE.shiftLeft(q);
    BigInteger err = BigInteger.valueOf(FixedPointExp.ERROR_ULPS);
    BigInteger[] massLo = new BigInteger[pieces];
    BigInteger[] massHi = new BigInteger[pieces];
    massLo[0] = massHi[0] = one; // {0}
    if (m > 1) {
      massLo[1] = massHi[1] = one.multiply(BigInteger.valueOf(2 * (m - 1)));
    }
    BigInteger twoN = n.shiftLeft(1);
    for (int i = 1; i < blocks; i++) {
      BigInteger k = BigInteger.valueOf(i).shiftLeft(j);
      BigInteger w = FixedPointExp.expNeg(k.multiply(k).multiply(d), twoN, q);
      BigInteger twoM = BigInteger.valueOf(2 * m);
      massLo[firstBlockPiece + i - 1] = w.subtract(err).max(BigInteger.ZERO).multiply(twoM);
      massHi[firstBlockPiece + i - 1] = w.add(err).multiply(twoM);
    }
    BigInteger k = BigInteger.valueOf(blocks).shiftLeft(j);
    BigInteger w = FixedPointExp.expNeg(k.multiply(k).multiply(d), twoN, q);
    BigInteger rho = FixedPointExp.expNeg(k.multiply(d), n, q);
    // tail mass 2 w / (1 - rho), increasing in w and rho
    if (rho.add(err).compareTo(one) >= 0) {
      throw new ArithmeticException("discrete Gaussian: tail ratio too close to 1 at this precision");
    }
    BigInteger denLarge = one.subtract(rho.subtract(err).max(BigInteger.ZERO)); // 1 - (lower bound of rho)
    BigInteger denSmall = one.subtract(rho.add(err)); // 1 - (upper bound of rho)
    massLo[pieces - 1] = w.subtract(err).max(BigInteger.ZERO).shiftLeft(q + 1).divide(denLarge);
    massHi[pieces - 1] = ceilDiv(w.add(err).shiftLeft(q + 1), denSmall);
    BigInteger totalLo = BigInteger.ZERO;
    BigInteger totalHi = BigInteger.ZERO;
    for (int i = 0; i < pieces; i++) {
      totalLo = totalLo.add(massLo[i]);
      totalHi = totalHi.add(massHi[i]);
    }
    BigInteger[] lo = new BigInteger[pieces];
    BigInteger[] hi = new BigInteger[pieces];
    BigInteger sLo = BigInteger.ZERO;
    BigInteger sHi = BigInteger.ZERO;
    for (int i = 1; i < pieces; i++) {
      sLo = sLo.add(massLo[i - 1]);
      sHi = sHi.add(massHi[i - 1]);
      lo[i] = sLo.shiftLeft(p).divide(totalHi);
      // C_i = S_i / W = 1 - (W - S_i) / W: use whichever upper bound is smaller
      hi[i] = ceilDiv(sHi.shiftLeft(p), totalLo).min(BigInteger.ONE.shiftLeft(p));
    }
    return new BigInteger[][] {lo, hi};
  }

  private static BigInteger ceilDiv(BigInteger x, BigInteger y) {
    BigInteger[] qr = x.divideAndRemainder(y);
    return qr[1].signum() == 0 ? qr[0] : qr[0].add(BigInteger.ONE);
  }

  /**
   * Draws one sample.
   *
   * @throws UnsupportedOperationException if the fast path does not apply (the caller uses
   *     another sampler for such sigma^2)
   */
  public long sample(RandomSource rnd) {
    if (!fast) {
      throw new UnsupportedOperationException("sigma^2 outside the range of the inversion sampler");
    }
    while (true) {
      int piece = choosePiece(rnd);
      long k;
      boolean accept;
      if (piece == 0) {
        return 0; // h(0) = e(0): always accepted, no sign
      } else if (piece < firstBlockPiece) {
        k = 1 + Exact.uniform(m - 1, rnd);
        accept = bernoulliExp(k, k, rnd);
      } else if (piece < pieces - 1) {
        long base = (long) (piece - firstBlockPiece + 1) << j;
        long x = j == 0 ? 0 : rnd.nextBits(j);
        k = base + x;
        accept = x == 0 || bernoulliExp(x, 2 * base + x, rnd);
      } else {
        long y;
        do {
          y = tail.sample(rnd);
        } while (y == 0);
        y = Math.abs(y) - 1;
        k = Math.addExact((long) blocks << j, y);
        accept = y == 0 || bernoulliExp(y, y, rnd);
      }
      if (accept) {
        return rnd.nextBit() == 1 ? -k : k;
      }
    }
  }

  /** True with probability exp(-a b d / (2 n)) for a, b >= 0. */
  private boolean bernoulliExp(long a, long b, RandomSource rnd) {
    try {
      long num = Math.multiplyExact(Math.multiplyExact(a, b), dl);
      long den = Math.multiplyExact(2, nl);
      if (den <= (1L << 55)) {
        return Exact.bernoulliExp(num, den, rnd);
      }
    } catch (ArithmeticException overflow) {
      // the same test on BigIntegers
    }
    return Exact.bernoulliExp(BigInteger.valueOf(a).multiply(BigInteger.valueOf(b)).multiply(d), n.shiftLeft(1), rnd);
  }

  /** The piece i with C_i <= V < C_(i+1) (C_0 = 0, C_N = 1), by binary search. */
  private int choosePiece(RandomSource rnd) {
    long w = 1;
    int lo = 0;
    int hi = pieces;
    while (hi - lo > 1) {
      int mid = (lo + hi) >>> 1;
      long c = LaplaceInversion.less(w, cLo[mid], cHi[mid], -63, cap, rnd);
      if (c < 0) {
        w = ~c;
        lo = mid;
      } else if (c >= LaplaceInversion.FLAG) {
        return choosePieceSlow(c ^ LaplaceInversion.FLAG, lo, hi, rnd);
      } else {
        w = c;
        hi = mid;
      }
    }
    return lo;
  }

  /**
   * Continues the binary search with BigInteger thresholds at 64 bits more than the bits of V
   * read so far (recomputed as V gets longer), from the prefix w = 2^n + v and the bracket
   * [lo, hi) already certified.
   */
  private int choosePieceSlow(long w, int lo, int hi, RandomSource rnd) {
    int nBits = 63 - Long.numberOfLeadingZeros(w);
    BigInteger v = BigInteger.valueOf(w ^ (1L << nBits));
    int tableP = 0;
    BigInteger[][] table = null;
    while (hi - lo > 1) {
      int mid = (lo + hi) >>> 1;
      while (true) {
        if (tableP < nBits + 64) {
          Table cached = slowTable;
          if (cached == null || cached.p() < nBits + 64) {
            cached = new Table(nBits + 128, thresholds(nBits + 128));
            slowTable = cached;
          }
          tableP = cached.p();
          table = cached.bounds();
        }
        BigInteger vs = v.shiftLeft(tableP - nBits); // v 2^-nBits in units of 2^-tableP
        if (vs.add(BigInteger.ONE.shiftLeft(tableP - nBits)).compareTo(table[0][mid]) <= 0) {
          hi = mid; // V < C_mid
          break;
        }
        if (vs.compareTo(table[1][mid]) >= 0) {
          lo = mid; // V >= C_mid
          break;
        }
        v = v.shiftLeft(1);
        if (rnd.nextBit() == 1) {
          v = v.setBit(0);
        }
        nBits++;
      }
    }
    return lo;
  }
}
