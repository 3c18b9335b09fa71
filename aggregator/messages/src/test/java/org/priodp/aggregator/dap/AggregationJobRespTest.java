package org.priodp.aggregator.dap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.priodp.aggregator.dap.CodecChecks.assertRejects;
import static org.priodp.aggregator.dap.CodecChecks.hex;
import static org.priodp.aggregator.dap.SpecSamples.ID_A;
import static org.priodp.aggregator.dap.SpecSamples.ID_B;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AggregationJobRespTest {
  private static final String ID_C = "c0c1c2c3c4c5c6c7c8c9cacbcccdcecf";

  private static AggregationJobResp sample() {
    return new AggregationJobResp(List.of(
        VerifyResp.continueWith(new ReportId(hex(ID_A)), hex("02 00000001 33")),
        VerifyResp.finish(new ReportId(hex(ID_B))),
        VerifyResp.reject(new ReportId(hex(ID_C)), ReportError.REPORT_REPLAYED)));
  }

  @Test
  void isTheVerifyRespsConcatenatedWithoutALengthPrefix() {
    String expected = ""
        + ID_A + "00" + "00000006" + "02 00000001 33" // continue with payload (27 bytes)
        + ID_B + "01" // finish (17 bytes)
        + ID_C + "02" + "02"; // reject report_replayed (18 bytes)
    CodecChecks.assertSpecBytes(expected, sample(), m -> m.encode(DapVersion.DAP_18),
        b -> AggregationJobResp.decode(b, DapVersion.DAP_18));
    assertEquals(List.of(new ReportId(hex(ID_A)), new ReportId(hex(ID_B)), new ReportId(hex(ID_C))),
        sample().reportIds());
    CodecChecks.assertSpecBytes("", new AggregationJobResp(List.of()), m -> m.encode(DapVersion.DAP_18),
        b -> AggregationJobResp.decode(b, DapVersion.DAP_18));
  }

  @Test
  void everyPrefixIsRejectedExceptAtVerifyRespBoundaries() {
    CodecChecks.assertEveryTruncation(sample().encode(DapVersion.DAP_18), b -> AggregationJobResp.decode(b, DapVersion.DAP_18),
        m -> m.encode(DapVersion.DAP_18), Set.of(0, 27, 44));
  }

  @Test
  void namesTheFailingResponse() {
    assertRejects(b -> AggregationJobResp.decode(b, DapVersion.DAP_18), hex(ID_A + "01" + ID_B + "05"),
        "verify_resps[1].verify_resp_type");
    assertRejects(b -> AggregationJobResp.decode(b, DapVersion.DAP_18), hex(ID_A + "01" + ID_B + "02 00"),
        "verify_resps[1].report_error");
    assertRejects(b -> AggregationJobResp.decode(b, DapVersion.DAP_18), hex(ID_A + "01" + "00"), "verify_resps[1].report_id");
  }

  @Test
  void seededMutationsDecodeCanonicallyOrFailCleanly() {
    CodecChecks.fuzz("AggregationJobRespTest", List.of(sample().encode(DapVersion.DAP_18)), b -> AggregationJobResp.decode(b, DapVersion.DAP_18),
        m -> m.encode(DapVersion.DAP_18), 10_000);
  }
}
