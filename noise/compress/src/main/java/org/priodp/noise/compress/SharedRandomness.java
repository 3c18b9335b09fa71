package org.priodp.noise.compress;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;
import org.priodp.noise.RandomSource;
import org.priodp.noise.SeededRandomSource;

/**
 * Randomness shared by an encoder and its decoder, derived from a seed agreed ahead of time
 * (the DQL paper, Sec. 3 and Sec. 6: two synchronized PRNGs started from one seed).
 *
 * <p>Report {@code report} has the stream {@link SeededRandomSource} with seed
 * {@code seed || report (8 bytes, big-endian)}; value {@code coordinate} of the report owns the
 * 128-bit block number {@code coordinate} of that stream (AES-CTR counter = coordinate), so a
 * decoder can jump straight to any value ({@link #stream(long, int)}) or read a whole report in
 * order ({@link #report(long)}) and see the same bits. A DQL value uses exactly one block (T and
 * U, 53 bits each, then 22 unused bits). The shared seed must stay secret from everyone but the encoder and decoder; it
 * protects nothing against the decoder (the decoder's privacy comes from the encoder's local
 * randomness, Theorem 7).
 */
public final class SharedRandomness {
  private final byte[] seed;

  private SharedRandomness(byte[] seed) {
    this.seed = seed;
  }

  /** Returns the shared randomness for {@code seed} (copied; any length, including empty). */
  public static SharedRandomness of(byte[] seed) {
    return new SharedRandomness(seed.clone());
  }

  /**
   * Parses a hex seed such as "00ff12".
   *
   * @throws IllegalArgumentException if the text is not an even number of hex digits
   */
  public static SharedRandomness fromHex(String hex) {
    try {
      return new SharedRandomness(HexFormat.of().parseHex(hex.strip()));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("shared seed must be an even number of hex digits, got '" + hex + "'", e);
    }
  }

  /** Returns the seed in hex. */
  public String seedHex() {
    return HexFormat.of().formatHex(seed);
  }

  /**
   * Returns the stream of value {@code coordinate} of report {@code report}: the report's stream
   * from its block {@code coordinate} on.
   *
   * @throws IllegalArgumentException if report or coordinate is negative
   */
  public RandomSource stream(long report, int coordinate) {
    if (coordinate < 0) {
      throw new IllegalArgumentException("coordinate index must be >= 0, got " + coordinate);
    }
    // one value takes one 16-byte block: compute no more keystream than that
    return new SeededRandomSource(reportSeed(report), coordinate, 16);
  }

  /**
   * Returns the stream of report {@code report} from its first value on; value i reads block i.
   *
   * @throws IllegalArgumentException if report is negative
   */
  public RandomSource report(long report) {
    return new SeededRandomSource(reportSeed(report), 0, 1024);
  }

  /**
   * Returns the stream of sample {@code index} of report {@code report} when every sample owns
   * {@code blocksPerIndex} consecutive 128-bit blocks: the report's stream (the one {@link
   * #report(long)} reads) from block {@code index * blocksPerIndex} on. PPR uses it so that its
   * decoder regenerates the k-th proposal sample directly (index k - 1), without the earlier
   * ones; the caller must not read more than {@code 128 * blocksPerIndex} bits, or it reads into
   * the next sample's blocks.
   *
   * @throws IllegalArgumentException if report or index is negative, blocksPerIndex < 1, or
   *     index * blocksPerIndex overflows a long
   */
  public RandomSource indexed(long report, long index, int blocksPerIndex) {
    if (index < 0) {
      throw new IllegalArgumentException("sample index must be >= 0, got " + index);
    }
    if (blocksPerIndex < 1) {
      throw new IllegalArgumentException("blocks per sample must be >= 1, got " + blocksPerIndex);
    }
    long first;
    try {
      first = Math.multiplyExact(index, (long) blocksPerIndex);
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("sample index " + index + " is too large for " + blocksPerIndex + " blocks per sample", e);
    }
    return new SeededRandomSource(reportSeed(report), first, 16 * Math.min(blocksPerIndex, 64));
  }

  /**
   * Returns a seeker over report {@code report}'s stream (the one {@link #report(long)} reads):
   * {@code seeker(report).at(index * blocksPerIndex, blocksPerIndex)} yields the same bits as
   * {@link #indexed(long, long, int)} but derives the key once, so jumping costs one AES call per
   * block.
   *
   * @throws IllegalArgumentException if report is negative
   */
  public SeededRandomSource.Seeker seeker(long report) {
    return SeededRandomSource.seeker(reportSeed(report));
  }

  private byte[] reportSeed(long report) {
    if (report < 0) {
      throw new IllegalArgumentException("report index must be >= 0, got " + report);
    }
    byte[] s = Arrays.copyOf(seed, seed.length + 8);
    ByteBuffer.wrap(s, seed.length, 8).putLong(report);
    return s;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SharedRandomness other && Arrays.equals(seed, other.seed);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(seed);
  }

  @Override
  public String toString() {
    return "SharedRandomness[" + seed.length + " bytes]";
  }
}
