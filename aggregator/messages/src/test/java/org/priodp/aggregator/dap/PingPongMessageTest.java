package org.priodp.aggregator.dap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.priodp.aggregator.dap.CodecChecks.assertRejects;
import static org.priodp.aggregator.dap.CodecChecks.hex;

import java.util.List;
import org.junit.jupiter.api.Test;

class PingPongMessageTest {
  @Test
  void encodesTheThreeVariantsAsVdaf20Specifies() {
    // initialize(0): verifier_share<0..2^32-1>
    CodecChecks.assertSpecBytes("00" + "00000002 abcd", new PingPongMessage.Initialize(hex("abcd")),
        PingPongMessage::encode, PingPongMessage::decode);
    // continue(1): verifier_message<0..2^32-1>, verifier_share<0..2^32-1>
    CodecChecks.assertSpecBytes("01" + "00000001 11" + "00000003 222222",
        new PingPongMessage.Continue(hex("11"), hex("222222")), PingPongMessage::encode,
        PingPongMessage::decode);
    // finish(2): verifier_message<0..2^32-1>
    CodecChecks.assertSpecBytes("02" + "00000004 33333333", new PingPongMessage.Finish(hex("33333333")),
        PingPongMessage::encode, PingPongMessage::decode);
    // every vector may be empty
    CodecChecks.assertSpecBytes("01" + "00000000" + "00000000",
        new PingPongMessage.Continue(new byte[0], new byte[0]), PingPongMessage::encode,
        PingPongMessage::decode);
    assertEquals(PingPongMessage.Type.FINISH, PingPongMessage.decode(hex("02 00000000")).type());
  }

  @Test
  void rejectsUnknownTypesTruncationAndTrailingBytes() {
    for (String t : List.of("03", "ff")) {
      assertRejects(PingPongMessage::decode, hex(t + "00000000"), "ping_pong_message.type");
    }
    assertRejects(PingPongMessage::decode, new byte[0], "ping_pong_message.type");
    assertRejects(PingPongMessage::decode, hex("00 00000001"), "ping_pong_message.verifier_share");
    assertRejects(PingPongMessage::decode, hex("01 00000000"),
        "ping_pong_message.verifier_share length");
    assertRejects(PingPongMessage::decode, hex("01 ffffffff"), "ping_pong_message.verifier_message");
    assertRejects(PingPongMessage::decode, hex("02 00000000 00"), "PingPongMessage");
    // a continue message's bytes are not a finish message
    assertRejects(PingPongMessage::decode, hex("02 00000001 11 00000003 222222"), "PingPongMessage");
    for (String enc : List.of("00 00000002 abcd", "01 00000001 11 00000003 222222", "02 00000001 33")) {
      CodecChecks.assertEveryTruncationRejected(hex(enc), PingPongMessage::decode);
    }
  }

  @Test
  void copiesArrays() {
    byte[] b = {1, 2};
    PingPongMessage.Initialize i = new PingPongMessage.Initialize(b);
    b[0] = 9;
    i.verifierShare().toByteArray()[1] = 9;
    assertEquals(new PingPongMessage.Initialize(hex("0102")), i);
    assertThrows(NullPointerException.class, () -> new PingPongMessage.Finish((byte[]) null));
  }

  @Test
  void seededMutationsDecodeCanonicallyOrFailCleanly() {
    CodecChecks.fuzz("PingPongMessageTest", List.of(hex("00 00000002 abcd"),
        hex("01 00000001 11 00000003 222222"), hex("02 00000004 33333333")),
        PingPongMessage::decode, PingPongMessage::encode, 5_000);
  }
}
