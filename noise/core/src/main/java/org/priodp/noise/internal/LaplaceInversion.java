package org.priodp.noise.internal;

import java.math.BigInteger;
import org.priodp.noise.RandomSource;

/**
 * The discrete Laplace distribution with scale t = a/b by exact inversion of a lazily read
 * uniform: entropy-efficient (within about 3 bits of the entropy on average) and exact.
 *
 * <h2>The map</h2>
 *
 * Let r = e^(-1/t) and V = 0.v1 v2 v3 ... the real number whose binary digits are the random
 * bits. With T(0) = 1 and T(k) = 2 r^k / (1 + r) for k >= 1 (so T(k) = P[|Z| >= k]), the sampler
 * outputs |Z| = K(V) := max{k >= 0 : V < T(k)}, then, if |Z| > 0, one more bit for the sign. The
 * set {V : K(V) = k} is the interval [T(k + 1), T(k)), of length T(k) - T(k + 1) = P[|Z| = k]
 * exactly, and the sign bit is independent of V, so P[Z = z] = (1 - r)/(1 + r) r^|z|: the
 * discrete Laplace PMF, with no rejection and no negative zero.
 *
 * <h2>Why it is exact</h2>
 *
 * After n bits V is known to lie in the dyadic interval I = [v 2^-n, (v + 1) 2^-n). Every
 * threshold T(k) is used only through an interval [lo, hi] that provably contains it (certified
 * fixed-point bounds from {@link FixedPointExp}, propagated with directed rounding). A comparison
 * "V < T(k)" is decided only when I lies entirely below lo or entirely at or above hi, so it
 * is correct for every V in I; otherwise one more bit is read. Hence the output equals K(V) for
 * every bit string on which the sampler stops: the only thing floating-point-like here is the
 * representation of certified bounds, and no decision depends on an unproven approximation.
 * The thresholds are irrational for k >= 1 (r is transcendental), so V differs from each of
 * them almost surely and the sampler stops with probability 1.
 *
 * <h2>Search and cost</h2>
 *
 * The fast path ({@code long} arithmetic, tables built once per scale, no BigInteger per
 * sample) handles scales in [2^-10, 2^40]. Blocks of m = 2^j >= t consecutive values (m = 1 for
 * t <= 1) have boundaries T(1 + q m) = T(1) rho^q with rho = r^m in (e^-2, e^-1]: a short linear
 * search finds the block, then a binary search over the block multiplies by r^(2^i) for i = j -
 * 1, ..., 0. Bounds are kept as 63-bit mantissas with a shared binary exponent, lower bounds
 * rounded down and upper bounds up. Because all comparisons look at the same V, the bits read are
 * exactly those needed to place V between the two thresholds around it, about log2(1/p) + 2 for
 * an outcome of probability p: on average within 3 bits of the entropy. Two shortcuts leave the
 * map from bit strings to outputs unchanged: every draw needs at least minBits bits (no outcome
 * has probability above 2^-(minBits - 1), from certified bounds of P[|Z| = 0] and P[|Z| = 1]),
 * so they are read at once; and a guide table, built by running the search on each value of
 * the first min(minBits, 12) bits alone, resumes the search where those bits leave it. If V has been read to
 * {@code cap} bits (61 in production) and a comparison is still undecided (probability about
 * 2^-50 per draw), the draw continues on the slow path with the bits already read; the slow path
 * computes every threshold afresh with BigInteger fixed point at 64 bits more than the bits of V
 * read, and serves scales outside the fast range.
 */
public final class LaplaceInversion {
  /** Bits of V the fast path reads at most before it hands the draw to the slow path. */
  public static final int DEFAULT_CAP = 61;

  static final long FLAG = 1L << 62;
  private static final BigInteger MAX_FAST_SCALE = BigInteger.ONE.shiftLeft(40);
  private static final BigInteger MAX_FAST_INVERSE = BigInteger.valueOf(1024);
  private static final long FALLBACK = Long.MIN_VALUE;

