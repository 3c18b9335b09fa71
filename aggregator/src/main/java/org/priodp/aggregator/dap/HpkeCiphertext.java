package org.priodp.aggregator.dap;

import java.util.Arrays;
import java.util.Objects;
import org.priodp.aggregator.dap.internal.DapReader;
import org.priodp.aggregator.dap.internal.DapWriter;
import org.priodp.aggregator.dap.internal.Decoding;
import org.priodp.aggregator.dap.internal.Octets;

/**
 * An HPKE-sealed message, {@code struct { HpkeConfigId config_id; opaque enc<1..2^16-1>; opaque
 * payload<1..2^32-1>; } HpkeCiphertext} (DAP-18 "Basic Type Definitions").
 */
public record HpkeCiphertext(HpkeConfigId configId, byte[] enc, byte[] payload) {
  /** Validates and copies the fields. */
  public HpkeCiphertext {
    Objects.requireNonNull(configId, "config_id");
    enc = Octets.checkVector(enc, 1, 0xffff, "enc");
    payload = Octets.checkVector(payload, 1, 0xffffffffL, "payload");
  }

  /** Returns a copy of the encapsulated key. */
  @Override
  public byte[] enc() {
    return enc.clone();
  }

  /** Returns a copy of the AEAD ciphertext. */
  @Override
  public byte[] payload() {
    return payload.clone();
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
    byte[] enc = r.vector(2, 1, 0xffff, field + ".enc");
    byte[] payload = r.vector(4, 1, 0xffffffffL, field + ".payload");
    return new HpkeCiphertext(id, enc, payload);
  }

  void write(DapWriter w) {
    w.u8(configId.value()).vector(2, 1, 0xffff, enc).vector(4, 1, 0xffffffffL, payload);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof HpkeCiphertext c && c.configId.equals(configId)
        && Arrays.equals(c.enc, enc) && Arrays.equals(c.payload, payload);
  }

  @Override
  public int hashCode() {
    return Objects.hash(configId, Arrays.hashCode(enc), Arrays.hashCode(payload));
  }

  @Override
  public String toString() {
    return "HpkeCiphertext[configId=" + configId.value() + ", enc=" + Octets.hex(enc)
        + ", payload=" + Octets.hex(payload) + "]";
  }
}
