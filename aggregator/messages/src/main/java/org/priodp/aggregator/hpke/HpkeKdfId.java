package org.priodp.aggregator.hpke;

import java.util.Optional;

/**
 * The KDF identifiers registered by RFC 9180 section 7.2; only HKDF-SHA256 reports
 * {@link #supported()}.
 */
public enum HpkeKdfId {
  HKDF_SHA256(0x0001, true),
  HKDF_SHA384(0x0002, false),
  HKDF_SHA512(0x0003, false);

  private final int code;
  private final boolean supported;

  HpkeKdfId(int code, boolean supported) {
    this.code = code;
    this.supported = supported;
  }

  /** Returns the uint16 code point. */
  public int code() {
    return code;
  }

  /** Returns true if {@link Hpke} implements this KDF. */
  public boolean supported() {
    return supported;
  }

  /** Returns the KDF with this code point or throws IllegalArgumentException. */
  public static HpkeKdfId fromCode(int code) {
    return find(code).orElseThrow(() -> new IllegalArgumentException(
        String.format("unknown HPKE KDF id 0x%04x", code)));
  }

  /** Returns the KDF registered under this code point, or empty for any other value. */
  public static Optional<HpkeKdfId> find(int code) {
    for (HpkeKdfId k : values()) {
      if (k.code == code) {
        return Optional.of(k);
      }
    }
    return Optional.empty();
  }
}
