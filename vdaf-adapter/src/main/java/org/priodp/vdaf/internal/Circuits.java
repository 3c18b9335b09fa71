package org.priodp.vdaf.internal;

import java.math.BigInteger;
import java.util.List;
import org.priodp.field.Field64;
import org.priodp.field.PrimeField;

/**
 * The validity circuits of the Prio3 variants (VDAF draft-20, section "Variants"), plus the
 * degree-3 test circuit of the reference implementation's test vectors. Each variant builds its
 * own ({@link org.priodp.vdaf.Prio3Variant#circuit()}).
 */
public final class Circuits {
  private Circuits() {}

  // ------------------------------------------------------------------ Count

  /** The Count circuit (section "Prio3Count"): Mul(x, x) - x. */
  public static final class Count extends Circuit {
    /** Creates the circuit over a field. */
    public Count(PrimeField field) {
      super(field, new Gadget[] {Gadget.Mul.INSTANCE}, new int[] {1}, 1, 0, 1, 1);
    }

    @Override
    public long[] encode(List<BigInteger> measurement) {
      requireSize(measurement, 1, "Prio3Count");
      BigInteger m = measurement.get(0);
      if (!m.equals(BigInteger.ZERO) && !m.equals(BigInteger.ONE)) {
        throw invalid("Prio3Count measurement must be 0 or 1, got " + m);
      }
      long[] out = field.newArray(1);
      field.set(out, 0, m);
      return out;
    }

    @Override
    public long[] eval(long[] meas, long[] jointRand, int numShares, GadgetCall[] calls) {
      long[] inp = field.newArray(2);
      System.arraycopy(meas, 0, inp, 0, field.words());
      System.arraycopy(meas, 0, inp, field.words(), field.words());
      long[] out = field.newArray(1);
      calls[0].call(inp, out, 0);
      field.sub(out, 0, meas, 0, out, 0);
      return out;
    }

    @Override
    public long[] truncate(long[] meas) {
      return meas.clone();
    }
  }

  // ------------------------------------------------------------------ Sum

  /** The Sum circuit (section "Prio3Sum"): PolyEval(x^2 - x) on each bit. */
  public static final class Sum extends Circuit {
    private final RangeCheckedInt encoding;

    /** Creates the circuit for measurements in [0, maxMeasurement]. */
    public Sum(PrimeField field, BigInteger maxMeasurement) {
      super(
          field,
          new Gadget[] {
            new Gadget.PolyEval(field, new long[] {0, -1, 1}, maxMeasurement.bitLength())
          },
          new int[] {maxMeasurement.bitLength()},
          maxMeasurement.bitLength(),
          0,
          maxMeasurement.bitLength(),
          1);
      this.encoding = new RangeCheckedInt(field, maxMeasurement);
    }

    @Override
    public long[] encode(List<BigInteger> measurement) {
      requireSize(measurement, 1, "Prio3Sum");
      long[] out = field.newArray(encoding.bits());
      encoding.encode(measurement.get(0), out, 0);
      return out;
    }

    @Override
    public long[] eval(long[] meas, long[] jointRand, int numShares, GadgetCall[] calls) {
      int n = measLen();
      long[] out = field.newArray(n);
      long[] inp = field.newArray(1);
      int w = field.words();
      for (int i = 0; i < n; i++) {
        System.arraycopy(meas, i * w, inp, 0, w);
        calls[0].call(inp, out, i);
      }
      return out;
    }

    @Override
    public long[] truncate(long[] meas) {
      long[] out = field.newArray(1);
      encoding.decode(meas, 0, out, 0);
      return out;
    }
  }

  // ------------------------------------------------------------------ ParallelSum range checks

  /**
   * The shared range check of SumVec, Histogram, MultihotCountVec and L1BoundSum: for each gadget call i the
   * ParallelSum(Mul) inputs are (r_i^(j+1) * x, x - 1/num_shares) over chunk j of the encoded
   * measurement (zero-padded); the outputs are summed.
   */
  abstract static class Chunked extends Circuit {
    private final int chunkLength;

