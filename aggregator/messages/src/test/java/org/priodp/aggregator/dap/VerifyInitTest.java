package org.priodp.aggregator.dap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.priodp.aggregator.dap.CodecChecks.assertRejects;
import static org.priodp.aggregator.dap.CodecChecks.hex;
import static org.priodp.aggregator.dap.SpecSamples.ID_A;

import org.junit.jupiter.api.Test;

class VerifyInitTest {
  @Test
  void encodesTheReportShareThenThePayload() {
    String expected = ""
        + ID_A + "0000000001312d00" + "0000" // report_share.report_metadata
        + "00000002 0a0b" // report_share.public_share
        + "02 0004 0c0d0e0f 00000004 08000a0b" // report_share.encrypted_input_share
        + "00000007" + "00 00000002 abcd"; // payload<1..2^32-1>: ping-pong initialize
    CodecChecks.assertSpecBytes(expected, SpecSamples.verifyInit(ID_A), VerifyInit::encode,
        VerifyInit::decode);
    assertEquals(new PingPongMessage.Initialize(hex("abcd")),
        PingPongMessage.decode(SpecSamples.verifyInit(ID_A).payload().toByteArray()));
  }

  @Test
  void rejectsAnEmptyPayloadTruncationAndTrailingBytes() {
    assertRejects(VerifyInit::decode, hex(SpecSamples.reportShareHex(ID_A) + "00000000"),
        "verify_init.payload");
    CodecChecks.assertEveryTruncationRejected(hex(SpecSamples.verifyInitHex(ID_A)), VerifyInit::decode);
    assertRejects(VerifyInit::decode, hex(SpecSamples.verifyInitHex(ID_A) + "00"), "VerifyInit");
  }
}