  private final BigInteger a;
  private final BigInteger b;
  private final boolean fast;
  private final int cap;
  // B = T(1): [bLo, bHi] * 2^bExp
  private final long bLo;
  private final long bHi;
  private final int bExp;
  // rho = r^m: [rhoLo, rhoHi] * 2^rhoExp, rhoHi normalized to [2^62, 2^63)
  private final long rhoLo;
  private final long rhoHi;
  private final int rhoExp;
  // r^(2^i) in [eLo[i], eHi[i]] * 2^-63, for i < j
  private final long[] eLo;
  private final long[] eHi;
  private final int j;
  private final long m;
  /** Bits of V every draw reads (no outcome has probability above 2^-(minBits - 1)), read at once. */
  private final int minBits;
  /**
   * The guide: for each value of the first guideBits bits of V, the state of the search after
   * every comparison those bits decide (GUIDE_NONE: start from the beginning; GUIDE_ZERO: |Z| = 0;
   * otherwise the next binary-search level, with q, x and the bounds of T(1 + q m + x)).
   */
  private final int guideBits;
  private final int[] gLevel;
  private final long[] gQ;
  private final long[] gX;
  private final long[] gLo;
  private final long[] gHi;
  private final int[] gExp;
  private static final int GUIDE_NONE = -2;
  private static final int GUIDE_ZERO = -3;
  private static final int MAX_GUIDE_BITS = 12;

  /** The production sampler for scale a/b (a, b >= 1). */
  public LaplaceInversion(BigInteger a, BigInteger b) {
    this(a, b, 63, DEFAULT_CAP, 0);
  }

  /**
   * A sampler for tests: fast-path tables rounded outward to {@code tableBits} bits (so that
   * comparisons are undecided more often), at most {@code cap} bits of V on the fast path, and
   * every table bound shifted up by {@code offsetUnits} units of 2^-tableBits (a deliberately
   * wrong sampler when nonzero, for negative controls).
   */
  public static LaplaceInversion forTest(BigInteger a, BigInteger b, int tableBits, int cap, int offsetUnits) {
    return new LaplaceInversion(a, b, tableBits, cap, offsetUnits);
  }

