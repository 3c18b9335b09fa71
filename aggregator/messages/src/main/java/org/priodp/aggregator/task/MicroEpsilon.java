package org.priodp.aggregator.task;

import java.math.BigDecimal;
import java.math.BigInteger;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.noise.Rational;

/**
 * A privacy budget in micro-epsilons, the value of the attribution draft's privacy_budget report
 * extension and min_dp_budget collection job extension (draft-ietf-ppm-dap-attribution-00,
 * sections 3 and 5): a uint32 in network byte order, each unit one millionth of the epsilon of
 * (epsilon, delta)-differential privacy, so at most epsilon = 4294.967295. Exact: {@link
 * #epsilon()} is a {@link Rational}. Immutable.
 *
 * @param micros the number of micro-epsilons, 0 to 2^32 - 1
 */
public record MicroEpsilon(long micros) implements Comparable<MicroEpsilon> {
  /** The encoded length: one uint32. */
  public static final int LENGTH = 4;

  private static final BigInteger MILLION = BigInteger.valueOf(1_000_000);

  /** Refuses a value outside uint32. */
  public MicroEpsilon {
    if (micros < 0 || micros > 0xffff_ffffL) {
      throw new IllegalArgumentException("micro-epsilons: a uint32, got " + micros);
    }
  }

  /**
   * Parses an epsilon written in decimal ("0.5", "1", "0.000001") into micro-epsilons; it must be a
   * whole number of micro-epsilons and fit a uint32.
   *
   * @throws IllegalArgumentException naming what is wrong
   */
  public static MicroEpsilon parseEpsilon(String text) {
    BigDecimal d;
    try {
      d = new BigDecimal(text.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("expected an epsilon in decimal, e.g. 0.5, got '" + text
          + "'");
    }
    BigDecimal micros = d.movePointRight(6);
    if (micros.signum() < 0 || micros.stripTrailingZeros().scale() > 0) {
      throw new IllegalArgumentException("an epsilon is a non-negative whole number of"
          + " micro-epsilons (at most 6 decimals), got '" + text + "'");
    }
    if (micros.compareTo(BigDecimal.valueOf(0xffff_ffffL)) > 0) {
      throw new IllegalArgumentException("an epsilon is at most 4294.967295 (a uint32 of"
          + " micro-epsilons), got '" + text + "'");
    }
    return new MicroEpsilon(micros.longValueExact());
  }

  /** Decodes the 4-byte big-endian extension data; anything else is refused naming the field. */
  public static MicroEpsilon decode(ByteString data, String field) {
    if (data.length() != LENGTH) {
      throw new IllegalArgumentException(field + ": a privacy budget is a 4-byte uint32 of"
          + " micro-epsilons, got " + data.length() + " bytes");
    }
    byte[] b = data.toByteArray();
    long v = 0;
    for (byte x : b) {
      v = (v << 8) | (x & 0xff);
    }
    return new MicroEpsilon(v);
  }

  /** Returns the 4-byte big-endian encoding. */
  public byte[] encode() {
    return new byte[] {(byte) (micros >>> 24), (byte) (micros >>> 16), (byte) (micros >>> 8),
        (byte) micros};
  }

  /** Returns epsilon exactly: micros / 10^6. */
  public Rational epsilon() {
    return Rational.of(BigInteger.valueOf(micros), MILLION);
  }

  /** Returns epsilon in decimal without trailing zeros, e.g. "0.5" (exact). */
  public String toDecimal() {
    return BigDecimal.valueOf(micros, 6).stripTrailingZeros().toPlainString();
  }

  @Override
  public int compareTo(MicroEpsilon o) {
    return Long.compare(micros, o.micros);
  }

  @Override
  public String toString() {
    return "epsilon=" + toDecimal();
  }
}
