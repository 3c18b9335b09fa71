package org.priodp.aggregator.dap;

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
import org.priodp.aggregator.hpke.HpkeSealed;
import org.priodp.aggregator.hpke.HpkeSuite;

class InputShareEncryptionTest {
  private static final HexFormat HEX = HexFormat.of();

  @Test
  void infoIsTheLabelThenClientRoleThenServerRole() {
    // "dap-18 input share" in ASCII, then 0x01 (client, the sender), then the server's Role
    String label = "6461702d313820696e707574207368617265";
    assertEquals("dap-18 input share", new String(HEX.parseHex(label), StandardCharsets.US_ASCII));
    assertEquals(label + "01" + "03", HEX.formatHex(InputShareEncryption.info(Role.HELPER)));
    assertEquals(label + "01" + "02",
        HEX.formatHex(InputShareEncryption.info(Role.LEADER)));
    assertThrows(IllegalArgumentException.class, () -> InputShareEncryption.info(Role.CLIENT));
    assertThrows(IllegalArgumentException.class, () -> InputShareEncryption.info(Role.COLLECTOR));
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
    HpkeCiphertext ct = InputShareEncryption.seal(config, Role.HELPER, aad, plaintext);
    assertEquals(2, ct.configId().value());
    assertEquals(plaintext.encode().length + 16, ct.payload().length());

    // the Helper sees it inside a ReportShare and rebuilds the AAD from it
    ReportShare share = ReportShare.decode(new ReportShare(metadata, CodecChecks.hex("0a0b"), ct).encode());
    InputShareAad rebuilt = InputShareAad.of(taskId, SpecSamples.taskConfiguration(), share);
    assertEquals(plaintext, InputShareEncryption.open(config, helper, Role.HELPER, rebuilt,
        share.encryptedInputShare()));

    assertThrows(HpkeException.class,
        () -> InputShareEncryption.open(config, helper, Role.LEADER, aad, ct));
    InputShareAad otherReport = new InputShareAad(taskId, SpecSamples.taskConfiguration(),
        SpecSamples.metadata(SpecSamples.ID_B), CodecChecks.hex("0a0b"));
    assertThrows(HpkeException.class,
        () -> InputShareEncryption.open(config, helper, Role.HELPER, otherReport, ct));
    HpkeCiphertext otherId = new HpkeCiphertext(new HpkeConfigId(3), ct.enc(), ct.payload());
    assertThrows(HpkeException.class,
        () -> InputShareEncryption.open(config, helper, Role.HELPER, aad, otherId));
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
    HpkeSealed sealed = hpke.seal(leader.publicKey(), InputShareEncryption.info(Role.LEADER),
        aad.encode(), CodecChecks.hex("0000 00000000"));
    HpkeCiphertext ct = new HpkeCiphertext(config.id(), sealed.enc(), sealed.ciphertext());
    DapDecodeException e = assertThrows(DapDecodeException.class,
        () -> InputShareEncryption.open(config, leader, Role.LEADER, aad, ct));
    assertEquals("plaintext_input_share.payload", e.field());
  }
}
