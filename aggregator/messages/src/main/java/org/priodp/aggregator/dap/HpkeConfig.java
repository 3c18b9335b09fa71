package org.priodp.aggregator.dap;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.priodp.aggregator.dap.internal.DapReader;
import org.priodp.aggregator.dap.internal.DapWriter;
import org.priodp.aggregator.dap.internal.Decoding;
import org.priodp.aggregator.dap.internal.Octets;
import org.priodp.aggregator.hpke.HpkeAeadId;
import org.priodp.aggregator.hpke.HpkeKdfId;
import org.priodp.aggregator.hpke.HpkeKemId;
import org.priodp.aggregator.hpke.HpkeSuite;

/**
 * An HPKE configuration, {@code struct { HpkeConfigId id; HpkeKemId kem_id; HpkeKdfId kdf_id;
 * HpkeAeadId aead_id; HpkePublicKey public_key; } HpkeConfig} with {@code opaque
 * HpkePublicKey<1..2^16-1>} and {@code uint16} algorithm ids (DAP-18 "HPKE Configuration
 * Request").
 *
 * <p>The algorithm ids are kept as the raw uint16 code points that were sent. Their values come
 * from RFC 9180 section 7, an open registry, and DAP-18 has a Client abort only when <em>no</em>
 * advertised config has a supported KEM, KDF and AEAD, so a config naming an algorithm this
 * project does not know, or carrying a public key of a length its KEM does not use, still decodes
 * and re-encodes byte for byte: it is merely unusable. {@link #kem()}, {@link #kdf()} and
 * {@link #aead()} give the registered algorithm when there is one; {@link #isSupported()} (with
 * {@link #unsupportedReason()} saying why not) tells whether this project can seal to the config.
 */
public record HpkeConfig(HpkeConfigId id, int kemId, int kdfId, int aeadId, ByteString publicKey) {
  /** Validates the wire ranges: uint16 ids and a public key of 1 to 65535 bytes. */
  public HpkeConfig {
    Objects.requireNonNull(id, "id");
    checkU16(kemId, "kem_id");
    checkU16(kdfId, "kdf_id");
    checkU16(aeadId, "aead_id");
    Octets.checkVector(publicKey, 1, 0xffff, "public_key");
  }

  /** Returns the configuration of registered algorithms holding the serialized public key. */
  public HpkeConfig(HpkeConfigId id, HpkeKemId kem, HpkeKdfId kdf, HpkeAeadId aead,
      ByteString publicKey) {
    this(id, Objects.requireNonNull(kem, "kem_id").code(),
        Objects.requireNonNull(kdf, "kdf_id").code(),
        Objects.requireNonNull(aead, "aead_id").code(), publicKey);
  }

  /** Returns the configuration of registered algorithms holding a copy of the public key. */
  public HpkeConfig(HpkeConfigId id, HpkeKemId kem, HpkeKdfId kdf, HpkeAeadId aead,
      byte[] publicKey) {
    this(id, kem, kdf, aead, Octets.of(publicKey, "public_key"));
  }

  private static void checkU16(int code, String field) {
    if (code < 0 || code > 0xffff) {
      throw new IllegalArgumentException(field + " out of uint16 range: " + code);
    }
  }

  /** Returns the KEM if {@code kem_id} is registered in RFC 9180 section 7.1. */
  public Optional<HpkeKemId> kem() {
    return HpkeKemId.find(kemId);
  }

  /** Returns the KDF if {@code kdf_id} is registered in RFC 9180 section 7.2. */
  public Optional<HpkeKdfId> kdf() {
    return HpkeKdfId.find(kdfId);
  }

  /** Returns the AEAD if {@code aead_id} is registered in RFC 9180 section 7.3. */
  public Optional<HpkeAeadId> aead() {
    return HpkeAeadId.find(aeadId);
  }