    Chunked(PrimeField field, int measLen, int chunkLength, int evalOutputLen, int outputLen) {
      super(
          field,
          new Gadget[] {new Gadget.ParallelSum(Gadget.Mul.INSTANCE, chunkLength)},
          new int[] {calls(measLen, chunkLength)},
          measLen,
          calls(measLen, chunkLength),
          evalOutputLen,
          outputLen);
      this.chunkLength = chunkLength;
    }

    private static int calls(int measLen, int chunkLength) {
      return (int) (((long) measLen + chunkLength - 1) / chunkLength);
    }

    /** Sets {@code out[oi]} to the range check of the whole encoded measurement. */
    final void rangeCheck(
        long[] meas, long[] jointRand, long[] sharesInv, GadgetCall call, long[] out, int oi) {
      PrimeField f = field;
      int w = f.words();
      int n = measLen();
      long[] inputs = f.newArray(2 * chunkLength);
      // s[0] = r, s[1] = r_power, s[2] = meas_elem, s[3] = gadget output.
      long[] s = f.newArray(4);
      java.util.Arrays.fill(out, oi * w, (oi + 1) * w, 0L);
      int calls = gadgetCalls(0);
      for (int i = 0; i < calls; i++) {
        System.arraycopy(jointRand, i * w, s, 0, w);
        System.arraycopy(jointRand, i * w, s, w, w);
        for (int j = 0; j < chunkLength; j++) {
          int index = i * chunkLength + j;
          if (index < n) {
            System.arraycopy(meas, index * w, s, 2 * w, w);
          } else {
            java.util.Arrays.fill(s, 2 * w, 3 * w, 0L);
          }
          f.mul(s, 1, s, 2, inputs, 2 * j);
          f.sub(s, 2, sharesInv, 0, inputs, 2 * j + 1);
          f.mul(s, 1, s, 0, s, 1);
        }
        call.call(inputs, s, 3);
        f.add(out, oi, s, 3, out, oi);
      }
    }

    /** Sets {@code out[oi]} to the sum of {@code meas[from .. to)}. */
    final void sum(long[] meas, int from, int to, long[] out, int oi) {
      java.util.Arrays.fill(out, oi * field.words(), (oi + 1) * field.words(), 0L);
      for (int i = from; i < to; i++) {
        field.add(out, oi, meas, i, out, oi);
      }
    }

    /** Requires every value to be 0 or 1 and stores it. */
    final void encodeBits(List<BigInteger> measurement, long[] out) {
      for (int i = 0; i < measurement.size(); i++) {
        BigInteger b = measurement.get(i);
        if (!b.equals(BigInteger.ZERO) && !b.equals(BigInteger.ONE)) {
          throw invalid("measurement value " + i + " must be 0 or 1, got " + b);
        }
        field.set(out, i, b);
      }
    }
  }

  /** The SumVec circuit (section "Prio3SumVec"). */
  public static final class SumVec extends Chunked {
    private final int length;
    private final RangeCheckedInt encoding;

    /** Creates the circuit for vectors of {@code length} integers in [0, maxMeasurement]. */
    public SumVec(PrimeField field, int length, BigInteger maxMeasurement, int chunkLength) {
      super(field, Math.multiplyExact(length, maxMeasurement.bitLength()), chunkLength, 1, length);
      this.length = length;
      this.encoding = new RangeCheckedInt(field, maxMeasurement);
    }

    @Override
    public long[] encode(List<BigInteger> measurement) {
      requireSize(measurement, length, "Prio3SumVec");
      long[] out = field.newArray(measLen());
      for (int i = 0; i < length; i++) {
        encoding.encode(measurement.get(i), out, i * encoding.bits());
      }
      return out;
    }

    @Override
    public long[] eval(long[] meas, long[] jointRand, int numShares, GadgetCall[] calls) {
      long[] out = field.newArray(1);
      rangeCheck(meas, jointRand, sharesInv(numShares), calls[0], out, 0);
      return out;
    }

