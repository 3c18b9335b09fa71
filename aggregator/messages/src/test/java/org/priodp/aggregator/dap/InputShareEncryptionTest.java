package org.priodp.aggregator.dap;

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
import org.priodp.aggregator.hpke.HpkeSealed;
import org.priodp.aggregator.hpke.HpkeSuite;

class InputShareEncryptionTest {
  @Test
  void aShareSealedForOneVersionDoesNotOpenAsTheOther() throws HpkeException {
    // the version tag is in the HPKE info ("dap-18 input share" vs "dap-19 input share")
    Hpke hpke = new Hpke(HpkeSuite.DAP_MANDATORY);
    HpkeKeyPair helper = hpke.generateKeyPair();
    HpkeConfig config = new HpkeConfig(new HpkeConfigId(2), HpkeKemId.DHKEM_X25519_HKDF_SHA256,
        HpkeKdfId.HKDF_SHA256, HpkeAeadId.AES_128_GCM, helper.publicKey());
    InputShareAad aad = new InputShareAad(new TaskId(Samples.bytes(32, 5)),
        SpecSamples.taskConfiguration(), SpecSamples.metadata(SpecSamples.ID_A), new byte[0]);
    PlaintextInputShare plaintext = new PlaintextInputShare(List.of(), Samples.bytes(40, 9));
    HpkeCiphertext ct = InputShareEncryption.seal(DapVersion.DAP_19, config, Role.HELPER, aad,
        plaintext);
    assertEquals(plaintext, InputShareEncryption.open(DapVersion.DAP_19, config, helper,
        Role.HELPER, aad, ct));
    assertThrows(HpkeException.class, () -> InputShareEncryption.open(DapVersion.DAP_18, config,
        helper, Role.HELPER, aad, ct));
  }

  @Test
  void sealsToTheAggregatorAndOpensWithTheSameAadAndRoleOnly() throws HpkeException {
    Hpke hpke = new Hpke(HpkeSuite.DAP_MANDATORY);
    HpkeKeyPair helper = hpke.generateKeyPair();
    HpkeConfig config = new HpkeConfig(new HpkeConfigId(2), HpkeKemId.DHKEM_X25519_HKDF_SHA256,
        HpkeKdfId.HKDF_SHA256, HpkeAeadId.AES_128_GCM, helper.publicKey());
    TaskId taskId = new TaskId(Samples.bytes(32, 5));
    ReportMetadata metadata = SpecSamples.metadata(SpecSamples.ID_A);
    InputShareAad aad = new InputShareAad(taskId, SpecSamples.taskConfiguration(), metadata,
        CodecChecks.hex("0a0b"));
    PlaintextInputShare plaintext = new PlaintextInputShare(List.of(), Samples.bytes(40, 9));
    HpkeCiphertext ct = InputShareEncryption.seal(DapVersion.DAP_18, config, Role.HELPER, aad, plaintext);
    assertEquals(2, ct.configId().value());
    assertEquals(plaintext.encode().length + 16, ct.payload().length());

    // the Helper sees it inside a ReportShare and rebuilds the AAD from it
    ReportShare share = ReportShare.decode(new ReportShare(metadata, CodecChecks.hex("0a0b"), ct).encode());
    InputShareAad rebuilt = InputShareAad.of(taskId, SpecSamples.taskConfiguration(), share);
    assertEquals(plaintext, InputShareEncryption.open(DapVersion.DAP_18, config, helper, Role.HELPER, rebuilt,
        share.encryptedInputShare()));

    assertThrows(HpkeException.class,
        () -> InputShareEncryption.open(DapVersion.DAP_18, config, helper, Role.LEADER, aad, ct));
    InputShareAad otherReport = new InputShareAad(taskId, SpecSamples.taskConfiguration(),
        SpecSamples.metadata(SpecSamples.ID_B), CodecChecks.hex("0a0b"));
    assertThrows(HpkeException.class,
        () -> InputShareEncryption.open(DapVersion.DAP_18, config, helper, Role.HELPER, otherReport, ct));
    HpkeCiphertext otherId = new HpkeCiphertext(new HpkeConfigId(3), ct.enc(), ct.payload());
    assertThrows(HpkeException.class,
        () -> InputShareEncryption.open(DapVersion.DAP_18, config, helper, Role.HELPER, aad, otherId));
  }

  @Test
  void aPlaintextThatIsNotAPlaintextInputShareIsADecodeError() throws HpkeException {
    Hpke hpke = new Hpke(HpkeSuite.DAP_MANDATORY);
    HpkeKeyPair leader = hpke.generateKeyPair();
    HpkeConfig config = new HpkeConfig(new HpkeConfigId(1), HpkeKemId.DHKEM_X25519_HKDF_SHA256,
        HpkeKdfId.HKDF_SHA256, HpkeAeadId.AES_128_GCM, leader.publicKey());
    InputShareAad aad = new InputShareAad(new TaskId(new byte[32]), SpecSamples.taskConfiguration(),
        SpecSamples.metadata(SpecSamples.ID_A), new byte[0]);
    // private_extensions empty, then a payload<1..2^32-1> of length 0
    HpkeSealed sealed = hpke.seal(leader.publicKey(), DapVersion.DAP_18.inputShareInfo(Role.LEADER),
        aad.encode(), CodecChecks.hex("0000 00000000"));
    HpkeCiphertext ct = new HpkeCiphertext(config.id(), sealed.enc(), sealed.ciphertext());
    DapDecodeException e = assertThrows(DapDecodeException.class,
        () -> InputShareEncryption.open(DapVersion.DAP_18, config, leader, Role.LEADER, aad, ct));
    assertEquals("plaintext_input_share.payload", e.field());
  }
}
