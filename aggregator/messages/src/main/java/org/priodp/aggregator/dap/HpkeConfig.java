package org.priodp.aggregator.dap;

import java.util.Objects;
import org.priodp.aggregator.dap.internal.DapReader;
import org.priodp.aggregator.dap.internal.DapWriter;
import org.priodp.aggregator.dap.internal.Decoding;
import org.priodp.aggregator.dap.internal.Octets;
import org.priodp.aggregator.hpke.HpkeAeadId;
import org.priodp.aggregator.hpke.HpkeKdfId;
import org.priodp.aggregator.hpke.HpkeKemId;

/**
 * An HPKE configuration, {@code struct { HpkeConfigId id; HpkeKemId kem_id; HpkeKdfId kdf_id;
 * HpkeAeadId aead_id; HpkePublicKey public_key; } HpkeConfig} with {@code opaque
 * HpkePublicKey<1..2^16-1>} and uint16 algorithm ids (DAP-18 "HPKE Configuration Request"). Ids
 * must be registered in RFC 9180 section 7 (others are rejected); the public key must have the
 * KEM's length Npk. Whether this project can use the suite is {@link #isSupported()}.
 */
public record HpkeConfig(HpkeConfigId id, HpkeKemId kemId, HpkeKdfId kdfId, HpkeAeadId aeadId,
    ByteString publicKey) {
  /** Validates the fields. */
  public HpkeConfig {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(kemId, "kem_id");
    Objects.requireNonNull(kdfId, "kdf_id");
    Objects.requireNonNull(aeadId, "aead_id");
    Octets.checkVector(publicKey, 1, 0xffff, "public_key");
    if (publicKey.length() != kemId.publicKeyLength()) {
      throw new IllegalArgumentException("public_key: " + publicKey.length() + " bytes, "
          + kemId + " public keys have " + kemId.publicKeyLength());
    }
  }

  /** Returns the configuration holding a copy of the serialized public key. */
  public HpkeConfig(HpkeConfigId id, HpkeKemId kemId, HpkeKdfId kdfId, HpkeAeadId aeadId,
      byte[] publicKey) {
    this(id, kemId, kdfId, aeadId, Octets.of(publicKey, "public_key"));
  }

  /** Returns true if the KEM, KDF and AEAD are all implemented by this project. */
  public boolean isSupported() {
    return kemId.supported() && kdfId.supported() && aeadId.supported();
  }

  /** Returns the encoding. */
  public byte[] encode() {
    DapWriter w = new DapWriter();
    write(w);
    return w.toByteArray();
  }

  /** Decodes one HpkeConfig with nothing after it. */
  public static HpkeConfig decode(byte[] encoded) {
    return Decoding.decodeAll(encoded, "HpkeConfig", r -> read(r, "hpke_config"));
  }

  static HpkeConfig read(DapReader r, String field) {
    HpkeConfigId id = new HpkeConfigId(r.u8(field + ".id"));
    int kem = r.u16(field + ".kem_id");
    HpkeKemId kemId = Decoding.build(field + ".kem_id", () -> HpkeKemId.fromCode(kem));
    int kdf = r.u16(field + ".kdf_id");
    HpkeKdfId kdfId = Decoding.build(field + ".kdf_id", () -> HpkeKdfId.fromCode(kdf));
    int aead = r.u16(field + ".aead_id");
    HpkeAeadId aeadId = Decoding.build(field + ".aead_id", () -> HpkeAeadId.fromCode(aead));
    ByteString pk = r.opaque(2, 1, 0xffff, field + ".public_key");
    return Decoding.build(field + ".public_key", () -> new HpkeConfig(id, kemId, kdfId, aeadId, pk));
  }

  void write(DapWriter w) {
    w.u8(id.value()).u16(kemId.code()).u16(kdfId.code()).u16(aeadId.code())
        .vector(2, 1, 0xffff, publicKey);
  }
}
