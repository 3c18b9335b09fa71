package org.priodp.aggregator.hpke;

import java.util.Optional;

/**
 * The KEM identifiers registered by RFC 9180 section 7.1, with their public-key and
 * encapsulation lengths; only the DHKEMs this project implements report {@link #supported()}.
 */
public enum HpkeKemId {
  DHKEM_P256_HKDF_SHA256(0x0010, 65, true),
  DHKEM_P384_HKDF_SHA384(0x0011, 97, false),
  DHKEM_P521_HKDF_SHA512(0x0012, 133, false),
  DHKEM_X25519_HKDF_SHA256(0x0020, 32, true),
  DHKEM_X448_HKDF_SHA512(0x0021, 56, false);

  private final int code;
  private final int publicKeyLength;
  private final boolean supported;

  HpkeKemId(int code, int publicKeyLength, boolean supported) {
    this.code = code;
    this.publicKeyLength = publicKeyLength;
    this.supported = supported;
  }

  /** Returns the uint16 code point. */
  public int code() {
    return code;
  }

  /** Returns Npk, the length of a serialized public key (and of enc, Nenc) in bytes. */
  public int publicKeyLength() {
    return publicKeyLength;
  }

  /** Returns true if {@link Hpke} implements this KEM. */
  public boolean supported() {
    return supported;
  }

  /** Returns the KEM with this code point or throws IllegalArgumentException. */
  public static HpkeKemId fromCode(int code) {
    return find(code).orElseThrow(() -> new IllegalArgumentException(
        String.format("unknown HPKE KEM id 0x%04x", code)));
  }

  /** Returns the KEM registered under this code point, or empty for any other value. */
  public static Optional<HpkeKemId> find(int code) {
    for (HpkeKemId k : values()) {
      if (k.code == code) {
        return Optional.of(k);
      }
    }
    return Optional.empty();
  }
}
