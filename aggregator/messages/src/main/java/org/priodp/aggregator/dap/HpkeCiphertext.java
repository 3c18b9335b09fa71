package org.priodp.aggregator.dap;

import java.util.Objects;
import org.priodp.aggregator.dap.internal.DapReader;
import org.priodp.aggregator.dap.internal.DapWriter;
import org.priodp.aggregator.dap.internal.Decoding;
import org.priodp.aggregator.dap.internal.Octets;

/**
 * An HPKE-sealed message, {@code struct { HpkeConfigId config_id; opaque enc<1..2^16-1>; opaque
 * payload<1..2^32-1>; } HpkeCiphertext} (DAP-18 "Basic Type Definitions").
 */
public record HpkeCiphertext(HpkeConfigId configId, ByteString enc, ByteString payload) {
  /** Validates the fields. */
  public HpkeCiphertext {
    Objects.requireNonNull(configId, "config_id");
    Octets.checkVector(enc, 1, 0xffff, "enc");
    Octets.checkVector(payload, 1, 0xffffffffL, "payload");
  }

  /** Returns the ciphertext holding copies of the encapsulated key and the AEAD ciphertext. */
  public HpkeCiphertext(HpkeConfigId configId, byte[] enc, byte[] payload) {
    this(configId, Octets.of(enc, "enc"), Octets.of(payload, "payload"));
  }

  /** Returns the encoding. */
  public byte[] encode() {
    DapWriter w = new DapWriter();
    write(w);
    return w.toByteArray();
  }

  /** Decodes one HpkeCiphertext with nothing after it. */
  public static HpkeCiphertext decode(byte[] encoded) {
    return Decoding.decodeAll(encoded, "HpkeCiphertext", r -> read(r, "hpke_ciphertext"));
  }

  static HpkeCiphertext read(DapReader r, String field) {
    HpkeConfigId id = new HpkeConfigId(r.u8(field + ".config_id"));
    ByteString enc = r.opaque(2, 1, 0xffff, field + ".enc");
    ByteString payload = r.opaque(4, 1, 0xffffffffL, field + ".payload");
    return new HpkeCiphertext(id, enc, payload);
  }

  void write(DapWriter w) {
    w.u8(configId.value()).vector(2, 1, 0xffff, enc).vector(4, 1, 0xffffffffL, payload);
  }
}
