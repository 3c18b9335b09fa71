package org.priodp.aggregator.dap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.priodp.aggregator.dap.CodecChecks.assertRejects;
import static org.priodp.aggregator.dap.CodecChecks.hex;

import org.junit.jupiter.api.Test;

class InputShareAadTest {
  private static final String TASK_ID = "f0163447364ccf1bc0e3affcca6873c9c381f64acdf9020662f83f46c07219e7";
  private static final String UP_TO_METADATA = TASK_ID // task_id: opaque TaskID[32]
      + SpecSamples.TASK_CONFIG_HEX // task_configuration
      + SpecSamples.metadataHex(SpecSamples.ID_A); // report_metadata
  private static final String SPEC_HEX = UP_TO_METADATA + "00000002 0a0b"; // public_share<0..2^32-1>

  private static InputShareAad sample() {
    return new InputShareAad(new TaskId(hex(TASK_ID)), SpecSamples.taskConfiguration(),
        SpecSamples.metadata(SpecSamples.ID_A), hex("0a0b"));
  }

  @Test
  void encodesTaskIdConfigurationMetadataAndPublicShare() {
    CodecChecks.assertSpecBytes(SPEC_HEX, sample(), InputShareAad::encode, b -> InputShareAad.decode(b, DapVersion.DAP_18));
    assertEquals(sample(), InputShareAad.of(new TaskId(hex(TASK_ID)), SpecSamples.taskConfiguration(),
        SpecSamples.reportShare(SpecSamples.ID_A)));
  }

  @Test
  void rejectsTruncationTrailingBytesAndBadFields() {
    CodecChecks.assertEveryTruncationRejected(hex(SPEC_HEX), b -> InputShareAad.decode(b, DapVersion.DAP_18));
    assertRejects(b -> InputShareAad.decode(b, DapVersion.DAP_18), hex(SPEC_HEX + "00"), "InputShareAad");
    assertRejects(b -> InputShareAad.decode(b, DapVersion.DAP_18), hex(UP_TO_METADATA + "00000003 0a0b"), "public_share");
    // task_info<1..2^8-1> with length 0
    assertRejects(b -> InputShareAad.decode(b, DapVersion.DAP_18), hex(TASK_ID + "00" + SPEC_HEX.substring(TASK_ID.length() + 2)),
        "task_configuration.task_info");
  }
}
