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
        m -> m.encode(DapVersion.DAP_18), b -> ReportUploadStatus.decode(b, DapVersion.DAP_18));
    CodecChecks.assertSpecBytes(ID_A + "0b",
        new ReportUploadStatus(new ReportId(hex(ID_A)), ReportError.OUTDATED_CONFIG),
        m -> m.encode(DapVersion.DAP_18), b -> ReportUploadStatus.decode(b, DapVersion.DAP_18));
  }

  @Test
  void rejectsReservedUnknownTruncatedAndTrailing() {
    assertRejects(b -> ReportUploadStatus.decode(b, DapVersion.DAP_18), hex(ID_A + "00"), "status.error");
    assertRejects(b -> ReportUploadStatus.decode(b, DapVersion.DAP_18), hex(ID_A + "0c"), "status.error");
    assertRejects(b -> ReportUploadStatus.decode(b, DapVersion.DAP_18), hex(ID_A + "ff"), "status.error");
    assertRejects(b -> ReportUploadStatus.decode(b, DapVersion.DAP_18), hex(ID_A + "0101"), "ReportUploadStatus");
    CodecChecks.assertEveryTruncationRejected(hex(ID_A + "01"), b -> ReportUploadStatus.decode(b, DapVersion.DAP_18));
  }

  @Test
  void dap19CodesTheRenumberedErrors() {
    // DAP-19 ReportError: hpke_unknown_config_id(4), unsupported_extension(10); no 11
    CodecChecks.assertSpecBytes(ID_A + "04",
        new ReportUploadStatus(new ReportId(hex(ID_A)), ReportError.HPKE_UNKNOWN_CONFIG_ID),
        m -> m.encode(DapVersion.DAP_19), b -> ReportUploadStatus.decode(b, DapVersion.DAP_19));
    CodecChecks.assertSpecBytes(ID_A + "0a",
        new ReportUploadStatus(new ReportId(hex(ID_A)), ReportError.UNSUPPORTED_EXTENSION),
        m -> m.encode(DapVersion.DAP_19), b -> ReportUploadStatus.decode(b, DapVersion.DAP_19));
    assertRejects(b -> ReportUploadStatus.decode(b, DapVersion.DAP_19), hex(ID_A + "0b"),
        "status.error");
  }
}
