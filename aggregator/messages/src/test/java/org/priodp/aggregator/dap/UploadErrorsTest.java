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
    CodecChecks.assertSpecBytes(ID_A + "02" + ID_B + "09", two(), UploadErrors::encode,
        UploadErrors::decode);
    CodecChecks.assertSpecBytes("", new UploadErrors(List.of()), UploadErrors::encode,
        UploadErrors::decode);
  }

  @Test
  void rejectsEverythingButWholeStatuses() {
    CodecChecks.assertEveryTruncation(two().encode(), UploadErrors::decode, UploadErrors::encode,
        Set.of(0, 17));
    assertRejects(UploadErrors::decode, hex(ID_A + "02" + "00"), "status[1].id");
    assertRejects(UploadErrors::decode, hex(ID_A + "02" + ID_B + "00"), "status[1].error");
    assertRejects(UploadErrors::decode, hex(ID_A + "0c"), "status[0].error");
  }

  @Test
  void seededMutationsDecodeCanonicallyOrFailCleanly() {
    CodecChecks.fuzz("UploadErrorsTest", List.of(two().encode()), UploadErrors::decode,
        UploadErrors::encode, 5_000);
  }
}
