package org.priodp.aggregator.dap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.priodp.aggregator.dap.CodecChecks.assertRejects;
import static org.priodp.aggregator.dap.CodecChecks.hex;
import static org.priodp.aggregator.dap.SpecSamples.ID_A;

import org.junit.jupiter.api.Test;

class VerifyContinueTest {
  @Test
  void encodesTheReportIdThenThePayload() {
    // report_id, payload<1..2^32-1> = ping-pong continue(1): verifier_message 11, verifier_share 2222
    String expected = ID_A + "0000000c" + "01 00000001 11 00000002 2222";
    VerifyContinue v = new VerifyContinue(new ReportId(hex(ID_A)), hex("01 00000001 11 00000002 2222"));
    CodecChecks.assertSpecBytes(expected, v, VerifyContinue::encode, VerifyContinue::decode);
    assertEquals(new PingPongMessage.Continue(hex("11"), hex("2222")), PingPongMessage.decode(v.payload().toByteArray()));
  }

  @Test
  void rejectsAnEmptyPayloadTruncationAndTrailingBytes() {
    assertRejects(VerifyContinue::decode, hex(ID_A + "00000000"), "verify_continue.payload");
    assertRejects(VerifyContinue::decode, hex(ID_A + "00000001 11 00"), "VerifyContinue");
    CodecChecks.assertEveryTruncationRejected(hex(ID_A + "00000001 11"), VerifyContinue::decode);
    assertThrows(IllegalArgumentException.class,
        () -> new VerifyContinue(new ReportId(hex(ID_A)), new byte[0]));
  }
}