    @Override
    public long[] truncate(long[] meas) {
      return encoding.decodeVector(meas, length);
    }
  }

  /** The Histogram circuit (section "Prio3Histogram"). */
  public static final class Histogram extends Chunked {
    private final int length;

    /** Creates the circuit for {@code length} buckets. */
    public Histogram(PrimeField field, int length, int chunkLength) {
      super(field, length, chunkLength, 2, length);
      this.length = length;
    }

    @Override
    public long[] encode(List<BigInteger> measurement) {
      requireSize(measurement, 1, "Prio3Histogram");
      BigInteger m = measurement.get(0);
      if (m.signum() < 0 || m.compareTo(BigInteger.valueOf(length)) >= 0) {
        throw invalid("Prio3Histogram bucket must be in [0, " + length + "), got " + m);
      }
      long[] out = field.newArray(length);
      field.set(out, m.intValueExact(), BigInteger.ONE);
      return out;
    }

    @Override
    public long[] eval(long[] meas, long[] jointRand, int numShares, GadgetCall[] calls) {
      long[] sharesInv = sharesInv(numShares);
      long[] out = field.newArray(2);
      rangeCheck(meas, jointRand, sharesInv, calls[0], out, 0);
      sum(meas, 0, length, out, 1);
      field.sub(out, 1, sharesInv, 0, out, 1);
      return out;
    }

    @Override
    public long[] truncate(long[] meas) {
      return meas.clone();
    }
  }

  /** The MultihotCountVec circuit (section "Prio3MultihotCountVec"). */
  public static final class MultihotCountVec extends Chunked {
    private final int length;
    private final int maxWeight;
    private final RangeCheckedInt weightEncoding;

    /** Creates the circuit for {@code length} booleans with at most {@code maxWeight} set. */
    public MultihotCountVec(PrimeField field, int length, int maxWeight, int chunkLength) {
      super(
          field,
          length + BigInteger.valueOf(maxWeight).bitLength(),
          chunkLength,
          2,
          length);
      this.length = length;
      this.maxWeight = maxWeight;
      this.weightEncoding = new RangeCheckedInt(field, BigInteger.valueOf(maxWeight));
    }

    @Override
    public long[] encode(List<BigInteger> measurement) {
      requireSize(measurement, length, "Prio3MultihotCountVec");
      long[] out = field.newArray(measLen());
      encodeBits(measurement, out);
      int weight = 0;
      for (BigInteger b : measurement) {
        weight += b.intValue();
      }
      if (weight > maxWeight) {
        throw invalid(
            "Prio3MultihotCountVec weight " + weight + " exceeds max_weight " + maxWeight);
      }
      weightEncoding.encode(BigInteger.valueOf(weight), out, length);
      return out;
    }

    @Override
    public long[] eval(long[] meas, long[] jointRand, int numShares, GadgetCall[] calls) {
      long[] out = field.newArray(3);
      rangeCheck(meas, jointRand, sharesInv(numShares), calls[0], out, 0);
      sum(meas, 0, length, out, 1);
      weightEncoding.decode(meas, length, out, 2);
      field.sub(out, 1, out, 2, out, 1);
      long[] result = field.newArray(2);
      System.arraycopy(out, 0, result, 0, result.length);
      return result;
    }

    @Override
    public long[] truncate(long[] meas) {
      return java.util.Arrays.copyOf(meas, length * field.words());
    }
  }

  /**
   * The L1BoundSum circuit (draft-ietf-ppm-l1-bound-sum-02, section 3.3, Figure 1): the
   * ParallelSum(Mul) range check over the whole encoded measurement, the {@code length}
   * components and then their claimed sum (the weight), each in {@code bits} elements, and the
   * weight check (sum of the decoded components) - (decoded weight).
   */
  public static final class L1BoundSum extends Chunked {
    private final int length;
    private final BigInteger maxValue;
    private final RangeCheckedInt encoding;

