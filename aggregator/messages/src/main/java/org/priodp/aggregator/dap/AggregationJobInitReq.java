package org.priodp.aggregator.dap;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.priodp.aggregator.dap.internal.DapReader;
import org.priodp.aggregator.dap.internal.DapWriter;
import org.priodp.aggregator.dap.internal.Decoding;
import org.priodp.aggregator.dap.internal.Octets;

/**
 * The Leader's request creating an aggregation job, {@code struct { uint8 verification_key_id;
 * opaque agg_param<0..2^32-1>; AggregationJobExtension extensions<0..2^16-1>; VerifyInit
 * verify_inits[verify_inits_length]; } AggregationJobInitReq} (DAP-18 "Leader Initialization"),
 * media type {@code application/ppm-dap;message=aggregation-job-init-req}. The VerifyInits are
 * concatenated without a length prefix and run to the end of the HTTP content.
 *
 * <p>Checks that DAP-18 "Helper Initialization" makes {@code invalidMessage} and that need only
 * this message are enforced when decoding and constructing: extension types strictly increasing,
 * a well-formed leader_selected_batch_id, and distinct report IDs. Whether the extensions are
 * supported, whether the batch mode needs leader_selected_batch_id, and whether the key id and
 * aggregation parameter are acceptable are task-level questions left to the caller. DAP-18 sets
 * no minimum number of VerifyInits, so an empty list decodes; a Helper may refuse an empty job.
 * Two requests are the same job exactly when their encodings are equal (DAP-18 "Leader
 * Initialization"); as every component is a value, that is {@link #equals}.
 */
public record AggregationJobInitReq(int verificationKeyId, ByteString aggParam,
    List<AggregationJobExtension> extensions, List<VerifyInit> verifyInits) {
  /** Validates the fields and copies the lists. */
  public AggregationJobInitReq {
    if (verificationKeyId < 0 || verificationKeyId > 0xff) {
      throw new IllegalArgumentException("verification_key_id out of uint8 range: " + verificationKeyId);
    }
    Octets.checkVector(aggParam, 0, 0xffffffffL, "agg_param");
    extensions = AggregationJobExtension.LIST.checkList(extensions, "extensions");
    verifyInits = List.copyOf(verifyInits);
    Set<ReportId> ids = new HashSet<>();
    for (VerifyInit v : verifyInits) {
      if (!ids.add(v.reportId())) {
        throw new IllegalArgumentException("verify_inits: duplicate report ID " + v.reportId());
      }
    }
  }

  /** Returns the request holding a copy of {@code aggParam}. */
  public AggregationJobInitReq(int verificationKeyId, byte[] aggParam,
      List<AggregationJobExtension> extensions, List<VerifyInit> verifyInits) {
    this(verificationKeyId, Octets.of(aggParam, "agg_param"), extensions, verifyInits);
  }

  /** Returns the batch ID of the leader_selected_batch_id extension, if present. */
  public Optional<BatchId> leaderSelectedBatchId() {
    for (AggregationJobExtension e : extensions) {
      if (e.extensionType() == AggregationJobExtension.LEADER_SELECTED_BATCH_ID) {
        return e.asLeaderSelectedBatchId();
      }
    }
    return Optional.empty();
  }

  /** Returns the report IDs in request order. */
  public List<ReportId> reportIds() {
    List<ReportId> out = new ArrayList<>(verifyInits.size());
    for (VerifyInit v : verifyInits) {
      out.add(v.reportId());
    }
    return out;
  }

  /** Returns the encoding. */
  public byte[] encode() {
    DapWriter w = new DapWriter();
    w.u8(verificationKeyId).vector(4, 0, 0xffffffffL, aggParam);
    AggregationJobExtension.LIST.write(w, extensions);
    for (VerifyInit v : verifyInits) {
      v.write(w);
    }
    return w.toByteArray();
  }

  /** Decodes a whole request body; throws only {@link DapDecodeException}. */
  public static AggregationJobInitReq decode(byte[] encoded) {
    return Decoding.decodeAll(encoded, "AggregationJobInitReq", AggregationJobInitReq::read);
  }

  private static AggregationJobInitReq read(DapReader r) {
    int keyId = r.u8("verification_key_id");
    ByteString aggParam = r.opaque(4, 0, 0xffffffffL, "agg_param");
    List<AggregationJobExtension> ext = AggregationJobExtension.LIST.read(r, "extensions");
    List<VerifyInit> inits = new ArrayList<>();
    Set<ReportId> ids = new HashSet<>();
    while (r.remaining() > 0) {
      String f = "verify_inits[" + inits.size() + "]";
      VerifyInit v = VerifyInit.read(r, f);
      if (!ids.add(v.reportId())) {
        throw new DapDecodeException(f + ".report_share.report_metadata.report_id",
            "duplicate report ID " + v.reportId().toBase64Url());
      }
      inits.add(v);
    }
    return new AggregationJobInitReq(keyId, aggParam, ext, inits);
  }

  /** Names the report IDs rather than showing every VerifyInit of a possibly large job. */
  @Override
  public String toString() {
    return "AggregationJobInitReq[verificationKeyId=" + verificationKeyId + ", aggParam="
        + aggParam + ", extensions=" + extensions + ", " + verifyInits.size()
        + " verifyInits " + reportIds() + "]";
  }
}