  private LaplaceInversion(BigInteger a, BigInteger b, int tableBits, int cap, int offsetUnits) {
    if (a.signum() <= 0 || b.signum() <= 0) {
      throw new IllegalArgumentException("scale must be > 0, got " + a + "/" + b);
    }
    if (tableBits < 4 || tableBits > 63 || cap < 1 || cap > DEFAULT_CAP) {
      throw new IllegalArgumentException("tableBits in [4, 63], cap in [1, 61]");
    }
    this.a = a;
    this.b = b;
    this.cap = cap;
    this.fast = a.compareTo(b.multiply(MAX_FAST_SCALE)) <= 0
        && b.compareTo(a.multiply(MAX_FAST_INVERSE)) <= 0;
    if (!fast) {
      bLo = bHi = rhoLo = rhoHi = m = 0;
      bExp = rhoExp = j = minBits = guideBits = 0;
      eLo = eHi = gQ = gX = gLo = gHi = new long[0];
      gLevel = gExp = new int[0];
      return;
    }
    long mask = (1L << (63 - tableBits)) - 1;
    long offset = (long) offsetUnits * (mask + 1);
    // working precision: r >= e^-1024 > 2^-1478, so P bits leave >= 190 significant bits
    int p = 200 + 3 * b.divide(a).intValueExact() / 2 + 2;
    BigInteger one = BigInteger.ONE.shiftLeft(p);
    BigInteger err = BigInteger.valueOf(FixedPointExp.ERROR_ULPS);
    BigInteger r = FixedPointExp.expNeg(b, a, p);
    BigInteger rLo = r.subtract(err);
    BigInteger rHi = r.add(err);
    // B = 2r / (1 + r), increasing in r
    BigInteger bl = rLo.shiftLeft(p + 1).divide(one.add(rHi));
    BigInteger bh = ceilDiv(rHi.shiftLeft(p + 1), one.add(rLo));
    // the most likely outcomes: P[|Z| = 0] = (1 - r)/(1 + r) and P[|Z| = 1] = 2r (1 - r)/(1 + r);
    // a decision needs V's dyadic interval inside an outcome's interval, so at least n bits with
    // 2^-n <= max P: with maxHi 2^-p >= max P, every n <= p - bitLength(maxHi) is too few
    BigInteger p0Hi = ceilDiv(one.subtract(rLo).shiftLeft(p), one.add(rLo));
    BigInteger p1Hi = ceilDiv(rHi.multiply(one.subtract(rLo)).shiftLeft(1), one.add(rLo));
    int fewest = p + 1 - p0Hi.max(p1Hi).bitLength();
    minBits = Math.max(0, Math.min(Math.min(fewest, cap), 60));
    long[] fb = toFloat(bl, bh, p, mask, offset);
    bLo = fb[0];
    bHi = fb[1];
    bExp = (int) fb[2];
    // m = 2^j, the smallest power of two >= t (j = 0 for t <= 1)
    int jj = 0;
    while (b.shiftLeft(jj).compareTo(a) < 0) {
      jj++;
    }
    j = jj;
    m = 1L << j;
    BigInteger rho = FixedPointExp.expNeg(b.shiftLeft(j), a, p);
    long[] fr = toFloat(rho.subtract(err), rho.add(err), p, mask, offset);
    rhoLo = fr[0];
    rhoHi = fr[1];
    rhoExp = (int) fr[2];
    eLo = new long[j];
    eHi = new long[j];
    for (int i = 0; i < j; i++) {
      BigInteger e = FixedPointExp.expNeg(b.shiftLeft(i), a, p); // r^(2^i) in [e^-1, 1)
      long lo = e.subtract(err).shiftRight(p - 63).longValueExact();
      long hi = e.add(err).shiftRight(p - 63).longValueExact() + 1;
      eLo[i] = Math.max(0, (lo & ~mask) + offset);
      eHi[i] = Math.min(Long.MAX_VALUE, (hi | mask) + offset);
      if (eHi[i] >= (1L << 63) - 1 && offset == 0) {
        throw new AssertionError("r^(2^i) too close to 1 for the fast path");
      }
    }
    guideBits = Math.min(minBits, MAX_GUIDE_BITS);
    int cells = 1 << guideBits;
    gLevel = new int[cells];
    gQ = new long[cells];
    gX = new long[cells];
    gLo = new long[cells];
    gHi = new long[cells];
    gExp = new int[cells];
    for (int v = 0; v < cells; v++) {
      buildGuide(v);
    }
  }

  /** A source with no bits: the guide records the search state where a bit would be needed. */
  private static final class NoBits implements RandomSource {
    static final RuntimeException EMPTY = new RuntimeException(null, null, false, false) {
      private static final long serialVersionUID = 1L;
    };

    @Override
    public int nextBit() {
      throw EMPTY;
    }

    @Override
    public long nextBits(int k) {
      throw EMPTY;
    }

    @Override
    public long bitsConsumed() {
      return 0;
    }
  }

