package org.priodp.aggregator.dap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class HpkeCiphertextTest {
  private static final HexFormat HEX = HexFormat.of();

  @Test
  void encodesConfigIdEncAndPayloadWithTheirPrefixWidths() {
    HpkeCiphertext c = new HpkeCiphertext(new HpkeConfigId(7), new byte[] {1, 2}, new byte[] {3});
    assertEquals("07" + "0002" + "0102" + "00000001" + "03", HEX.formatHex(c.encode()));
    assertEquals(c, HpkeCiphertext.decode(c.encode()));
    AggregateShare share = new AggregateShare(c);
    assertEquals(HEX.formatHex(c.encode()), HEX.formatHex(share.encode()));
    assertEquals(share, AggregateShare.decode(share.encode()));
  }

  @Test
  void rejectsEmptyEncAndEmptyPayloadAsOutOfBounds() {
    DapDecodeException e = assertThrows(DapDecodeException.class,
        () -> HpkeCiphertext.decode(HEX.parseHex("07" + "0000" + "00000001" + "03")));
    assertEquals("hpke_ciphertext.enc", e.field());
    e = assertThrows(DapDecodeException.class,
        () -> HpkeCiphertext.decode(HEX.parseHex("07" + "000101" + "00000000")));
    assertEquals("hpke_ciphertext.payload", e.field());
    assertThrows(IllegalArgumentException.class,
        () -> new HpkeCiphertext(new HpkeConfigId(1), new byte[0], new byte[1]));
  }

  @Test
  void rejectsAMaximalDeclaredPayloadLengthWithoutAllocating() {
    DapDecodeException e = assertThrows(DapDecodeException.class,
        () -> AggregateShare.decode(HEX.parseHex("07" + "000101" + "ffffffff" + "0102")));
    assertEquals("encrypted_aggregate_share.payload", e.field());
    assertTrue(e.getMessage().contains("exceeds"), e.getMessage());
  }

  @Test
  void rejectsConfigIdsOutsideUint8() {
    assertThrows(IllegalArgumentException.class, () -> new HpkeConfigId(256));
    assertThrows(IllegalArgumentException.class, () -> new HpkeConfigId(-1));
  }
}
