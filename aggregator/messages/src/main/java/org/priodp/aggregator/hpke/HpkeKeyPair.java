package org.priodp.aggregator.hpke;

import java.util.Arrays;
import java.util.Objects;

/**
 * A KEM key pair in its RFC 9180 serialized form (SerializePrivateKey / SerializePublicKey, RFC
 * 9180 section 7.1.1-7.1.2). toString never shows the secret key.
 */
public record HpkeKeyPair(HpkeKemId kem, byte[] secretKey, byte[] publicKey) {
  /** Validates the public key length for the KEM and copies both keys. */
  public HpkeKeyPair {
    Objects.requireNonNull(kem, "kem");
    secretKey = Objects.requireNonNull(secretKey, "secretKey").clone();
    publicKey = Objects.requireNonNull(publicKey, "publicKey").clone();
    if (publicKey.length != kem.publicKeyLength()) {
      throw new IllegalArgumentException("publicKey: " + publicKey.length + " bytes, " + kem
          + " needs " + kem.publicKeyLength());
    }
  }

  /** Returns a copy of the serialized secret key. */
  @Override
  public byte[] secretKey() {
    return secretKey.clone();
  }

  /** Returns a copy of the serialized public key. */
  @Override
  public byte[] publicKey() {
    return publicKey.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof HpkeKeyPair k && k.kem == kem && Arrays.equals(k.secretKey, secretKey)
        && Arrays.equals(k.publicKey, publicKey);
  }

  @Override
  public int hashCode() {
    return Objects.hash(kem, Arrays.hashCode(publicKey));
  }

  @Override
  public String toString() {
    return "HpkeKeyPair[" + kem + ", publicKey=" + java.util.HexFormat.of().formatHex(publicKey)
        + ", secretKey=<redacted>]";
  }
}