  /**
   * Runs the search of {@link #fastDraw} on the first guideBits bits of V (value v) alone and
   * records where it stands when it would need another bit. The draw then resumes from that
   * state with the same bits, so it computes the same function of the bit string.
   */
  private void buildGuide(int v) {
    RandomSource none = new NoBits();
    long w = (1L << guideBits) | v;
    gLevel[v] = GUIDE_NONE;
    try {
      long c = less(w, bLo, bHi, bExp, none);
      if (c < 0) {
        gLevel[v] = GUIDE_ZERO;
        return;
      }
      if (c >= FLAG) {
        return;
      }
      long pLo = bLo;
      long pHi = bHi;
      int pExp = bExp;
      long q = 0;
      while (true) {
        long h = Math.multiplyHigh(pHi, rhoHi);
        int sh = h >= (1L << 61) ? 63 : 62;
        long nHi = mulShift(pHi, rhoHi, sh) + 1;
        if (nHi == Long.MIN_VALUE) {
          nHi = 1L << 62;
          sh = 63;
        }
        long nLo = mulShift(pLo, rhoLo, sh);
        int nExp = pExp + rhoExp + sh;
        c = less(w, nLo, nHi, nExp, none);
        if (c < 0) {
          break;
        }
        if (c >= FLAG) {
          return;
        }
        pLo = nLo;
        pHi = nHi;
        pExp = nExp;
        q++;
      }
      // the block is known: record the state at every binary-search level decided by the guide bits
      long x = 0;
      int i = j - 1;
      gQ[v] = q;
      gX[v] = x;
      gLo[v] = pLo;
      gHi[v] = pHi;
      gExp[v] = pExp;
      gLevel[v] = i;
      for (; i >= 0; i--) {
        long cLo = mulShift(pLo, eLo[i], 63);
        long cHi = mulShift(pHi, eHi[i], 63) + 1;
        c = less(w, cLo, cHi, pExp, none);
        if (c >= FLAG) {
          return; // undecided at the cap: keep the recorded level
        }
        if (c >= 0) {
          pLo = cLo;
          pHi = cHi;
          x += 1L << i;
        }
        gX[v] = x;
        gLo[v] = pLo;
        gHi[v] = pHi;
        gLevel[v] = i - 1;
      }
    } catch (RuntimeException e) {
      if (e != NoBits.EMPTY) {
        throw e;
      }
      // another bit is needed: the recorded state stands
    }
  }

  private static BigInteger ceilDiv(BigInteger x, BigInteger y) {
    BigInteger[] qr = x.divideAndRemainder(y);
    return qr[1].signum() == 0 ? qr[0] : qr[0].add(BigInteger.ONE);
  }

  /**
   * Converts lo <= x 2^p <= hi (0 < lo <= hi) into {mLo, mHi, s} with mLo 2^s <= x <= mHi 2^s,
   * mHi in [2^62, 2^63): lo rounded down, hi rounded up, then the test rounding and offset.
   */
  private static long[] toFloat(BigInteger lo, BigInteger hi, int p, long mask, long offset) {
    if (lo.signum() <= 0) {
      throw new AssertionError("lower bound must be positive");
    }
    int shift = hi.bitLength() - 63;
    BigInteger h = ceilShift(hi, shift);
    if (h.bitLength() > 63) {
      shift++;
      h = ceilShift(hi, shift);
    }
    long mLo = lo.shiftRight(shift).longValueExact();
    long mHi = h.longValueExact();
    mLo = Math.max(0, (mLo & ~mask) + offset);
    mHi = (mHi | mask) + offset;
    if (mHi < 0 || mHi < (1L << 62)) {
      throw new AssertionError("test rounding left the mantissa range");
    }
    return new long[] {mLo, mHi, shift - p};
  }

  private static BigInteger ceilShift(BigInteger x, int shift) {
    if (shift <= 0) {
      return x.shiftLeft(-shift);
    }
    BigInteger q = x.shiftRight(shift);
    return q.shiftLeft(shift).equals(x) ? q : q.add(BigInteger.ONE);
  }

  /** True if draws use the long fast path (scales in [2^-10, 2^40]). */
  public boolean fastPath() {
    return fast;
  }

  /**
   * Draws one sample.
   *
   * @throws ArithmeticException if the sample does not fit in a long
   */
  public long sample(RandomSource rnd) {
    if (!fast) {
      return slow(1, rnd).longValueExact();
    }
    long z = fastDraw(rnd);
    if (z < -FLAG) {
      return slow(z - FALLBACK, rnd).longValueExact();
    }
    return z;
  }

  /** Draws one sample of any size. */
  public BigInteger sampleBig(RandomSource rnd) {
    if (!fast) {
      return slow(1, rnd);
    }
    long z = fastDraw(rnd);
    if (z < -FLAG) {
      return slow(z - FALLBACK, rnd);
    }
    return BigInteger.valueOf(z);
  }

  // ------------------------------------------------------------------ fast path

