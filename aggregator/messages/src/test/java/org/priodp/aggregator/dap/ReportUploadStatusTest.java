package org.priodp.aggregator.dap;

import static org.priodp.aggregator.dap.CodecChecks.assertRejects;
import static org.priodp.aggregator.dap.CodecChecks.hex;
import static org.priodp.aggregator.dap.SpecSamples.ID_A;

import org.junit.jupiter.api.Test;

class ReportUploadStatusTest {
  @Test
  void isTheReportIdThenTheOneByteError() {
    // struct { ReportID id; ReportError error; }: report_replayed(2)
    CodecChecks.assertSpecBytes(ID_A + "02",
        new ReportUploadStatus(new ReportId(hex(ID_A)), ReportError.REPORT_REPLAYED),
        ReportUploadStatus::encode, ReportUploadStatus::decode);
    CodecChecks.assertSpecBytes(ID_A + "0b",
        new ReportUploadStatus(new ReportId(hex(ID_A)), ReportError.OUTDATED_CONFIG),
        ReportUploadStatus::encode, ReportUploadStatus::decode);
  }

  @Test
  void rejectsReservedUnknownTruncatedAndTrailing() {
    assertRejects(ReportUploadStatus::decode, hex(ID_A + "00"), "status.error");
    assertRejects(ReportUploadStatus::decode, hex(ID_A + "0c"), "status.error");
    assertRejects(ReportUploadStatus::decode, hex(ID_A + "ff"), "status.error");
    assertRejects(ReportUploadStatus::decode, hex(ID_A + "0101"), "ReportUploadStatus");
    CodecChecks.assertEveryTruncationRejected(hex(ID_A + "01"), ReportUploadStatus::decode);
  }
}
