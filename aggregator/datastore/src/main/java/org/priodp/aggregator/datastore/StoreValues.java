package org.priodp.aggregator.datastore;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import org.priodp.aggregator.dap.ByteString;

/** Validation shared by the persisted records (lengths of checksums and digests). */
final class StoreValues {
  static final int CHECKSUM_LENGTH = 32;
  static final int DIGEST_LENGTH = 32;

  private StoreValues() {
  }

  static void nonEmpty(ByteString b, String field) {
    if (Objects.requireNonNull(b, field).length() == 0) {
      throw new IllegalArgumentException(field + " must not be empty");
    }
  }

  static void checksum(ByteString b) {
    fixed(b, CHECKSUM_LENGTH, "checksum");
  }

  static void digest(ByteString b, String field) {
    fixed(b, DIGEST_LENGTH, field);
  }

  private static void fixed(ByteString b, int length, String field) {
    if (Objects.requireNonNull(b, field).length() != length) {
      throw new IllegalArgumentException(field + ": " + b.length() + " bytes, expected " + length);
    }
  }

  /** Truncates to milliseconds, the precision the store keeps. */
  static Instant millis(Instant t) {
    return Objects.requireNonNull(t, "createdAt").truncatedTo(ChronoUnit.MILLIS);
  }
}
