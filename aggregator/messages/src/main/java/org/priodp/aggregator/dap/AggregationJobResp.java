package org.priodp.aggregator.dap;

import java.util.ArrayList;
import java.util.List;
import org.priodp.aggregator.dap.internal.DapReader;
import org.priodp.aggregator.dap.internal.DapWriter;
import org.priodp.aggregator.dap.internal.Decoding;

/**
 * The Helper's answer for an aggregation job step, {@code struct { VerifyResp
 * verify_resps[message_length]; } AggregationJobResp} (DAP-18 "Helper Initialization", also the
 * answer to continuation and to GET), media type
 * {@code application/ppm-dap;message=aggregation-job-resp}: VerifyResps concatenated to the end of
 * the HTTP content, in the order of the request.
 *
 * <p>DAP-18 has no "processing" variant: a job that is not ready is an empty body with a
 * successful status and Retry-After (DAP-18 "Asynchronous Request Handling"). That body would
 * decode here to an empty list, so the transport, not this codec, tells "not ready" (no
 * aggregation-job-resp Content-Type) from a ready job with no reports. Whether the report IDs
 * match the request (else the Leader abandons the job) is checked by the caller against
 * {@link #reportIds()}.
 */
public record AggregationJobResp(List<VerifyResp> verifyResps) {
  /** Copies the list; null entries are rejected. */
  public AggregationJobResp {
    verifyResps = List.copyOf(verifyResps);
  }

  /** Returns the report IDs in response order. */
  public List<ReportId> reportIds() {
    List<ReportId> out = new ArrayList<>(verifyResps.size());
    for (VerifyResp v : verifyResps) {
      out.add(v.reportId());
    }
    return out;
  }

  /** Returns the encoding: the concatenated VerifyResps, report errors coded as {@code version}. */
  public byte[] encode(DapVersion version) {
    DapWriter w = new DapWriter();
    for (VerifyResp v : verifyResps) {
      v.write(w, version);
    }
    return w.toByteArray();
  }

  /**
   * Decodes a whole response body, reading report errors as {@code version}; throws only
   * {@link DapDecodeException}.
   */
  public static AggregationJobResp decode(byte[] encoded, DapVersion version) {
    return Decoding.decodeAll(encoded, "AggregationJobResp", r -> read(r, version));
  }

  private static AggregationJobResp read(DapReader r, DapVersion version) {
    List<VerifyResp> out = new ArrayList<>();
    while (r.remaining() > 0) {
      out.add(VerifyResp.read(r, "verify_resps[" + out.size() + "]", version));
    }
    return new AggregationJobResp(out);
  }
}