    /** Creates the circuit for {@code length} integers whose sum is at most {@code maxValue}. */
    public L1BoundSum(PrimeField field, int length, BigInteger maxValue, int chunkLength) {
      super(field, Math.multiplyExact(Math.addExact(length, 1), maxValue.bitLength()), chunkLength, 2,
          length);
      this.length = length;
      this.maxValue = maxValue;
      this.encoding = new RangeCheckedInt(field, maxValue);
    }

    /**
     * Encodes each component, then their sum, with encode_range_checked_int(max_value)
     * (section 3.2).
     *
     * @throws org.priodp.vdaf.VdafException (INVALID_MEASUREMENT) naming the component that is
     *     negative or the sum that exceeds max_value
     */
    @Override
    public long[] encode(List<BigInteger> measurement) {
      requireSize(measurement, length, "Prio3L1BoundSum");
      BigInteger weight = BigInteger.ZERO;
      for (int i = 0; i < length; i++) {
        BigInteger v = measurement.get(i);
        if (v.signum() < 0) {
          throw invalid("Prio3L1BoundSum measurement value " + i + " must be >= 0, got " + v);
        }
        weight = weight.add(v);
      }
      if (weight.compareTo(maxValue) > 0) {
        throw invalid("Prio3L1BoundSum sum of the measurement " + weight + " exceeds max_value " + maxValue);
      }
      long[] out = field.newArray(measLen());
      int bits = encoding.bits();
      for (int i = 0; i < length; i++) {
        encoding.encode(measurement.get(i), out, i * bits);
      }
      encoding.encode(weight, out, length * bits);
      return out;
    }

    @Override
    public long[] eval(long[] meas, long[] jointRand, int numShares, GadgetCall[] calls) {
      long[] out = field.newArray(2);
      rangeCheck(meas, jointRand, sharesInv(numShares), calls[0], out, 0);
      // decode_range_checked_int is linear: the sum of the decoded components is the decoding of
      // the element-wise sum of their encodings.
      int bits = encoding.bits();
      long[] summed = field.newArray(bits);
      for (int i = 0; i < length; i++) {
        for (int l = 0; l < bits; l++) {
          field.add(summed, l, meas, i * bits + l, summed, l);
        }
      }
      long[] claimed = field.newArray(1);
      encoding.decode(summed, 0, out, 1);
      encoding.decode(meas, length * bits, claimed, 0);
      field.sub(out, 1, claimed, 0, out, 1);
      return out;
    }

    @Override
    public long[] truncate(long[] meas) {
      return encoding.decodeVector(meas, length);
    }
  }

  // ------------------------------------------------------------------ HigherDegree (test only)

  /**
   * The test-only circuit of the reference implementation's {@code Prio3HigherDegree} vectors:
   * Field64, one call of PolyEval(x (x - 1) (x - 2)) on a single-element measurement, so it
   * accepts 0, 1 and 2. It is not a standard variant of the specification.
   */
  public static final class HigherDegree extends Circuit {
    /** Creates the circuit (always over Field64). */
    public HigherDegree() {
      super(
          Field64.FIELD,
          new Gadget[] {new Gadget.PolyEval(Field64.FIELD, new long[] {0, 2, -3, 1}, 1)},
          new int[] {1},
          1,
          0,
          1,
          1);
    }

    @Override
    public long[] encode(List<BigInteger> measurement) {
      requireSize(measurement, 1, "Prio3HigherDegree");
      BigInteger m = measurement.get(0);
      if (m.signum() < 0 || m.compareTo(BigInteger.TWO) > 0) {
        throw invalid("Prio3HigherDegree measurement must be 0, 1 or 2, got " + m);
      }
      long[] out = field.newArray(1);
      field.set(out, 0, m);
      return out;
    }

    @Override
    public long[] eval(long[] meas, long[] jointRand, int numShares, GadgetCall[] calls) {
      long[] out = field.newArray(1);
      calls[0].call(meas, out, 0);
      return out;
    }

    @Override
    public long[] truncate(long[] meas) {
      return meas.clone();
    }
  }
}
