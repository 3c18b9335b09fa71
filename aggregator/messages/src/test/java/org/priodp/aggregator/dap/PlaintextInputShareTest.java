package org.priodp.aggregator.dap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.priodp.aggregator.dap.CodecChecks.assertRejects;
import static org.priodp.aggregator.dap.CodecChecks.hex;

import java.util.List;
import org.junit.jupiter.api.Test;

class PlaintextInputShareTest {
  private static final String SPEC_HEX = ""
      + "0004" + "0007 0000" // private_extensions<0..2^16-1>: {type 7, data <empty>}
      + "00000003" + "010203"; // payload<1..2^32-1>

  private static PlaintextInputShare sample() {
    return new PlaintextInputShare(List.of(new ReportExtension(7, new byte[0])), hex("010203"));
  }

  @Test
  void encodesPrivateExtensionsThenPayload() {
    CodecChecks.assertSpecBytes(SPEC_HEX, sample(), PlaintextInputShare::encode,
        PlaintextInputShare::decode);
    CodecChecks.assertSpecBytes("0000 00000001 ff", new PlaintextInputShare(List.of(), hex("ff")),
        PlaintextInputShare::encode, PlaintextInputShare::decode);
  }

  @Test
  void rejectsBoundsTruncationAndTrailingBytes() {
    CodecChecks.assertEveryTruncationRejected(hex(SPEC_HEX), PlaintextInputShare::decode);
    assertRejects(PlaintextInputShare::decode, hex("0000 00000000"), "plaintext_input_share.payload");
    assertRejects(PlaintextInputShare::decode, hex("0000 ffffffff 00"), "plaintext_input_share.payload");
    assertRejects(PlaintextInputShare::decode, hex("0003 0007 00 00000001 ff"),
        "plaintext_input_share.private_extensions[0].extension_data length");
    assertRejects(PlaintextInputShare::decode, hex(SPEC_HEX + "00"), "PlaintextInputShare");
    assertThrows(IllegalArgumentException.class, () -> new PlaintextInputShare(List.of(), new byte[0]));
  }

  @Test
  void toStringDoesNotShowTheInputShare() {
    String s = new PlaintextInputShare(List.of(new ReportExtension(9, hex("5ec2e7"))),
        hex("deadbeefcafe")).toString();
    assertFalse(s.contains("deadbeef") || s.contains("5ec2e7"), s);
    assertEquals("PlaintextInputShare[privateExtensions=[ReportExtension[type=9, 3 data bytes]], "
        + "6 payload bytes]", s);
  }
}
