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
  private final byte[] zeros = new byte[8192];
  private final byte[] seed;

  /** Creates the stream for {@code seed} (any length, including empty). */
  public SeededRandomSource(byte[] seed) {
    super(8192);
    this.seed = seed.clone();
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update(LABEL);
      byte[] key = sha.digest(seed);
      cipher = Cipher.getInstance("AES/CTR/NoPadding");
      cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new IvParameterSpec(new byte[16]));
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
}
