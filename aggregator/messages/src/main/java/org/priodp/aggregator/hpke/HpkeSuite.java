package org.priodp.aggregator.hpke;

import java.util.Objects;

/**
 * An RFC 9180 cipher suite (KEM, KDF, AEAD; RFC 9180 section 7). Only suites this project
 * implements can be constructed: KEM DHKEM(X25519, HKDF-SHA256) or DHKEM(P-256, HKDF-SHA256),
 * KDF HKDF-SHA256 and AEAD AES-128-GCM; others throw {@link IllegalArgumentException}.
 */
public record HpkeSuite(HpkeKemId kem, HpkeKdfId kdf, HpkeAeadId aead) {
  /** The suite every DAP-18 implementation must support (DAP-18 "Compliance Requirements"). */
  public static final HpkeSuite DAP_MANDATORY = new HpkeSuite(HpkeKemId.DHKEM_X25519_HKDF_SHA256,
      HpkeKdfId.HKDF_SHA256, HpkeAeadId.AES_128_GCM);

  /** Rejects null or unsupported algorithms with a message naming them. */
  public HpkeSuite {
    Objects.requireNonNull(kem, "kem");
    Objects.requireNonNull(kdf, "kdf");
    Objects.requireNonNull(aead, "aead");
    if (!kem.supported() || !kdf.supported() || !aead.supported()) {
      throw new IllegalArgumentException("unsupported HPKE suite " + kem + "/" + kdf + "/" + aead
          + "; supported: KEM DHKEM_X25519_HKDF_SHA256 (0x0020) or DHKEM_P256_HKDF_SHA256 (0x0010),"
          + " KDF HKDF_SHA256 (0x0001), AEAD AES_128_GCM (0x0001)");
    }
  }
}
