package org.priodp.aggregator.dap;

import java.util.Objects;
import org.priodp.aggregator.dap.internal.DapReader;
import org.priodp.aggregator.dap.internal.DapWriter;
import org.priodp.aggregator.dap.internal.Decoding;

/**
 * The Leader's answer to a ready collection job, {@code struct { uint64 report_count; Interval
 * interval; HpkeCiphertext leader_encrypted_agg_share; HpkeCiphertext helper_encrypted_agg_share;
 * } CollectionJobResp} (DAP-18 "Collection Job Initialization"), media type
 * {@code application/ppm-dap;message=collection-job-resp}. {@code reportCount} holds a uint64 in
 * the 64 bits of a long; {@code interval} is the smallest interval, in time_precision units, that
 * contains every report of the batch.
 */
public record CollectionJobResp(long reportCount, Interval interval,
    HpkeCiphertext leaderEncryptedAggShare, HpkeCiphertext helperEncryptedAggShare) {
  /** Rejects null fields. */
  public CollectionJobResp {
    Objects.requireNonNull(interval, "interval");
    Objects.requireNonNull(leaderEncryptedAggShare, "leader_encrypted_agg_share");
    Objects.requireNonNull(helperEncryptedAggShare, "helper_encrypted_agg_share");
  }

  /** Returns the encoding. */
  public byte[] encode() {
    DapWriter w = new DapWriter();
    w.u64(reportCount);
    interval.write(w);
    leaderEncryptedAggShare.write(w);
    helperEncryptedAggShare.write(w);
    return w.toByteArray();
  }

  /** Decodes one CollectionJobResp with nothing after it. */
  public static CollectionJobResp decode(byte[] encoded) {
    return Decoding.decodeAll(encoded, "CollectionJobResp", CollectionJobResp::read);
  }

  private static CollectionJobResp read(DapReader r) {
    long count = r.u64("report_count");
    Interval interval = Interval.read(r, "interval");
    HpkeCiphertext leader = HpkeCiphertext.read(r, "leader_encrypted_agg_share");
    HpkeCiphertext helper = HpkeCiphertext.read(r, "helper_encrypted_agg_share");
    return new CollectionJobResp(count, interval, leader, helper);
  }
}