  /**
   * One draw on the fast path: the signed sample, or FALLBACK + w when a comparison is still
   * undecided after {@code cap} bits of V (w = 2^n + v encodes the n bits read).
   */
  private long fastDraw(RandomSource rnd) {
    // the first minBits bits of V are read by every draw: take them at once (first bit first,
    // so the map from bit strings to outputs is the same as reading them one by one)
    long w = 1;
    if (minBits > 0) {
      w = (1L << minBits) | (Long.reverse(rnd.nextBits(minBits)) >>> (64 - minBits));
      int cell = (int) ((w ^ (1L << minBits)) >>> (minBits - guideBits));
      int level = gLevel[cell];
      if (level == GUIDE_ZERO) {
        return 0;
      }
      if (level != GUIDE_NONE) {
        return binarySearch(w, gQ[cell], gX[cell], level, gLo[cell], gHi[cell], gExp[cell], rnd);
      }
    }
    long c = less(w, bLo, bHi, bExp, rnd);
    if (c < 0) {
      return 0; // V >= T(1): |Z| = 0, no sign bit
    }
    if (c >= FLAG) {
      return FALLBACK + (c ^ FLAG);
    }
    w = c;
    // V < T(1). Block search: P = T(1 + q m) while V < P rho
    long pLo = bLo;
    long pHi = bHi;
    int pExp = bExp;
    long q = 0;
    while (true) {
      long h = Math.multiplyHigh(pHi, rhoHi); // pHi, rhoHi in [2^62, 2^63): product in [2^124, 2^126)
      int sh = h >= (1L << 61) ? 63 : 62;
      long nHi = mulShift(pHi, rhoHi, sh) + 1; // rounded up
      if (nHi == Long.MIN_VALUE) { // floor was 2^63 - 1 with sh = 62: the bound 2^63 is 2^62 * 2
        nHi = 1L << 62;
        sh = 63;
      }
      long nLo = mulShift(pLo, rhoLo, sh); // rounded down
      int nExp = pExp + rhoExp + sh;
      c = less(w, nLo, nHi, nExp, rnd);
      if (c < 0) {
        w = ~c;
        break;
      }
      if (c >= FLAG) {
        return FALLBACK + (c ^ FLAG);
      }
      w = c;
      pLo = nLo;
      pHi = nHi;
      pExp = nExp;
      q++;
    }
    return binarySearch(w, q, 0, j - 1, pLo, pHi, pExp, rnd);
  }

  /**
   * The binary search over block q from level i down, with T(1 + q m + x) in [pLo, pHi] 2^pExp,
   * V < T(1 + q m + x) and V >= T(1 + q m + x + 2^(i + 1)).
   */
  private long binarySearch(long w, long q, long x, int i, long pLo, long pHi, int pExp, RandomSource rnd) {
    long c;
    for (; i >= 0; i--) {
      long cLo = mulShift(pLo, eLo[i], 63);
      long cHi = mulShift(pHi, eHi[i], 63) + 1;
      c = less(w, cLo, cHi, pExp, rnd);
      if (c < 0) {
        w = ~c;
      } else if (c >= FLAG) {
        return FALLBACK + (c ^ FLAG);
      } else {
        w = c;
        pLo = cLo;
        pHi = cHi;
        x += 1L << i;
      }
    }
    long k = 1 + q * m + x;
    return rnd.nextBit() == 1 ? -k : k;
  }

  /** floor(a * b / 2^sh) for a, b >= 0 and 1 <= sh <= 63, when the result fits in 63 bits. */
  private static long mulShift(long a, long b, int sh) {
    return (Math.multiplyHigh(a, b) << (64 - sh)) | ((a * b) >>> sh);
  }

  /**
   * Decides V < theta for a threshold theta in [mLo 2^s, mHi 2^s] (theta < 1, mHi >= 2^62, so
   * s <= -63), reading bits of V while undecided. V's known prefix is w = 2^n + v (n bits v).
   * Returns the new w if V < theta, ~w if V >= theta, and w | FLAG if still undecided after
   * {@code cap} bits.
   */
  private long less(long w, long mLo, long mHi, int s, RandomSource rnd) {
    return less(w, mLo, mHi, s, cap, rnd);
  }

