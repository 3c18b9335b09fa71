package org.priodp.aggregator.dap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.priodp.aggregator.dap.CodecChecks.assertRejects;
import static org.priodp.aggregator.dap.CodecChecks.hex;
import static org.priodp.aggregator.dap.SpecSamples.ID_A;

import org.junit.jupiter.api.Test;

class ReportTest {
  @Test
  void encodesTheSpecUploadExampleFieldByField() {
    String expected = ""
        + ID_A + "0000000001312d00" + "0000" // report_metadata: id, time 20000000, no extensions
        + "00000002" + "0a0b" // public_share<0..2^32-1>
        + "01" + "0004" + "0f0e0d0c" + "00000004" + "0b0a0908" // leader: config_id, enc<>, payload<>
        + "02" + "0004" + "0c0d0e0f" + "00000004" + "08000a0b"; // helper
    CodecChecks.assertSpecBytes(expected, SpecSamples.report(ID_A), Report::encode, Report::decode);
    assertEquals(62, hex(expected).length);
  }

  @Test
  void splitsIntoTheTwoReportShares() {
    Report r = SpecSamples.report(ID_A);
    assertEquals(SpecSamples.reportShare(ID_A), r.helperReportShare());
    assertEquals(SpecSamples.leaderCt(), r.leaderReportShare().encryptedInputShare());
    assertEquals(r.reportMetadata(), r.leaderReportShare().reportMetadata());
  }

  @Test
  void rejectsTruncationTrailingBytesAndBadFields() {
    String m = SpecSamples.metadataHex(ID_A);
    CodecChecks.assertEveryTruncationRejected(hex(SpecSamples.reportHex(ID_A)), Report::decode);
    assertRejects(Report::decode, hex(SpecSamples.reportHex(ID_A) + "00"), "Report");
    assertRejects(Report::decode, hex(m + "ffffffff 0a0b" + SpecSamples.LEADER_CT_HEX),
        "report.public_share");
    assertRejects(Report::decode, hex(m + "00000000" + "01 0000" + "00000001 00" + SpecSamples.HELPER_CT_HEX),
        "report.leader_encrypted_input_share.enc");
    assertRejects(Report::decode, hex(m + "00000000" + SpecSamples.LEADER_CT_HEX + "02 0001 00 00000000"),
        "report.helper_encrypted_input_share.payload");
    assertRejects(Report::decode, hex(m + "00000000" + SpecSamples.LEADER_CT_HEX),
        "report.helper_encrypted_input_share.config_id");
    assertThrows(NullPointerException.class,
        () -> new Report(SpecSamples.metadata(ID_A), new byte[0], null, SpecSamples.helperCt()));
  }
}
