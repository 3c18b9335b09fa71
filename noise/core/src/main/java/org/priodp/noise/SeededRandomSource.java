package org.priodp.noise;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * A deterministic {@link RandomSource} for tests and reproducible runs: the AES-256-CTR
 * keystream (zero IV) under the key SHA-256("prio-dp seeded source v1" || seed).
 *
 * <p>Not for production noise: anybody who knows the seed knows the noise.
 */
public final class SeededRandomSource extends BlockRandomSource {
  private static final byte[] LABEL = "prio-dp seeded source v1".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
  private final Cipher cipher;
  private final byte[] zeros;
  private final byte[] seed;

  /** Creates the stream for {@code seed} (any length, including empty). */
  public SeededRandomSource(byte[] seed) {
    this(seed, 8192);
  }

  /**
   * Creates the stream for {@code seed}, computing {@code blockSize} bytes of keystream at a time
   * (a positive multiple of 8). The bits are the same for every block size; a small block makes
   * short-lived streams cheap.
   */
  public SeededRandomSource(byte[] seed, int blockSize) {
    this(seed, 0, blockSize);
  }

  /**
   * Creates the stream for {@code seed} starting at its 16-byte block number {@code firstBlock}
   * (the AES-CTR counter), so that a reader can jump to any 128-bit block: the result yields the
   * same bits as {@code new SeededRandomSource(seed)} after {@code 128 * firstBlock} bits.
   *
   * @throws IllegalArgumentException if firstBlock < 0 or blockSize is not a positive multiple
   *     of 8
   */
  public SeededRandomSource(byte[] seed, long firstBlock, int blockSize) {
    super(blockSize);
    if (firstBlock < 0) {
      throw new IllegalArgumentException("first block must be >= 0, got " + firstBlock);
    }
    this.zeros = new byte[blockSize];
    this.seed = seed.clone();
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update(LABEL);
      byte[] key = sha.digest(seed);
      cipher = Cipher.getInstance("AES/CTR/NoPadding");
      byte[] iv = new byte[16];
      java.nio.ByteBuffer.wrap(iv, 8, 8).putLong(firstBlock);
      cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new IvParameterSpec(iv));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES-CTR or SHA-256 is missing from this JDK", e);
    }
  }

  /**
   * Parses a hex seed such as "00ff12".
   *
   * @throws IllegalArgumentException if the text is not an even number of hex digits
   */
  public static SeededRandomSource fromHex(String hex) {
    try {
      return new SeededRandomSource(HexFormat.of().parseHex(hex.strip()));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("seed must be an even number of hex digits, got '" + hex + "'", e);
    }
  }

  /** Returns the seed in hex, so that a run can be reproduced. */
  public String seedHex() {
    return HexFormat.of().formatHex(seed);
  }

  @Override
  protected void fill(byte[] out) {
    try {
      int n = cipher.update(zeros, 0, out.length, out, 0);
      if (n != out.length) {
        throw new IllegalStateException("AES-CTR returned " + n + " of " + out.length + " bytes");
      }
    } catch (javax.crypto.ShortBufferException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Returns a seeker for {@code seed}: it derives the key once and then yields, for any block
   * number, a stream with exactly the bits of {@code new SeededRandomSource(seed, firstBlock,
   * ...)}, without a new key schedule per stream (for codecs that jump to many short streams, such
   * as PPR's indexed proposal samples). Not thread-safe.
   */
  public static Seeker seeker(byte[] seed) {
    return new Seeker(seed);
  }

  /** Jumps to any 128-bit block of one seed's stream; see {@link #seeker(byte[])}. */
  public static final class Seeker {
    private final Cipher ecb;

    private Seeker(byte[] seed) {
      try {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        sha.update(LABEL);
        byte[] key = sha.digest(seed);
        ecb = Cipher.getInstance("AES/ECB/NoPadding");
        ecb.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"));
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException("AES or SHA-256 is missing from this JDK", e);
      }
    }

    /**
     * Returns the stream from block {@code firstBlock} on, computing {@code blocksPerFill} blocks
     * of keystream at a time.
     *
     * @throws IllegalArgumentException if firstBlock < 0 or blocksPerFill < 1
     */
    public RandomSource at(long firstBlock, int blocksPerFill) {
      if (firstBlock < 0) {
        throw new IllegalArgumentException("first block must be >= 0, got " + firstBlock);
      }
      if (blocksPerFill < 1) {
        throw new IllegalArgumentException("blocks per fill must be >= 1, got " + blocksPerFill);
      }
      return new BlockRandomSource(16 * blocksPerFill) {
        private long next = firstBlock;
        private final byte[] counters = new byte[16 * blocksPerFill];

        @Override
        protected void fill(byte[] out) {
          // AES-CTR keystream = AES(counter), counter = 0^64 || block number (big-endian)
          for (int b = 0; b < blocksPerFill; b++) {
            java.nio.ByteBuffer.wrap(counters, 16 * b + 8, 8).putLong(next++);
          }
          try {
            int n = ecb.doFinal(counters, 0, counters.length, out, 0);
            if (n != out.length) {
              throw new IllegalStateException("AES returned " + n + " of " + out.length + " bytes");
            }
          } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
          }
        }
      };
    }
  }
}
