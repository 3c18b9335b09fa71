package org.priodp.aggregator.dap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.priodp.aggregator.dap.CodecChecks.assertRejects;
import static org.priodp.aggregator.dap.CodecChecks.hex;
import static org.priodp.aggregator.dap.SpecSamples.ID_B;

import org.junit.jupiter.api.Test;

class ReportShareTest {
  @Test
  void encodesMetadataPublicShareAndCiphertext() {
    String expected = ""
        + ID_B + "0000000001312d00" + "0000" // report_metadata
        + "00000002" + "0a0b" // public_share<0..2^32-1>
        + "02" + "0004" + "0c0d0e0f" + "00000004" + "08000a0b"; // encrypted_input_share
    CodecChecks.assertSpecBytes(expected, SpecSamples.reportShare(ID_B), ReportShare::encode,
        ReportShare::decode);
    assertEquals(new ReportId(hex(ID_B)), SpecSamples.reportShare(ID_B).reportId());
  }

  @Test
  void rejectsTruncationTrailingBytesAndBadFields() {
    CodecChecks.assertEveryTruncationRejected(hex(SpecSamples.reportShareHex(ID_B)), ReportShare::decode);
    assertRejects(ReportShare::decode, hex(SpecSamples.reportShareHex(ID_B) + "00"), "ReportShare");
    assertRejects(ReportShare::decode, hex(SpecSamples.metadataHex(ID_B) + "00000000" + "02 0000"),
        "report_share.encrypted_input_share.enc");
  }
}
