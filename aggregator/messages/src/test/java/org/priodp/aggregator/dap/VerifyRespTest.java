package org.priodp.aggregator.dap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.priodp.aggregator.dap.CodecChecks.assertRejects;
import static org.priodp.aggregator.dap.CodecChecks.hex;
import static org.priodp.aggregator.dap.SpecSamples.ID_A;

import org.junit.jupiter.api.Test;

class VerifyRespTest {
  private static final ReportId A = new ReportId(hex(ID_A));

  @Test
  void encodesEachVariantAsTheSelectSays() {
    // continue(0): payload<1..2^32-1> = ping-pong finish(2) with verifier_message 33
    CodecChecks.assertSpecBytes(ID_A + "00" + "00000006" + "02 00000001 33",
        VerifyResp.continueWith(A, hex("02 00000001 33")), m -> m.encode(DapVersion.DAP_18), b -> VerifyResp.decode(b, DapVersion.DAP_18));
    // finish(1): Empty
    CodecChecks.assertSpecBytes(ID_A + "01", VerifyResp.finish(A), m -> m.encode(DapVersion.DAP_18),
        b -> VerifyResp.decode(b, DapVersion.DAP_18));
    // reject(2): ReportError vdaf_verify_error(6)
    CodecChecks.assertSpecBytes(ID_A + "02" + "06", VerifyResp.reject(A, ReportError.VDAF_VERIFY_ERROR),
        m -> m.encode(DapVersion.DAP_18), b -> VerifyResp.decode(b, DapVersion.DAP_18));
    assertEquals(VerifyRespType.REJECT, VerifyResp.decode(hex(ID_A + "02 0a"), DapVersion.DAP_18).type());
    assertEquals(new VerifyResp.Reject(ReportError.TASK_NOT_STARTED),
        VerifyResp.decode(hex(ID_A + "02 0a"), DapVersion.DAP_18).result());
  }

  @Test
  void rejectsUnknownTypesBadErrorsAndEmptyPayloads() {
    assertRejects(b -> VerifyResp.decode(b, DapVersion.DAP_18), hex(ID_A + "03"), "verify_resp.verify_resp_type");
    assertRejects(b -> VerifyResp.decode(b, DapVersion.DAP_18), hex(ID_A + "ff"), "verify_resp.verify_resp_type");
    assertRejects(b -> VerifyResp.decode(b, DapVersion.DAP_18), hex(ID_A + "02 00"), "verify_resp.report_error");
    assertRejects(b -> VerifyResp.decode(b, DapVersion.DAP_18), hex(ID_A + "02 0c"), "verify_resp.report_error");
    assertRejects(b -> VerifyResp.decode(b, DapVersion.DAP_18), hex(ID_A + "02"), "verify_resp.report_error");
    assertRejects(b -> VerifyResp.decode(b, DapVersion.DAP_18), hex(ID_A + "00 00000000"), "verify_resp.payload");
    assertRejects(b -> VerifyResp.decode(b, DapVersion.DAP_18), hex(ID_A + "00 00000002 aa"), "verify_resp.payload");
    // finish carries nothing: a byte after it is trailing
    assertRejects(b -> VerifyResp.decode(b, DapVersion.DAP_18), hex(ID_A + "01 00"), "VerifyResp");
    CodecChecks.assertEveryTruncationRejected(hex(ID_A + "00 00000006 02 00000001 33"),
        b -> VerifyResp.decode(b, DapVersion.DAP_18));
    CodecChecks.assertEveryTruncationRejected(hex(ID_A + "02 06"), b -> VerifyResp.decode(b, DapVersion.DAP_18));
    assertThrows(IllegalArgumentException.class, () -> VerifyResp.continueWith(A, new byte[0]));
    assertThrows(NullPointerException.class, () -> VerifyResp.reject(A, null));
  }
}
