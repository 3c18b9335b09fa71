package org.priodp.aggregator.dap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.priodp.aggregator.dap.CodecChecks.assertRejects;
import static org.priodp.aggregator.dap.CodecChecks.hex;

import java.util.List;
import org.junit.jupiter.api.Test;

class ReportMetadataTest {
  static final String ID = "000102030405060708090a0b0c0d0e0f";

  @Test
  void encodesIdTimeAndExtensionsAsTheSpecStructSays() {
    ReportMetadata m = new ReportMetadata(new ReportId(hex(ID)), new Time(17419860),
        List.of(new ReportExtension(1, hex("aa")), new ReportExtension(5, new byte[0])));
    CodecChecks.assertSpecBytes(""
        + ID // report_id: opaque ReportID[16]
        + "000000000109ce54" // time: uint64 17419860
        + "0009" + "0001 0001 aa" + "0005 0000", // public_extensions<0..2^16-1>
        m, ReportMetadata::encode, ReportMetadata::decode);
    CodecChecks.assertSpecBytes(ID + "ffffffffffffffff" + "0000",
        ReportMetadata.of(new ReportId(hex(ID)), -1L), ReportMetadata::encode, ReportMetadata::decode);
  }

  @Test
  void rejectsTruncationTrailingBytesAndBadExtensionBounds() {
    byte[] enc = hex(ID + "000000000109ce54" + "0009" + "0001 0001 aa" + "0005 0000");
    CodecChecks.assertEveryTruncationRejected(enc, ReportMetadata::decode);
    assertRejects(ReportMetadata::decode, hex(ID + "0000000000000001" + "0000" + "00"),
        "ReportMetadata");
    assertRejects(ReportMetadata::decode, hex(ID + "0000000000000001"),
        "report_metadata.public_extensions length");
    assertRejects(ReportMetadata::decode, hex(ID + "0000000000000001" + "0004" + "0001 0001"),
        "report_metadata.public_extensions[0].extension_data");
    assertRejects(ReportMetadata::decode, hex(ID.substring(2)), "report_metadata.report_id");
  }

  @Test
  void keepsOutOfOrderExtensionsForThePerReportCheck() {
    ReportMetadata m = ReportMetadata.decode(hex(ID + "0000000000000001" + "0008" + "0002 0000" + "0001 0000"));
    assertEquals(2, m.publicExtensions().get(0).extensionType());
    assertEquals(hex(ID + "0000000000000001" + "0008" + "0002 0000" + "0001 0000").length, m.encode().length);
  }
}
