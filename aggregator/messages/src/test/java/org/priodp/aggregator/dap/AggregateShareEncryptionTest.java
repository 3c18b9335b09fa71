package org.priodp.aggregator.dap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
  void sealsToTheCollectorConfigAndOpensWithTheSameAadAndRoleOnly() throws HpkeException {
    Hpke hpke = new Hpke(HpkeSuite.DAP_MANDATORY);
    HpkeKeyPair collector = hpke.generateKeyPair();
    HpkeConfig config = new HpkeConfig(new HpkeConfigId(42), HpkeKemId.DHKEM_X25519_HKDF_SHA256,
        HpkeKdfId.HKDF_SHA256, HpkeAeadId.AES_128_GCM, collector.publicKey());
    AggregateShareAad aad = new AggregateShareAad(new TaskId(Samples.bytes(32, 1)),
        Samples.taskConfiguration(), Samples.timeIntervalReq().collectionJobReq());
    byte[] share = Samples.bytes(48, 7);
    HpkeCiphertext ct = AggregateShareEncryption.seal(DapVersion.DAP_19, config, Role.HELPER, aad, share);
    assertEquals(42, ct.configId().value());
    assertEquals(32, ct.enc().length());
    assertEquals(share.length + 16, ct.payload().length());
    HpkeCiphertext wire = AggregateShare.decode(new AggregateShare(ct).encode()).encryptedAggregateShare();
    assertArrayEquals(share, AggregateShareEncryption.open(DapVersion.DAP_19, config, collector, Role.HELPER, aad, wire));
    // the same bytes opened as DAP-18 (another info string) or as the Leader's must fail
    assertThrows(HpkeException.class, () -> AggregateShareEncryption.open(DapVersion.DAP_18,
        config, collector, Role.HELPER, aad, wire));
    assertThrows(HpkeException.class,
        () -> AggregateShareEncryption.open(DapVersion.DAP_19, config, collector, Role.LEADER, aad, wire));
    AggregateShareAad otherAad = new AggregateShareAad(new TaskId(Samples.bytes(32, 2)),
        Samples.taskConfiguration(), Samples.timeIntervalReq().collectionJobReq());
    assertThrows(HpkeException.class,
        () -> AggregateShareEncryption.open(DapVersion.DAP_19, config, collector, Role.HELPER, otherAad, wire));
    HpkeCiphertext otherId = new HpkeCiphertext(new HpkeConfigId(43), ct.enc(), ct.payload());
    assertThrows(HpkeException.class,
        () -> AggregateShareEncryption.open(DapVersion.DAP_19, config, collector, Role.HELPER, aad, otherId));
  }

  @Test
  void refusesACollectorConfigWithAnUnsupportedSuite() {
    HpkeConfig chacha = new HpkeConfig(new HpkeConfigId(1), HpkeKemId.DHKEM_X25519_HKDF_SHA256,
        HpkeKdfId.HKDF_SHA256, HpkeAeadId.CHACHA20_POLY1305, new byte[32]);
    AggregateShareAad aad = new AggregateShareAad(new TaskId(new byte[32]), Samples.taskConfiguration(),
        new CollectionJobReq(new Query.LeaderSelected(), new byte[0], List.of()));
    assertThrows(IllegalArgumentException.class,
        () -> AggregateShareEncryption.seal(DapVersion.DAP_19, chacha, Role.HELPER, aad, new byte[1]));
  }
}
