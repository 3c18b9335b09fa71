package org.priodp.aggregator.dap;

import java.util.List;
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
public record PlaintextInputShare(List<ReportExtension> privateExtensions, ByteString payload) {
  /** Validates the fields and copies the list. */
  public PlaintextInputShare {
    privateExtensions = ReportExtension.LIST.checkList(privateExtensions, "private_extensions");
    Octets.checkVector(payload, 1, 0xffffffffL, "payload");
  }

  /** Returns the share holding a copy of the VDAF input share. */
  public PlaintextInputShare(List<ReportExtension> privateExtensions, byte[] payload) {
    this(privateExtensions, Octets.of(payload, "payload"));
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
    ByteString payload = r.opaque(4, 1, 0xffffffffL, field + ".payload");
    return new PlaintextInputShare(ext, payload);
  }

  void write(DapWriter w) {
    ReportExtension.LIST.write(w, privateExtensions);
    w.vector(4, 1, 0xffffffffL, payload);
  }

  /** Shows the payload's length only: the VDAF input share is a secret. */
  @Override
  public String toString() {
    return "PlaintextInputShare[privateExtensions=" + privateExtensions + ", " + payload.length()
        + " payload bytes]";
  }
}
