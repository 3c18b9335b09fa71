package org.priodp.aggregator.dap;

import java.util.Objects;
import org.priodp.aggregator.dap.internal.DapWriter;
import org.priodp.aggregator.dap.internal.Decoding;

/**
 * The Helper's answer, {@code struct { HpkeCiphertext encrypted_aggregate_share; } AggregateShare}
 * (DAP-18 "Obtaining Aggregate Shares"), media type
 * {@code application/ppm-dap;message=aggregate-share}.
 */
public record AggregateShare(HpkeCiphertext encryptedAggregateShare) {
  /** Rejects a null ciphertext. */
  public AggregateShare {
    Objects.requireNonNull(encryptedAggregateShare, "encrypted_aggregate_share");
  }

  /** Returns the encoding. */
  public byte[] encode() {
    DapWriter w = new DapWriter();
    encryptedAggregateShare.write(w);
    return w.toByteArray();
  }

  /** Decodes one AggregateShare with nothing after it. */
  public static AggregateShare decode(byte[] encoded) {
    return Decoding.decodeAll(encoded, "AggregateShare",
        r -> new AggregateShare(HpkeCiphertext.read(r, "encrypted_aggregate_share")));
  }
}
