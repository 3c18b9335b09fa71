package org.priodp.noise.compress;

/**
 * Elias gamma and Elias delta codes for positive integers, and their signed versions (Elias
 * 1975; the DQL paper codes descriptions with the signed Elias delta code in Theorem 8 and with
 * Elias gamma in Fig. 3).
 *
 * <p>Gamma writes v >= 1 as floor(log2 v) zeros followed by the binary digits of v
 * (2 floor(log2 v) + 1 bits). Delta writes the gamma code of floor(log2 v) + 1 followed by the
 * binary digits of v without its leading one. The signed codes map an integer M to
 * v = 2M for M > 0 and v = -2M + 1 for M <= 0 (so 0, -1, 1, -2, ... become 1, 3, 2, 5, ...),
 * which is the paper's 2|M - 1/4| + 1/2. Every v in [1, 2^63 - 1] and every M in
 * [-(2^62 - 1), 2^62 - 1] is supported.
 */
public enum EliasCode {
  /** Elias gamma: 2 floor(log2 v) + 1 bits. */
  GAMMA,
  /** Elias delta: floor(log2 v) + 2 floor(log2(floor(log2 v) + 1)) + 1 bits. */
  DELTA;

  /** Largest |M| the signed codes accept: 2^62 - 1. */
  public static final long MAX_SIGNED = (1L << 62) - 1;

  /**
   * Appends the code of {@code v >= 1}.
   *
   * @throws IllegalArgumentException if v < 1
   */
  public void write(BitWriter out, long v) {
    if (v < 1) {
      throw new IllegalArgumentException("Elias codes are for integers >= 1, got " + v);
    }
    int n = 63 - Long.numberOfLeadingZeros(v);
    if (this == GAMMA) {
      out.writeZeros(n);
      out.writeBits(v, n + 1);
    } else {
      GAMMA.write(out, n + 1);
      out.writeBits(v, n);
    }
  }

  /**
   * Reads one code word.
   *
   * @throws IllegalArgumentException if the stream is truncated or the word encodes a value
   *     above 2^63 - 1
   */
  public long read(BitReader in) {
    int n;
    if (this == GAMMA) {
      n = in.readZerosThenOne(62);
    } else {
      long len = GAMMA.read(in);
      if (len > 63) {
        throw new IllegalArgumentException("malformed description: Elias delta word longer than 63 bits");
      }
      n = (int) len - 1;
    }
    return (1L << n) | in.readBits(n);
  }

  /** Returns the length in bits of the code of {@code v >= 1}. */
  public int length(long v) {
    if (v < 1) {
      throw new IllegalArgumentException("Elias codes are for integers >= 1, got " + v);
    }
    int n = 63 - Long.numberOfLeadingZeros(v);
    if (this == GAMMA) {
      return 2 * n + 1;
    }
    int m = 63 - Long.numberOfLeadingZeros(n + 1);
    return n + 2 * m + 1;
  }

  /** Appends the signed code of {@code m}, |m| <= 2^62 - 1. */
  public void writeSigned(BitWriter out, long m) {
    write(out, signedToPositive(m));
  }

  /** Reads one signed code word. */
  public long readSigned(BitReader in) {
    return positiveToSigned(read(in));
  }

  /** Returns the length in bits of the signed code of {@code m}. */
  public int signedLength(long m) {
    return length(signedToPositive(m));
  }

  /**
   * Maps M to v = 2M for M > 0 and v = -2M + 1 for M <= 0.
   *
   * @throws IllegalArgumentException if |m| > 2^62 - 1
   */
  public static long signedToPositive(long m) {
    if (m > MAX_SIGNED || m < -MAX_SIGNED) {
      throw new IllegalArgumentException("signed Elias codes take |M| <= 2^62 - 1, got " + m);
    }
    return m > 0 ? 2 * m : -2 * m + 1;
  }

  /**
   * Inverts {@link #signedToPositive(long)}.
   *
   * @throws IllegalArgumentException if v < 1
   */
  public static long positiveToSigned(long v) {
    if (v < 1) {
      throw new IllegalArgumentException("Elias codes are for integers >= 1, got " + v);
    }
    return (v & 1) == 0 ? v >>> 1 : -(v >>> 1);
  }
}
