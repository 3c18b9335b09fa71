package org.priodp.aggregator.dap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.priodp.aggregator.dap.CodecChecks.assertRejects;
import static org.priodp.aggregator.dap.CodecChecks.hex;
import static org.priodp.aggregator.dap.SpecSamples.ID_A;
import static org.priodp.aggregator.dap.SpecSamples.ID_B;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class UploadRequestTest {
  private static UploadRequest two() {
    return new UploadRequest(List.of(SpecSamples.report(ID_A), SpecSamples.report(ID_B)));
  }

  @Test
  void isTheReportsConcatenatedWithoutALengthPrefix() {
    // struct { Report reports[message_length]; }: two 62-byte reports back to back
    String expected = ""
        + ID_A + "0000000001312d00" + "0000" + "00000002 0a0b"
        + "01 0004 0f0e0d0c 00000004 0b0a0908" + "02 0004 0c0d0e0f 00000004 08000a0b"
        + ID_B + "0000000001312d00" + "0000" + "00000002 0a0b"
        + "01 0004 0f0e0d0c 00000004 0b0a0908" + "02 0004 0c0d0e0f 00000004 08000a0b";
    CodecChecks.assertSpecBytes(expected, two(), UploadRequest::encode, UploadRequest::decode);
    CodecChecks.assertSpecBytes("", new UploadRequest(List.of()), UploadRequest::encode,
        UploadRequest::decode);
  }

  @Test
  void everyPrefixIsRejectedExceptAtReportBoundaries() {
    CodecChecks.assertEveryTruncation(two().encode(), UploadRequest::decode, UploadRequest::encode,
        Set.of(0, 62));
    assertEquals(1, UploadRequest.decode(hex(SpecSamples.reportHex(ID_A))).reports().size());
  }

  @Test
  void namesTheReportAndFieldThatFails() {
    byte[] trailing = hex(SpecSamples.reportHex(ID_A) + "00");
    assertRejects(UploadRequest::decode, trailing, "reports[1].report_metadata.report_id");
    String bad = SpecSamples.reportHex(ID_A) + SpecSamples.metadataHex(ID_B) + "00000002 0a0b"
        + "01 0000";
    assertRejects(UploadRequest::decode, hex(bad), "reports[1].leader_encrypted_input_share.enc");
    assertRejects(UploadRequest::decode, null, "UploadRequest");
  }

  @Test
  void seededMutationsDecodeCanonicallyOrFailCleanly() {
    UploadRequest withExtensions = new UploadRequest(List.of(new Report(
        new ReportMetadata(new ReportId(hex(ID_B)), new Time(5),
            List.of(new ReportExtension(1, hex("00ff")), new ReportExtension(3, new byte[0]))),
        new byte[0], SpecSamples.leaderCt(), SpecSamples.helperCt()), SpecSamples.report(ID_A)));
    CodecChecks.fuzz("UploadRequestTest", List.of(two().encode(), withExtensions.encode(),
        new UploadRequest(List.of(SpecSamples.report(ID_A))).encode()),
        UploadRequest::decode, UploadRequest::encode, 20_000);
  }
}
