package org.priodp.aggregator.dap;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.priodp.aggregator.dap.internal.DapReader;
import org.priodp.aggregator.dap.internal.DapWriter;
import org.priodp.aggregator.dap.internal.Decoding;
import org.priodp.aggregator.dap.internal.Octets;

/**
 * The plaintext an Aggregator's encrypted input share opens to, {@code struct { Extension
 * private_extensions<0..2^16-1>; opaque payload<1..2^32-1>; } PlaintextInputShare} (DAP-18 "Upload
 * Request", "Client Behavior"). The payload is the VDAF input share, a secret: {@link #toString}
 * shows lengths only. The private extensions are kept in wire order and checked per report by
 * {@link ReportExtension#validate}.
 */
public record PlaintextInputShare(List<ReportExtension> privateExtensions, byte[] payload) {
  /** Validates and copies the fields. */
  public PlaintextInputShare {
    privateExtensions = ReportExtension.LIST.checkList(privateExtensions, "private_extensions");
    payload = Octets.checkVector(payload, 1, 0xffffffffL, "payload");
  }

  /** Returns a copy of the VDAF input share. */
  @Override
  public byte[] payload() {
    return payload.clone();
  }

  /** Returns the encoding (the HPKE plaintext). */
  public byte[] encode() {
    DapWriter w = new DapWriter();
    write(w);
    return w.toByteArray();
  }

  /** Decodes one PlaintextInputShare with nothing after it. */
  public static PlaintextInputShare decode(byte[] encoded) {
    return Decoding.decodeAll(encoded, "PlaintextInputShare", r -> read(r, "plaintext_input_share"));
  }

  static PlaintextInputShare read(DapReader r, String field) {
    List<ReportExtension> ext = ReportExtension.LIST.read(r, field + ".private_extensions");
    byte[] payload = r.vector(4, 1, 0xffffffffL, field + ".payload");
    return new PlaintextInputShare(ext, payload);
  }

  void write(DapWriter w) {
    ReportExtension.LIST.write(w, privateExtensions);
    w.vector(4, 1, 0xffffffffL, payload);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PlaintextInputShare p && p.privateExtensions.equals(privateExtensions)
        && Arrays.equals(p.payload, payload);
  }

  @Override
  public int hashCode() {
    return Objects.hash(privateExtensions, Arrays.hashCode(payload));
  }

  @Override
  public String toString() {
    return "PlaintextInputShare[privateExtensions=" + privateExtensions + ", " + payload.length
        + " payload bytes]";
  }
}
