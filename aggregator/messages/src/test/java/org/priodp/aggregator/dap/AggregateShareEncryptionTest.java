package org.priodp.aggregator.dap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.priodp.aggregator.hpke.Hpke;
import org.priodp.aggregator.hpke.HpkeAeadId;
import org.priodp.aggregator.hpke.HpkeException;
import org.priodp.aggregator.hpke.HpkeKdfId;
import org.priodp.aggregator.hpke.HpkeKemId;
import org.priodp.aggregator.hpke.HpkeKeyPair;
import org.priodp.aggregator.hpke.HpkeSuite;

class AggregateShareEncryptionTest {
  @Test
  void infoIsTheLabelThenServerRoleThenCollectorRole() {
    byte[] label = "dap-18 aggregate share".getBytes(StandardCharsets.US_ASCII);
    byte[] helper = AggregateShareEncryption.info(Role.HELPER);
    assertEquals(label.length + 2, helper.length);
    assertEquals(HexFormat.of().formatHex(label) + "0300", HexFormat.of().formatHex(helper));
    assertEquals(HexFormat.of().formatHex(label) + "0200",
        HexFormat.of().formatHex(AggregateShareEncryption.info(Role.LEADER)));
    assertThrows(IllegalArgumentException.class, () -> AggregateShareEncryption.info(Role.CLIENT));
    assertThrows(IllegalArgumentException.class, () -> AggregateShareEncryption.info(Role.COLLECTOR));
  }

  @Test
  void sealsToTheCollectorConfigAndOpensWithTheSameAadAndRoleOnly() throws HpkeException {
    Hpke hpke = new Hpke(HpkeSuite.DAP_MANDATORY);
    HpkeKeyPair collector = hpke.generateKeyPair();
    HpkeConfig config = new HpkeConfig(new HpkeConfigId(42), HpkeKemId.DHKEM_X25519_HKDF_SHA256,
        HpkeKdfId.HKDF_SHA256, HpkeAeadId.AES_128_GCM, collector.publicKey());
    AggregateShareAad aad = new AggregateShareAad(new TaskId(Samples.bytes(32, 1)),
        Samples.taskConfiguration(), Samples.timeIntervalReq().collectionJobReq());
    byte[] share = Samples.bytes(48, 7);
    HpkeCiphertext ct = AggregateShareEncryption.seal(config, Role.HELPER, aad, share);
    assertEquals(42, ct.configId().value());
    assertEquals(32, ct.enc().length());
    assertEquals(share.length + 16, ct.payload().length());
    HpkeCiphertext wire = AggregateShare.decode(new AggregateShare(ct).encode()).encryptedAggregateShare();
    assertArrayEquals(share, AggregateShareEncryption.open(config, collector, Role.HELPER, aad, wire));
    // the same bytes opened as if the Leader had sealed them must fail
    assertThrows(HpkeException.class,
        () -> AggregateShareEncryption.open(config, collector, Role.LEADER, aad, wire));
    AggregateShareAad otherAad = new AggregateShareAad(new TaskId(Samples.bytes(32, 2)),
        Samples.taskConfiguration(), Samples.timeIntervalReq().collectionJobReq());
    assertThrows(HpkeException.class,
        () -> AggregateShareEncryption.open(config, collector, Role.HELPER, otherAad, wire));
    HpkeCiphertext otherId = new HpkeCiphertext(new HpkeConfigId(43), ct.enc(), ct.payload());
    assertThrows(HpkeException.class,
        () -> AggregateShareEncryption.open(config, collector, Role.HELPER, aad, otherId));
  }

  @Test
  void refusesACollectorConfigWithAnUnsupportedSuite() {
    HpkeConfig chacha = new HpkeConfig(new HpkeConfigId(1), HpkeKemId.DHKEM_X25519_HKDF_SHA256,
        HpkeKdfId.HKDF_SHA256, HpkeAeadId.CHACHA20_POLY1305, new byte[32]);
    AggregateShareAad aad = new AggregateShareAad(new TaskId(new byte[32]), Samples.taskConfiguration(),
        new CollectionJobReq(new Query.LeaderSelected(), new byte[0], List.of()));
    assertThrows(IllegalArgumentException.class,
        () -> AggregateShareEncryption.seal(chacha, Role.HELPER, aad, new byte[1]));
  }
}
