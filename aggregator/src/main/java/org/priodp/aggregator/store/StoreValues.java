package org.priodp.aggregator.store;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;
import java.util.Objects;

/** Validation shared by the persisted records (lengths of identifiers, checksums and digests). */
final class StoreValues {
  static final int CHECKSUM_LENGTH = 32;
  static final int DIGEST_LENGTH = 32;

  private StoreValues() {
  }

  static byte[] nonEmpty(byte[] b, String field) {
    byte[] c = Objects.requireNonNull(b, field).clone();
    if (c.length == 0) {
      throw new IllegalArgumentException(field + " must not be empty");
    }
    return c;
  }

  static byte[] checksum(byte[] b) {
    return fixed(b, CHECKSUM_LENGTH, "checksum");
  }

  static byte[] fixed(byte[] b, int length, String field) {
    byte[] c = Objects.requireNonNull(b, field).clone();
    if (c.length != length) {
      throw new IllegalArgumentException(field + ": " + c.length + " bytes, expected " + length);
    }
    return c;
  }

  /** Truncates to milliseconds, the precision the store keeps. */
  static Instant millis(Instant t) {
    return Objects.requireNonNull(t, "createdAt").truncatedTo(ChronoUnit.MILLIS);
  }

  static String hex(byte[] b) {
    return HexFormat.of().formatHex(b);
  }
}
