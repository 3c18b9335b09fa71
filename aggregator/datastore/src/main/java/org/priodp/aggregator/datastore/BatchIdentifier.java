package org.priodp.aggregator.datastore;

import java.util.Objects;
import org.priodp.aggregator.dap.ByteString;

/**
 * The key under which the store keeps a batch or a batch bucket (DAP-18 "Batch Buckets"): the
 * encoding of the BatchSelector that names it (see {@code core.BatchBuckets}). Time-interval keys
 * are big-endian after a constant prefix, so their unsigned byte order is the order of their
 * start times and a range of buckets is a range of keys.
 */
public record BatchIdentifier(ByteString value) implements Comparable<BatchIdentifier> {
  /** Rejects an empty key. */
  public BatchIdentifier {
    if (Objects.requireNonNull(value, "batch identifier").length() == 0) {
      throw new IllegalArgumentException("batch identifier must not be empty");
    }
  }

  /** Returns the key holding a copy of {@code bytes}. */
  public static BatchIdentifier of(byte[] bytes) {
    return new BatchIdentifier(ByteString.copyOf(bytes));
  }

  /** Returns a copy of the key's bytes. */
  public byte[] bytes() {
    return value.toByteArray();
  }

  @Override
  public int compareTo(BatchIdentifier o) {
    return value.compareTo(o.value);
  }

  @Override
  public String toString() {
    return "BatchIdentifier[" + value + "]";
  }
}
