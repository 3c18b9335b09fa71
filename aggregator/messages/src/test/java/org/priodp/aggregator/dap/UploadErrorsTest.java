package org.priodp.aggregator.dap;

import static org.priodp.aggregator.dap.CodecChecks.assertRejects;
import static org.priodp.aggregator.dap.CodecChecks.hex;
import static org.priodp.aggregator.dap.SpecSamples.ID_A;
import static org.priodp.aggregator.dap.SpecSamples.ID_B;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class UploadErrorsTest {
  private static UploadErrors two() {
    return new UploadErrors(List.of(
        new ReportUploadStatus(new ReportId(hex(ID_A)), ReportError.REPORT_REPLAYED),
        new ReportUploadStatus(new ReportId(hex(ID_B)), ReportError.REPORT_TOO_EARLY)));
  }

  @Test
  void isTheStatusesConcatenatedWithoutALengthPrefix() {
    // struct { ReportUploadStatus status[message_length]; }
    CodecChecks.assertSpecBytes(ID_A + "02" + ID_B + "09", two(), m -> m.encode(DapVersion.DAP_18),
        b -> UploadErrors.decode(b, DapVersion.DAP_18));
    CodecChecks.assertSpecBytes("", new UploadErrors(List.of()), m -> m.encode(DapVersion.DAP_18),
        b -> UploadErrors.decode(b, DapVersion.DAP_18));
  }

  @Test
  void rejectsEverythingButWholeStatuses() {
    CodecChecks.assertEveryTruncation(two().encode(DapVersion.DAP_18), b -> UploadErrors.decode(b, DapVersion.DAP_18), m -> m.encode(DapVersion.DAP_18),
        Set.of(0, 17));
    assertRejects(b -> UploadErrors.decode(b, DapVersion.DAP_18), hex(ID_A + "02" + "00"), "status[1].id");
    assertRejects(b -> UploadErrors.decode(b, DapVersion.DAP_18), hex(ID_A + "02" + ID_B + "00"), "status[1].error");
    assertRejects(b -> UploadErrors.decode(b, DapVersion.DAP_18), hex(ID_A + "0c"), "status[0].error");
  }

  @Test
  void seededMutationsDecodeCanonicallyOrFailCleanly() {
    CodecChecks.fuzz("UploadErrorsTest", List.of(two().encode(DapVersion.DAP_18)), b -> UploadErrors.decode(b, DapVersion.DAP_18),
        m -> m.encode(DapVersion.DAP_18), 5_000);
  }
}
