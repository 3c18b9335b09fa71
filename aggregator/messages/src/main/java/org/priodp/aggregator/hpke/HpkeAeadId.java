package org.priodp.aggregator.hpke;

import java.util.Optional;

/**
 * The AEAD identifiers registered by RFC 9180 section 7.3; only AES-128-GCM reports
 * {@link #supported()}.
 */
public enum HpkeAeadId {
  AES_128_GCM(0x0001, true),
  AES_256_GCM(0x0002, false),
  CHACHA20_POLY1305(0x0003, false),
  EXPORT_ONLY(0xFFFF, false);

  private final int code;
  private final boolean supported;

  HpkeAeadId(int code, boolean supported) {
    this.code = code;
    this.supported = supported;
  }

  /** Returns the uint16 code point. */
  public int code() {
    return code;
  }

  /** Returns true if {@link Hpke} implements this AEAD. */
  public boolean supported() {
    return supported;
  }

  /** Returns the AEAD with this code point or throws IllegalArgumentException. */
  public static HpkeAeadId fromCode(int code) {
    return find(code).orElseThrow(() -> new IllegalArgumentException(
        String.format("unknown HPKE AEAD id 0x%04x", code)));
  }

  /** Returns the AEAD registered under this code point, or empty for any other value. */
  public static Optional<HpkeAeadId> find(int code) {
    for (HpkeAeadId a : values()) {
      if (a.code == code) {
        return Optional.of(a);
      }
    }
    return Optional.empty();
  }
}