  /** {@link #less(long, long, long, int, RandomSource)} with an explicit cap (at most 61). */
  static long less(long w, long mLo, long mHi, int s, int cap, RandomSource rnd) {
    while (true) {
      int n = 63 - Long.numberOfLeadingZeros(w);
      long v = w ^ (1L << n);
      // d = -(s + n) >= 63 - 61 = 2; beyond 63 both tests below read theta 2^n as below 1
      int d = Math.min(-(s + n), 63);
      // V < theta for all of [v, v + 1) 2^-n iff (v + 1) 2^-n <= mLo 2^s, i.e. v + 1 <= floor(mLo 2^-d)
      if (v + 1 <= (mLo >> d)) {
        return w;
      }
      // V >= theta for all of it iff v 2^-n >= mHi 2^s, i.e. v >= ceil(mHi 2^-d) = ((mHi - 1) >> d) + 1
      if (v > ((mHi - 1) >> d)) {
        return ~w;
      }
      if (n >= cap) {
        return w | FLAG;
      }
      w = (w << 1) | rnd.nextBit();
    }
  }

  // ------------------------------------------------------------------ slow path

  /** The lazily read V on the slow path: n bits v. */
  private static final class Lazy {
    BigInteger v;
    int n;

    Lazy(long w) {
      n = 63 - Long.numberOfLeadingZeros(w);
      v = BigInteger.valueOf(w ^ (1L << n));
    }
  }

  /**
   * The same map K(V) with BigInteger thresholds, continuing from the prefix w = 2^n + v: a
   * galloping search for k from a step near the scale, then a binary search.
   */
  private BigInteger slow(long w, RandomSource rnd) {
    Lazy u = new Lazy(w);
    if (!lessSlow(u, BigInteger.ONE, rnd)) {
      return BigInteger.ZERO;
    }
    BigInteger lo = BigInteger.ONE;
    BigInteger step = a.divide(b).max(BigInteger.ONE);
    while (lessSlow(u, lo.add(step), rnd)) {
      lo = lo.add(step);
      step = step.shiftLeft(1);
    }
    BigInteger hi = lo.add(step); // V < T(lo), V >= T(hi)
    while (hi.subtract(lo).compareTo(BigInteger.ONE) > 0) {
      BigInteger mid = lo.add(hi).shiftRight(1);
      if (lessSlow(u, mid, rnd)) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return rnd.nextBit() == 1 ? lo.negate() : lo;
  }

  /** Decides V < T(k), k >= 1, reading bits of V while undecided. */
  private boolean lessSlow(Lazy u, BigInteger k, RandomSource rnd) {
    while (true) {
      int p = u.n + 64;
      BigInteger[] th = threshold(k, p);
      BigInteger vs = u.v.shiftLeft(64); // v 2^-n = vs 2^-p
      if (vs.add(BigInteger.ONE.shiftLeft(64)).compareTo(th[0]) <= 0) {
        return true;
      }
      if (vs.compareTo(th[1]) >= 0) {
        return false;
      }
      u.v = u.v.shiftLeft(1);
      if (rnd.nextBit() == 1) {
        u.v = u.v.setBit(0);
      }
      u.n++;
    }
  }

  /** Returns {L, H} with L 2^-p <= T(k) = 2 r^k / (1 + r) <= H 2^-p, for k >= 1. */
  private BigInteger[] threshold(BigInteger k, int p) {
    int q = p + 8;
    if (q > 4096) {
      // needs V within 2^-4000 of a threshold: probability below 2^-3900
      throw new ArithmeticException("discrete Laplace: precision limit reached");
    }
    BigInteger err = BigInteger.valueOf(FixedPointExp.ERROR_ULPS);
    BigInteger one = BigInteger.ONE.shiftLeft(q);
    BigInteger rk = FixedPointExp.expNeg(k.multiply(b), a, q);
    BigInteger r = FixedPointExp.expNeg(b, a, q);
    BigInteger numLo = rk.subtract(err).max(BigInteger.ZERO).shiftLeft(p + 1);
    BigInteger numHi = rk.add(err).shiftLeft(p + 1);
    BigInteger lo = numLo.divide(one.add(r).add(err));
    BigInteger hi = ceilDiv(numHi, one.add(r.subtract(err).max(BigInteger.ZERO)));
    return new BigInteger[] {lo, hi};
  }
}