  /**
   * Returns the suite if this project implements the KEM, the KDF and the AEAD (whatever the
   * public key); empty otherwise.
   */
  public Optional<HpkeSuite> suite() {
    Optional<HpkeKemId> kem = kem().filter(HpkeKemId::supported);
    Optional<HpkeKdfId> kdf = kdf().filter(HpkeKdfId::supported);
    Optional<HpkeAeadId> aead = aead().filter(HpkeAeadId::supported);
    if (kem.isEmpty() || kdf.isEmpty() || aead.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new HpkeSuite(kem.get(), kdf.get(), aead.get()));
  }

  /**
   * Returns true if this project can seal to the config: it implements the KEM, the KDF and the
   * AEAD, and the public key has the KEM's length Npk (RFC 9180 section 7.1).
   */
  public boolean isSupported() {
    return unsupportedReason().isEmpty();
  }

  /**
   * Returns why this project cannot seal to the config, naming every unusable part (an algorithm
   * not registered or not implemented, a public key of the wrong length), or empty if it can.
   */
  public Optional<String> unsupportedReason() {
    List<String> why = new ArrayList<>();
    Optional<HpkeKemId> kem = kem();
    if (kem.isEmpty()) {
      why.add(String.format("KEM 0x%04x is not registered in RFC 9180", kemId));
    } else if (!kem.get().supported()) {
      why.add(String.format("KEM %s (0x%04x) is not implemented", kem.get(), kemId));
    }
    Optional<HpkeKdfId> kdf = kdf();
    if (kdf.isEmpty()) {
      why.add(String.format("KDF 0x%04x is not registered in RFC 9180", kdfId));
    } else if (!kdf.get().supported()) {
      why.add(String.format("KDF %s (0x%04x) is not implemented", kdf.get(), kdfId));
    }
    Optional<HpkeAeadId> aead = aead();
    if (aead.isEmpty()) {
      why.add(String.format("AEAD 0x%04x is not registered in RFC 9180", aeadId));
    } else if (!aead.get().supported()) {
      why.add(String.format("AEAD %s (0x%04x) is not implemented", aead.get(), aeadId));
    }
    if (kem.isPresent() && publicKey.length() != kem.get().publicKeyLength()) {
      why.add("public_key has " + publicKey.length() + " bytes, " + kem.get()
          + " public keys have " + kem.get().publicKeyLength());
    }
    return why.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", why));
  }

  /** Returns the encoding. */
  public byte[] encode() {
    DapWriter w = new DapWriter();
    write(w);
    return w.toByteArray();
  }

  /**
   * Decodes one HpkeConfig with nothing after it. Unknown algorithm ids and public keys of a
   * length the KEM does not use decode (see {@link #isSupported()}).
   */
  public static HpkeConfig decode(byte[] encoded) {
    return Decoding.decodeAll(encoded, "HpkeConfig", r -> read(r, "hpke_config"));
  }

  static HpkeConfig read(DapReader r, String field) {
    HpkeConfigId id = new HpkeConfigId(r.u8(field + ".id"));
    int kem = r.u16(field + ".kem_id");
    int kdf = r.u16(field + ".kdf_id");
    int aead = r.u16(field + ".aead_id");
    ByteString pk = r.opaque(2, 1, 0xffff, field + ".public_key");
    return new HpkeConfig(id, kem, kdf, aead, pk);
  }

  void write(DapWriter w) {
    w.u8(id.value()).u16(kemId).u16(kdfId).u16(aeadId).vector(2, 1, 0xffff, publicKey);
  }

  /** Shows the ids in hex with the registered names, and the key's length and first bytes. */
  @Override
  public String toString() {
    return "HpkeConfig[id=" + id.value() + ", kem_id=" + name(kemId, kem()) + ", kdf_id="
        + name(kdfId, kdf()) + ", aead_id=" + name(aeadId, aead()) + ", public_key=" + publicKey
        + "]";
  }

  private static String name(int code, Optional<? extends Enum<?>> known) {
    return String.format("0x%04x", code) + known.map(k -> "(" + k + ")").orElse("");
  }
}
