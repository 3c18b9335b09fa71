package org.priodp.aggregator.dap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.priodp.aggregator.hpke.HpkeAeadId;
import org.priodp.aggregator.hpke.HpkeKdfId;
import org.priodp.aggregator.hpke.HpkeKemId;

class HpkeConfigListTest {
  private static final HexFormat HEX = HexFormat.of();

  private static HpkeConfig x25519(int id) {
    return new HpkeConfig(new HpkeConfigId(id), HpkeKemId.DHKEM_X25519_HKDF_SHA256,
        HpkeKdfId.HKDF_SHA256, HpkeAeadId.AES_128_GCM, Samples.bytes(32, id));
  }

  @Test
  void encodesTheListWithATwoBytePrefixAndRoundTrips() {
    HpkeConfig chacha = new HpkeConfig(new HpkeConfigId(17), HpkeKemId.DHKEM_X25519_HKDF_SHA256,
        HpkeKdfId.HKDF_SHA256, HpkeAeadId.CHACHA20_POLY1305, Samples.bytes(32, 5));
    HpkeConfigList list = new HpkeConfigList(List.of(x25519(194), chacha));
    byte[] enc = list.encode();
    assertEquals(2 + 2 * (1 + 2 + 2 + 2 + 2 + 32), enc.length);
    assertEquals("0052" + "c2" + "0020" + "0001" + "0001" + "0020", HEX.formatHex(enc, 0, 11));
    assertEquals(list, HpkeConfigList.decode(enc));
    assertTrue(list.configs().get(0).isSupported());
    assertFalse(list.configs().get(1).isSupported(), "ChaCha20Poly1305 is registered but not implemented");
  }

  @Test
  void rejectsEmptyListsDuplicateIdsAndUnknownAlgorithms() {
    assertThrows(DapDecodeException.class, () -> HpkeConfigList.decode(HEX.parseHex("0000")));
    assertThrows(IllegalArgumentException.class, () -> new HpkeConfigList(List.of(x25519(1), x25519(1))));
    byte[] one = new HpkeConfigList(List.of(x25519(1))).encode();
    byte[] unknownKem = one.clone();
    unknownKem[4] = 0x30;
    DapDecodeException e = assertThrows(DapDecodeException.class, () -> HpkeConfigList.decode(unknownKem));
    assertEquals("hpke_config_list[0].kem_id", e.field());
    byte[] unknownAead = one.clone();
    unknownAead[8] = 0x09;
    e = assertThrows(DapDecodeException.class, () -> HpkeConfigList.decode(unknownAead));
    assertEquals("hpke_config_list[0].aead_id", e.field());
  }

  @Test
  void rejectsAPublicKeyOfTheWrongLengthForItsKem() {
    byte[] p256 = HEX.parseHex("0010" + "01" + "0010" + "0001" + "0001" + "0002" + "0102"
        + "00000000000000");
    // a 2-byte key for P-256 (needs 65), padded so the list meets its 10-byte minimum
    DapDecodeException e = assertThrows(DapDecodeException.class, () -> HpkeConfigList.decode(p256));
    assertTrue(e.getMessage().contains("public_key") || e.getMessage().contains("trailing")
        || e.getMessage().contains("truncated"), e.getMessage());
    byte[] exact = HEX.parseHex("000b" + "01" + "0010" + "0001" + "0001" + "0002" + "0102");
    e = assertThrows(DapDecodeException.class, () -> HpkeConfigList.decode(exact));
    assertEquals("hpke_config_list[0].public_key", e.field());
  }
}
