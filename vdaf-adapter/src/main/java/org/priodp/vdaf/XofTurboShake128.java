package org.priodp.vdaf;

import java.util.Objects;
import org.priodp.field.Field128;
import org.priodp.field.Field64;
import org.priodp.field.PrimeField;
import org.priodp.vdaf.internal.TurboShake128;

/**
 * XofTurboShake128, the extendable output function that Prio3 uses to derive seeds and expand
 * them into field vectors (VDAF draft-20, sections "Extendable Output Functions (XOFs)" and
 * "XofTurboShake128").
 *
 * <p>An instance reads TurboSHAKE128(M, D = 1) for M = to_le_bytes(len(dst), 2) || dst ||
 * to_le_bytes(len(seed), 1) || seed || binder. Successive calls to {@link #next} and {@link
 * #nextVec} return successive parts of that one output stream. An instance is a stateful stream:
 * it is not thread-safe and must not be shared.
 */
public final class XofTurboShake128 {

  /** The default seed length in bytes ({@code SEED_SIZE} in the specification). */
  public static final int SEED_SIZE = 32;

  /** The largest seed length the XOF accepts, in bytes. */
  public static final int MAX_SEED_LENGTH = 255;

  /** The largest domain separation tag length the XOF accepts, in bytes. */
  public static final int MAX_DST_LENGTH = 65535;

  private static final int DOMAIN_SEPARATION = 1;

  private final TurboShake128 sponge;

  /**
   * Creates the XOF for a seed, a domain separation tag and a binder string (VDAF draft-20,
   * section "XofTurboShake128").
   *
   * <p>The seed is normally {@link #SEED_SIZE} bytes; the specification allows any length up to
   * {@link #MAX_SEED_LENGTH}. The arrays are read here and not retained.
   *
   * @throws IllegalArgumentException if the seed is longer than 255 bytes or the dst is longer
   *     than 65535 bytes
   */
  public XofTurboShake128(byte[] seed, byte[] dst, byte[] binder) {
    Objects.requireNonNull(seed, "seed");
    Objects.requireNonNull(dst, "dst");
    Objects.requireNonNull(binder, "binder");
    if (seed.length > MAX_SEED_LENGTH) {
      throw new IllegalArgumentException(
          "XofTurboShake128 seed must be at most " + MAX_SEED_LENGTH + " bytes, got "
              + seed.length);
    }
    if (dst.length > MAX_DST_LENGTH) {
      throw new IllegalArgumentException(
          "XofTurboShake128 domain separation tag must be at most " + MAX_DST_LENGTH
              + " bytes, got " + dst.length);
    }
    byte[] dstLength = {(byte) dst.length, (byte) (dst.length >>> 8)};
    byte[] seedLength = {(byte) seed.length};
    sponge =
        new TurboShake128(DOMAIN_SEPARATION)
            .absorb(dstLength)
            .absorb(dst)
            .absorb(seedLength)
            .absorb(seed)
            .absorb(binder);
  }

  /**
   * Derives a fresh {@link #SEED_SIZE}-byte seed: the first 32 bytes of the XOF for {@code
   * (seed, dst, binder)} (VDAF draft-20, {@code derive_seed}).
   *
   * @throws IllegalArgumentException if the seed is not {@link #SEED_SIZE} bytes or the dst is
   *     longer than 65535 bytes
   */
  public static byte[] deriveSeed(byte[] seed, byte[] dst, byte[] binder) {
    requireSeedSize(seed);
    return new XofTurboShake128(seed, dst, binder).next(SEED_SIZE);
  }

  /**
   * Derives a seed like {@link #deriveSeed(byte[], byte[], byte[])} for the binder {@code
   * binderPrefix || field.encode(vec)}, absorbing the vector's words directly: both fields encode
   * an element as its flat storage words, little-endian, low word first (VDAF draft-20, section
   * "Finite Field Arithmetic"), so no byte string of the vector is built.
   *
   * @throws IllegalArgumentException if the seed is not {@link #SEED_SIZE} bytes or the dst is
   *     longer than 65535 bytes
   */
  public static byte[] deriveSeed(byte[] seed, byte[] dst, byte[] binderPrefix, long[] vec) {
    requireSeedSize(seed);
    XofTurboShake128 x = new XofTurboShake128(seed, dst, binderPrefix);
    x.sponge.absorbLongs(vec, 0, vec.length);
    return x.next(SEED_SIZE);
  }

