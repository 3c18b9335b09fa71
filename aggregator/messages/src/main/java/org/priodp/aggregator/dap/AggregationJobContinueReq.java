package org.priodp.aggregator.dap;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.priodp.aggregator.dap.internal.DapReader;
import org.priodp.aggregator.dap.internal.DapWriter;
import org.priodp.aggregator.dap.internal.Decoding;

/**
 * The Leader's request advancing an aggregation job, {@code struct { uint16 step; VerifyContinue
 * verify_continues[verify_continues_length]; } AggregationJobContinueReq} (DAP-18 "Leader
 * Continuation"), media type {@code application/ppm-dap;message=aggregation-job-continue-req}: the
 * step, then VerifyContinues concatenated to the end of the HTTP content.
 *
 * <p>The message-local {@code invalidMessage} checks of DAP-18 "Helper Continuation" are enforced:
 * {@code step} is not 0 and the report IDs are distinct. Whether each ID belongs to the job, the
 * order relative to the previous request and the step against the job's own ({@code stepMismatch})
 * need the job's state and are left to the caller. Identical retries are recognized by comparing
 * encodings (DAP-18 "Recovering from Aggregation Step Skew").
 */
public record AggregationJobContinueReq(int step, List<VerifyContinue> verifyContinues) {
  /** Validates the step (1..65535) and the distinctness of report IDs, and copies the list. */
  public AggregationJobContinueReq {
    if (step < 1 || step > 0xffff) {
      throw new IllegalArgumentException("step: " + step + " outside 1..65535 (step 0 is initialization)");
    }
    verifyContinues = List.copyOf(verifyContinues);
    Set<ReportId> ids = new HashSet<>();
    for (VerifyContinue v : verifyContinues) {
      if (!ids.add(v.reportId())) {
        throw new IllegalArgumentException("verify_continues: duplicate report ID " + v.reportId());
      }
    }
  }

  /** Returns the report IDs in request order. */
  public List<ReportId> reportIds() {
    List<ReportId> out = new ArrayList<>(verifyContinues.size());
    for (VerifyContinue v : verifyContinues) {
      out.add(v.reportId());
    }
    return out;
  }

  /** Returns the encoding. */
  public byte[] encode() {
    DapWriter w = new DapWriter().u16(step);
    for (VerifyContinue v : verifyContinues) {
      v.write(w);
    }
    return w.toByteArray();
  }

  /** Decodes a whole request body; throws only {@link DapDecodeException}. */
  public static AggregationJobContinueReq decode(byte[] encoded) {
    return Decoding.decodeAll(encoded, "AggregationJobContinueReq", AggregationJobContinueReq::read);
  }

  private static AggregationJobContinueReq read(DapReader r) {
    int step = r.u16("step");
    if (step == 0) {
      throw new DapDecodeException("step", "must not be 0 (DAP-18 \"Helper Continuation\")");
    }
    List<VerifyContinue> out = new ArrayList<>();
    Set<ReportId> ids = new HashSet<>();
    while (r.remaining() > 0) {
      String f = "verify_continues[" + out.size() + "]";
      VerifyContinue v = VerifyContinue.read(r, f);
      if (!ids.add(v.reportId())) {
        throw new DapDecodeException(f + ".report_id", "duplicate report ID " + v.reportId().toBase64Url());
      }
      out.add(v);
    }
    return new AggregationJobContinueReq(step, out);
  }
}
