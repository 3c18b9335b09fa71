package org.priodp.noise;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.LongFunction;

/**
 * Exact distribution of a sampler without statistics: runs the sampler on every random bit
 * string, depth first, extending a prefix only when the sampler asks for more bits, down to a
 * maximum depth. Each terminated path of length L contributes exactly 2^-L to its output; the
 * paths cut at the maximum depth form the unresolved mass. The true probability of every
 * output therefore lies in [mass, mass + unresolved].
 */
final class Enumeration {
  private static final MathContext MC = new MathContext(60);

  /** Thrown by the replay source when the sampler wants more bits than the prefix has. */
  private static final class NeedMore extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NeedMore() {
      super(null, null, false, false);
    }
  }

  /** Replays a fixed prefix of bits (bit j of {@code bits} is the j-th bit handed out). */
  static final class ReplaySource implements RandomSource {
    private final long bits;
    private final int length;
    private int pos;

    ReplaySource(long bits, int length) {
      this.bits = bits;
      this.length = length;
    }

    @Override
    public int nextBit() {
      if (pos >= length) {
        throw new NeedMore();
      }
      return (int) ((bits >>> pos++) & 1);
    }

    @Override
    public long nextBits(int k) {
      long r = 0;
      for (int i = 0; i < k; i++) {
        r |= (long) nextBit() << i;
      }
      return r;
    }

    @Override
    public long bitsConsumed() {
      return pos;
    }
  }

  final int depth;
  final Map<Long, BigInteger> mass = new TreeMap<>(); // in units of 2^-depth
  BigInteger unresolved = BigInteger.ZERO;

  private Enumeration(int depth) {
    this.depth = depth;
  }

  /** Enumerates the sampler's output distribution down to {@code depth} bits (at most 62). */
  static Enumeration of(Function<RandomSource, Long> sampler, int depth) {
    Enumeration e = new Enumeration(depth);
    e.walk(sampler, 0L, 0);
    return e;
  }

  private void walk(Function<RandomSource, Long> sampler, long prefix, int len) {
    ReplaySource src = new ReplaySource(prefix, len);
    Long value;
    try {
      value = sampler.apply(src);
    } catch (NeedMore more) {
      if (len == depth) {
        unresolved = unresolved.add(BigInteger.ONE);
        return;
      }
      walk(sampler, prefix, len + 1);
      walk(sampler, prefix | (1L << len), len + 1);
      return;
    }
    if (src.pos != len) {
      throw new AssertionError("sampler used " + src.pos + " of " + len + " prefix bits");
    }
    mass.merge(value, BigInteger.ONE.shiftLeft(depth - len), BigInteger::add);
  }

  BigDecimal unit() {
    return BigDecimal.ONE.divide(new BigDecimal(BigInteger.ONE.shiftLeft(depth)), MC);
  }

  BigDecimal unresolvedMass() {
    return new BigDecimal(unresolved).multiply(unit(), MC);
  }

  /**
   * Returns every output in [lo, hi] (and every observed output) whose exact probability,
   * given by {@code pmf}, lies outside [mass, mass + unresolved] by more than {@code slack}.
   */
  List<String> violations(long lo, long hi, LongFunction<BigDecimal> pmf, BigDecimal slack) {
    List<String> out = new ArrayList<>();
    TreeMap<Long, BigInteger> all = new TreeMap<>(mass);
    for (long v = lo; v <= hi; v++) {
      all.putIfAbsent(v, BigInteger.ZERO);
    }
    BigDecimal u = unresolvedMass();
    for (Map.Entry<Long, BigInteger> e : all.entrySet()) {
      BigDecimal low = new BigDecimal(e.getValue()).multiply(unit(), MC);
      BigDecimal p = pmf.apply(e.getKey());
      if (p.compareTo(low.subtract(slack)) < 0 || p.compareTo(low.add(u).add(slack)) > 0) {
        out.add("P[" + e.getKey() + "] = " + p.round(new MathContext(12)) + " outside ["
            + low.round(new MathContext(12)) + ", " + low.add(u).round(new MathContext(12)) + "]");
      }
    }
    return out;
  }
}