  /**
   * Expands a {@link #SEED_SIZE}-byte seed into {@code length} field elements in flat storage
   * (VDAF draft-20, {@code expand_into_vec}); equivalent to {@code new XofTurboShake128(seed,
   * dst, binder).nextVec(field, length)}.
   *
   * @throws IllegalArgumentException if the seed is not {@link #SEED_SIZE} bytes, the dst is
   *     longer than 65535 bytes or {@code length} is negative
   */
  public static long[] expandIntoVec(
      PrimeField field, byte[] seed, byte[] dst, byte[] binder, int length) {
    requireSeedSize(seed);
    return new XofTurboShake128(seed, dst, binder).nextVec(field, length);
  }

  /**
   * Returns the next {@code length} bytes of the output stream.
   *
   * @throws IllegalArgumentException if {@code length} is negative
   */
  public byte[] next(int length) {
    if (length < 0) {
      throw new IllegalArgumentException("XOF output length must be >= 0, got " + length);
    }
    return sponge.squeeze(length);
  }

  /**
   * Returns the next {@code length} field elements, in the field's flat storage, sampled by
   * rejection as VDAF draft-20 {@code next_vec} does: each candidate is the next {@code
   * field.encodedSize()} bytes read little-endian and masked to the bit length of p; candidates
   * >= p are discarded.
   *
   * @throws IllegalArgumentException if {@code length} is negative
   */
  public long[] nextVec(PrimeField field, int length) {
    Objects.requireNonNull(field, "field");
    if (length < 0) {
      throw new IllegalArgumentException("XOF vector length must be >= 0, got " + length);
    }
    long[] out = field.newArray(length);
    int words = field.words();
    // Candidates are consumed in order, so reading several at once leaves the stream exactly
    // where reading them one by one would; each candidate is words() little-endian words.
    long[] buf = new long[Math.multiplyExact(Math.min(length, 1024), words)];
    int filled = 0;
    while (filled < length) {
      int want = Math.min(length - filled, buf.length / words);
      sponge.squeezeLongs(buf, 0, want * words);
      if (field instanceof Field64) {
        filled = acceptField64(buf, want, out, filled);
      } else {
        filled = acceptField128(buf, want, out, filled);
      }
    }
    return out;
  }

  /**
   * Appends the canonical Field64 candidates among the first {@code candidates} words of {@code
   * buf} (each 8 output bytes read little-endian) to {@code out} from element {@code filled} on;
   * returns the new element count.
   */
  static int acceptField64(long[] buf, int candidates, long[] out, int filled) {
    // p has bit length 64, so next_power_of_2(p) - 1 = 2^64 - 1 and the mask keeps every bit.
    for (int i = 0; i < candidates; i++) {
      long x = buf[i];
      if (Field64.isCanonical(x)) {
        out[filled++] = x;
      }
    }
    return filled;
  }

  /**
   * Appends the canonical Field128 candidates among the first {@code candidates} word pairs of
   * {@code buf} (low word first, each 8 output bytes read little-endian) to {@code out} from
   * element {@code filled} on; returns the new element count.
   */
  static int acceptField128(long[] buf, int candidates, long[] out, int filled) {
    // p has bit length 128, so next_power_of_2(p) - 1 = 2^128 - 1 and the mask keeps every bit.
    for (int i = 0; i < candidates; i++) {
      long lo = buf[2 * i];
      long hi = buf[2 * i + 1];
      if (Field128.isCanonical(lo, hi)) {
        out[2 * filled] = lo;
        out[2 * filled + 1] = hi;
        filled++;
      }
    }
    return filled;
  }

  private static void requireSeedSize(byte[] seed) {
    Objects.requireNonNull(seed, "seed");
    if (seed.length != SEED_SIZE) {
      throw new IllegalArgumentException(
          "XofTurboShake128 seed must be " + SEED_SIZE + " bytes, got " + seed.length);
    }
  }
}
