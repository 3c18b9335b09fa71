package org.priodp.vdaf.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * TurboSHAKE128 (RFC 9861, section 2): the sponge over Keccak-p[1600, n_r = 12] with a rate of
 * 168 bytes and a domain separation byte D in [0x01, 0x7F].
 *
 * <p>Input is absorbed incrementally with {@link #absorb}; the first call to {@link #squeeze}
 * pads the message with D and the final bit and switches the instance to squeezing, after which
 * output may be read in chunks of any size: squeezing n bytes and then m bytes gives the same
 * bytes as squeezing n + m bytes at once. An instance is not thread-safe.
 *
 * <p>The state is 25 little-endian 64-bit lanes; absorbing and squeezing work on whole lanes
 * whenever the position in the rate is lane-aligned.
 */
public final class TurboShake128 {

  /** The rate in bytes: 1344 bits. */
  public static final int RATE = 168;

  private static final int RATE_LANES = RATE / 8;
  private static final int ROUNDS = 12;
  private static final long[] ROUND_CONSTANTS = roundConstants();
  private static final VarHandle LE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private final long[] state = new long[25];
  private final int domainSeparation;
  /** Byte position inside the rate, in [0, RATE]. */
  private int pos;
  private boolean squeezing;

  /**
   * Creates an empty TurboSHAKE128 instance with domain separation byte {@code d}.
   *
   * @throws IllegalArgumentException if {@code d} is not in [0x01, 0x7F]
   */
  public TurboShake128(int d) {
    if (d < 0x01 || d > 0x7F) {
      throw new IllegalArgumentException(
          "TurboSHAKE128 domain separation byte must be in [0x01, 0x7F], got " + d);
    }
    this.domainSeparation = d;
  }

  /**
   * Returns the first {@code outputLength} bytes of TurboSHAKE128(M, D, L).
   *
   * @throws IllegalArgumentException if {@code d} is not in [0x01, 0x7F] or the length is
   *     negative
   */
  public static byte[] hash(byte[] message, int d, int outputLength) {
    return new TurboShake128(d).absorb(message).squeeze(outputLength);
  }

  /**
   * Absorbs all of {@code in}; returns this instance.
   *
   * @throws IllegalStateException if output has already been squeezed
   */
  public TurboShake128 absorb(byte[] in) {
    return absorb(in, 0, in.length);
  }

  /**
   * Absorbs {@code in[off .. off+len)}; returns this instance.
   *
   * @throws IllegalStateException if output has already been squeezed
   * @throws IndexOutOfBoundsException if the range is outside {@code in}
   */
  public TurboShake128 absorb(byte[] in, int off, int len) {
    Objects.checkFromIndexSize(off, len, in.length);
    if (squeezing) {
      throw new IllegalStateException("TurboSHAKE128: cannot absorb after squeezing has started");
    }
    long[] s = state;
    int p = pos;
    int end = off + len;
    // Bytes up to the next lane boundary.
    while (off < end && (p & 7) != 0) {
      s[p >>> 3] ^= (in[off++] & 0xFFL) << ((p & 7) << 3);
      p++;
    }
    // Whole lanes; whole blocks when lane-aligned at the start of the rate.
    while (end - off >= 8) {
      if (p == RATE) {
        permute(s);
        p = 0;
      }
      if (p == 0) {
        while (end - off >= RATE) {
          for (int i = 0; i < RATE_LANES; i++) {
            s[i] ^= (long) LE.get(in, off + 8 * i);
          }
          off += RATE;
          permute(s);
        }
        if (end - off < 8) {
          break;
        }
      }
      s[p >>> 3] ^= (long) LE.get(in, off);
      off += 8;
      p += 8;
    }
    // Remaining bytes.
    while (off < end) {
      if (p == RATE) {
        permute(s);
        p = 0;
      }
      s[p >>> 3] ^= (in[off++] & 0xFFL) << ((p & 7) << 3);
      p++;
    }
    pos = p;
    return this;
  }

  /**
   * Absorbs the little-endian encodings of {@code in[off .. off+n)} (8 bytes each, as if {@link
   * #absorb(byte[])} were given them), without building the byte string: a word XORs into the
   * state as one lane, or as two lane parts when the input so far is not a multiple of 8 bytes.
   * Returns this instance.
   *
   * @throws IllegalStateException if output has already been squeezed
   * @throws IndexOutOfBoundsException if the range is outside {@code in}
   */
  public TurboShake128 absorbLongs(long[] in, int off, int n) {
    Objects.checkFromIndexSize(off, n, in.length);
    if (squeezing) {
      throw new IllegalStateException("TurboSHAKE128: cannot absorb after squeezing has started");
    }
    long[] s = state;
    int p = pos;
    int end = off + n;
    int r = p & 7;
    if (r == 0) {
      for (int i = off; i < end; i++) {
        if (p == RATE) {
          permute(s);
          p = 0;
        }
        s[p >>> 3] ^= in[i];
        p += 8;
      }
    } else {
      // p < RATE throughout: p is never a multiple of 8 between words.
      int shift = r << 3;
      for (int i = off; i < end; i++) {
        long v = in[i];
        s[p >>> 3] ^= v << shift;
        p += 8 - r;
        if (p == RATE) {
          permute(s);
          p = 0;
        }
        s[p >>> 3] ^= v >>> (64 - shift);
        p += r;
      }
    }
    pos = p;
    return this;
  }

  /**
   * Returns the next {@code length} bytes of output (finishing absorption on the first call).
   *
   * @throws IllegalArgumentException if {@code length} is negative
   */
  public byte[] squeeze(int length) {
    if (length < 0) {
      throw new IllegalArgumentException("output length must be >= 0, got " + length);
    }
    byte[] out = new byte[length];
    squeeze(out, 0, length);
    return out;
  }

  /**
   * Writes the next {@code len} bytes of output to {@code out[off .. off+len)} (finishing
   * absorption on the first call).
   *
   * @throws IndexOutOfBoundsException if the range is outside {@code out}
   */
  public void squeeze(byte[] out, int off, int len) {
    Objects.checkFromIndexSize(off, len, out.length);
    long[] s = state;
    if (!squeezing) {
      pad();
    }
    int p = pos;
    int end = off + len;
    while (off < end && (p & 7) != 0) {
      out[off++] = (byte) (s[p >>> 3] >>> ((p & 7) << 3));
      p++;
    }
    while (end - off >= 8) {
      if (p == RATE) {
        permute(s);
        p = 0;
      }
      LE.set(out, off, s[p >>> 3]);
      off += 8;
      p += 8;
    }
    while (off < end) {
      if (p == RATE) {
        permute(s);
        p = 0;
      }
      out[off++] = (byte) (s[p >>> 3] >>> ((p & 7) << 3));
      p++;
    }
    pos = p;
  }

  /**
   * Writes the next {@code 8 n} bytes of output, read as little-endian words, to {@code out[off
   * .. off+n)} (finishing absorption on the first call): the same stream as {@link
   * #squeeze(byte[], int, int)}, lane by lane without a byte buffer when the output read so far
   * is a multiple of 8 bytes.
   *
   * @throws IndexOutOfBoundsException if the range is outside {@code out}
   */
  public void squeezeLongs(long[] out, int off, int n) {
    Objects.checkFromIndexSize(off, n, out.length);
    if (!squeezing) {
      pad();
    }
    if ((pos & 7) != 0) {
      byte[] b = new byte[8];
      for (int i = off; i < off + n; i++) {
        squeeze(b, 0, 8);
        out[i] = (long) LE.get(b, 0);
      }
      return;
    }
    long[] s = state;
    int p = pos;
    for (int i = off; i < off + n; i++) {
      if (p == RATE) {
        permute(s);
        p = 0;
      }
      out[i] = s[p >>> 3];
      p += 8;
    }
    pos = p;
  }

  /**
   * Pads the message (RFC 9861: M || D || 0x00* || 0x80 within the last block, D and 0x80
   * XORed into the same byte when the padding is one byte) and applies the permutation.
   */
  private void pad() {
    long[] s = state;
    int p = pos;
    if (p == RATE) {
      permute(s);
      p = 0;
    }
    s[p >>> 3] ^= ((long) domainSeparation) << ((p & 7) << 3);
    s[RATE_LANES - 1] ^= 0x80L << 56;
    permute(s);
    pos = 0;
    squeezing = true;
  }

  /** Returns the 24 Keccak round constants RC[i_r] (FIPS 202, algorithms 5 and 6). */
  private static long[] roundConstants() {
    long[] rc = new long[24];
    int lfsr = 1; // R = 10000000, bit 0 first
    for (int round = 0; round < 24; round++) {
      long c = 0;
      for (int j = 0; j <= 6; j++) {
        if ((lfsr & 1) != 0) {
          c |= 1L << ((1 << j) - 1);
        }
        // rc(t): shift left by one and reduce by x^8 + x^6 + x^5 + x^4 + 1.
        boolean high = (lfsr & 0x80) != 0;
        lfsr = (lfsr << 1) & 0xFF;
        if (high) {
          lfsr ^= 0x71;
        }
      }
      rc[round] = c;
    }
    return rc;
  }

  /**
   * Applies Keccak-p[1600, 12] to the state: rounds i_r = 12 .. 23 of Keccak-f[1600], each
   * theta, rho, pi, chi and iota, with lanes indexed x + 5y.
   */
  static void permute(long[] s) {
    long a00 = s[0];
    long a01 = s[1];
    long a02 = s[2];
    long a03 = s[3];
    long a04 = s[4];
    long a05 = s[5];
    long a06 = s[6];
    long a07 = s[7];
    long a08 = s[8];
    long a09 = s[9];
    long a10 = s[10];
    long a11 = s[11];
    long a12 = s[12];
    long a13 = s[13];
    long a14 = s[14];
    long a15 = s[15];
    long a16 = s[16];
    long a17 = s[17];
    long a18 = s[18];
    long a19 = s[19];
    long a20 = s[20];
    long a21 = s[21];
    long a22 = s[22];
    long a23 = s[23];
    long a24 = s[24];
    for (int round = 24 - ROUNDS; round < 24; round++) {
      long c0 = a00 ^ a05 ^ a10 ^ a15 ^ a20;
      long c1 = a01 ^ a06 ^ a11 ^ a16 ^ a21;
      long c2 = a02 ^ a07 ^ a12 ^ a17 ^ a22;
      long c3 = a03 ^ a08 ^ a13 ^ a18 ^ a23;
      long c4 = a04 ^ a09 ^ a14 ^ a19 ^ a24;
      long d0 = c4 ^ Long.rotateLeft(c1, 1);
      long d1 = c0 ^ Long.rotateLeft(c2, 1);
      long d2 = c1 ^ Long.rotateLeft(c3, 1);
      long d3 = c2 ^ Long.rotateLeft(c4, 1);
      long d4 = c3 ^ Long.rotateLeft(c0, 1);
      long b00 = a00 ^ d0;
      long b16 = Long.rotateLeft(a05 ^ d0, 36);
      long b07 = Long.rotateLeft(a10 ^ d0, 3);
      long b23 = Long.rotateLeft(a15 ^ d0, 41);
      long b14 = Long.rotateLeft(a20 ^ d0, 18);
      long b10 = Long.rotateLeft(a01 ^ d1, 1);
      long b01 = Long.rotateLeft(a06 ^ d1, 44);
      long b17 = Long.rotateLeft(a11 ^ d1, 10);
      long b08 = Long.rotateLeft(a16 ^ d1, 45);
      long b24 = Long.rotateLeft(a21 ^ d1, 2);
      long b20 = Long.rotateLeft(a02 ^ d2, 62);
      long b11 = Long.rotateLeft(a07 ^ d2, 6);
      long b02 = Long.rotateLeft(a12 ^ d2, 43);
      long b18 = Long.rotateLeft(a17 ^ d2, 15);
      long b09 = Long.rotateLeft(a22 ^ d2, 61);
      long b05 = Long.rotateLeft(a03 ^ d3, 28);
      long b21 = Long.rotateLeft(a08 ^ d3, 55);
      long b12 = Long.rotateLeft(a13 ^ d3, 25);
      long b03 = Long.rotateLeft(a18 ^ d3, 21);
      long b19 = Long.rotateLeft(a23 ^ d3, 56);
      long b15 = Long.rotateLeft(a04 ^ d4, 27);
      long b06 = Long.rotateLeft(a09 ^ d4, 20);
      long b22 = Long.rotateLeft(a14 ^ d4, 39);
      long b13 = Long.rotateLeft(a19 ^ d4, 8);
      long b04 = Long.rotateLeft(a24 ^ d4, 14);
      a00 = b00 ^ (~b01 & b02);
      a01 = b01 ^ (~b02 & b03);
      a02 = b02 ^ (~b03 & b04);
      a03 = b03 ^ (~b04 & b00);
      a04 = b04 ^ (~b00 & b01);
      a05 = b05 ^ (~b06 & b07);
      a06 = b06 ^ (~b07 & b08);
      a07 = b07 ^ (~b08 & b09);
      a08 = b08 ^ (~b09 & b05);
      a09 = b09 ^ (~b05 & b06);
      a10 = b10 ^ (~b11 & b12);
      a11 = b11 ^ (~b12 & b13);
      a12 = b12 ^ (~b13 & b14);
      a13 = b13 ^ (~b14 & b10);
      a14 = b14 ^ (~b10 & b11);
      a15 = b15 ^ (~b16 & b17);
      a16 = b16 ^ (~b17 & b18);
      a17 = b17 ^ (~b18 & b19);
      a18 = b18 ^ (~b19 & b15);
      a19 = b19 ^ (~b15 & b16);
      a20 = b20 ^ (~b21 & b22);
      a21 = b21 ^ (~b22 & b23);
      a22 = b22 ^ (~b23 & b24);
      a23 = b23 ^ (~b24 & b20);
      a24 = b24 ^ (~b20 & b21);
      a00 ^= ROUND_CONSTANTS[round];
    }
    s[0] = a00;
    s[1] = a01;
    s[2] = a02;
    s[3] = a03;
    s[4] = a04;
    s[5] = a05;
    s[6] = a06;
    s[7] = a07;
    s[8] = a08;
    s[9] = a09;
    s[10] = a10;
    s[11] = a11;
    s[12] = a12;
    s[13] = a13;
    s[14] = a14;
    s[15] = a15;
    s[16] = a16;
    s[17] = a17;
    s[18] = a18;
    s[19] = a19;
    s[20] = a20;
    s[21] = a21;
    s[22] = a22;
    s[23] = a23;
    s[24] = a24;
  }
}
