package org.priodp.vdaf.internal;

import java.math.BigInteger;
import org.priodp.field.PrimeField;
import org.priodp.vdaf.VdafException;

/**
 * The weighted bit encoding of integers in [0, max_measurement] (VDAF draft-20, section
 * "Prio3Sum", {@code encode_range_checked_int} and {@code decode_range_checked_int}): bits - 1
 * powers of two followed by the weight max_measurement - (2^(bits-1) - 1).
 */
public final class RangeCheckedInt {
  private final PrimeField field;
  private final BigInteger maxMeasurement;
  private final int bits;
  private final BigInteger restAllOnes;
  private final BigInteger lastWeight;
  private final long[] lastWeightElement;

  /** Creates the encoding for [0, maxMeasurement], maxMeasurement >= 1. */
  public RangeCheckedInt(PrimeField field, BigInteger maxMeasurement) {
    if (maxMeasurement.signum() <= 0 || maxMeasurement.compareTo(field.modulus()) >= 0) {
      throw new IllegalArgumentException("max_measurement must be in [1, p), got " + maxMeasurement);
    }
    this.field = field;
    this.maxMeasurement = maxMeasurement;
    this.bits = maxMeasurement.bitLength();
    this.restAllOnes = BigInteger.ONE.shiftLeft(bits - 1).subtract(BigInteger.ONE);
    this.lastWeight = maxMeasurement.subtract(restAllOnes);
    this.lastWeightElement = field.newArray(1);
    field.set(lastWeightElement, 0, lastWeight);
  }

  /** Returns bits = max_measurement.bit_length(), the number of encoded elements. */
  public int bits() {
    return bits;
  }

  /**
   * Writes the encoding of {@code value} to {@code out[off .. off + bits)}.
   *
   * @throws VdafException (INVALID_MEASUREMENT) if value is outside [0, max_measurement]
   */
  public void encode(BigInteger value, long[] out, int off) {
    if (value.signum() < 0 || value.compareTo(maxMeasurement) > 0) {
      throw new VdafException(
          VdafException.Reason.INVALID_MEASUREMENT,
          "measurement " + value + " is outside [0, " + maxMeasurement + "]");
    }
    BigInteger rest;
    BigInteger last;
    if (value.compareTo(restAllOnes) <= 0) {
      rest = value;
      last = BigInteger.ZERO;
    } else {
      rest = value.subtract(lastWeight);
      last = BigInteger.ONE;
    }
    for (int l = 0; l < bits - 1; l++) {
      field.setSigned(out, off + l, rest.testBit(l) ? 1 : 0);
    }
    field.setSigned(out, off + bits - 1, last.signum());
  }

  /**
   * Returns the decodings of the {@code count} consecutive encodings at the start of {@code enc},
   * one element each: the {@code truncate} of Prio3SumVec (VDAF draft-20) and of Prio3L1BoundSum
   * (draft-ietf-ppm-l1-bound-sum-02, section 3.2), which leaves out what follows.
   */
  public long[] decodeVector(long[] enc, int count) {
    long[] out = field.newArray(count);
    for (int i = 0; i < count; i++) {
      decode(enc, i * bits, out, i);
    }
    return out;
  }

  /**
   * Sets {@code out[oi]} to the weighted sum of {@code enc[off .. off + bits)}: the powers of two
   * by Horner's rule with doublings (additions only), then one multiplication by the last weight.
   */
  public void decode(long[] enc, int off, long[] out, int oi) {
    long[] acc = field.newArray(2);
    for (int l = bits - 2; l >= 0; l--) {
      field.add(acc, 0, acc, 0, acc, 0);
      field.add(acc, 0, enc, off + l, acc, 0);
    }
    field.mul(lastWeightElement, 0, enc, off + bits - 1, acc, 1);
    field.add(acc, 0, acc, 1, acc, 0);
    System.arraycopy(acc, 0, out, oi * field.words(), field.words());
  }
}
