package org.priodp.aggregator.dap;

import java.util.Objects;
import org.priodp.aggregator.dap.internal.DapReader;
import org.priodp.aggregator.dap.internal.DapWriter;
import org.priodp.aggregator.dap.internal.Decoding;
import org.priodp.aggregator.dap.internal.Octets;

/**
 * The Helper's verification response for one report, {@code struct { ReportID report_id;
 * VerifyRespType verify_resp_type; select (VerifyResp.verify_resp_type) { case continue: opaque
 * payload<1..2^32-1>; case finish: Empty; case reject: ReportError report_error; }; } VerifyResp}
 * (DAP-18 "Helper Initialization"; PrepareResp before DAP-17). The variant is a {@link Result}:
 * {@link Continue} with the Helper's outbound ping-pong message, {@link Finish} (no payload) or
 * {@link Reject} with a registered {@link ReportError}, whose code point depends on the
 * {@link DapVersion}.
 */
public record VerifyResp(ReportId reportId, VerifyResp.Result result) {
  /** Rejects null fields. */
  public VerifyResp {
    Objects.requireNonNull(reportId, "report_id");
    Objects.requireNonNull(result, "result");
  }

  /** Returns a continue response carrying the encoded ping-pong message. */
  public static VerifyResp continueWith(ReportId reportId, byte[] payload) {
    return new VerifyResp(reportId, new Continue(payload));
  }

  /** Returns a finish response. */
  public static VerifyResp finish(ReportId reportId) {
    return new VerifyResp(reportId, new Finish());
  }

  /** Returns a reject response with the report error. */
  public static VerifyResp reject(ReportId reportId, ReportError error) {
    return new VerifyResp(reportId, new Reject(error));
  }

  /** Returns the verify_resp_type of the result. */
  public VerifyRespType type() {
    return result.type();
  }

  /** Returns the encoding, with the report error's code point in {@code version}. */
  public byte[] encode(DapVersion version) {
    DapWriter w = new DapWriter();
    write(w, version);
    return w.toByteArray();
  }

  /** Decodes one VerifyResp with nothing after it, reading report errors as {@code version}. */
  public static VerifyResp decode(byte[] encoded, DapVersion version) {
    return Decoding.decodeAll(encoded, "VerifyResp", r -> read(r, "verify_resp", version));
  }

  static VerifyResp read(DapReader r, String field, DapVersion version) {
    ReportId id = ReportId.read(r, field + ".report_id");
    VerifyRespType type = VerifyRespType.fromCode(r.u8(field + ".verify_resp_type"),
        field + ".verify_resp_type");
    Result result = switch (type) {
      case CONTINUE -> new Continue(r.opaque(4, 1, 0xffffffffL, field + ".payload"));
      case FINISH -> new Finish();
      case REJECT -> new Reject(version.reportError(r.u8(field + ".report_error"),
          field + ".report_error"));
    };
    return new VerifyResp(id, result);
  }

  void write(DapWriter w, DapVersion version) {
    reportId.write(w);
    w.u8(result.type().code());
    if (result instanceof Continue c) {
      w.vector(4, 1, 0xffffffffL, c.payload);
    } else if (result instanceof Reject j) {
      w.u8(version.code(j.reportError));
    }
  }

  /** The body of a VerifyResp, one variant per {@link VerifyRespType}. */
  public sealed interface Result permits Continue, Finish, Reject {
    /** Returns the verify_resp_type of this variant. */
    VerifyRespType type();
  }

  /** {@code continue}: the Helper's outbound ping-pong message, {@code opaque payload<1..2^32-1>}. */
  public record Continue(ByteString payload) implements Result {
    /** Validates the payload. */
    public Continue {
      Octets.checkVector(payload, 1, 0xffffffffL, "payload");
    }

    /** Returns the variant holding a copy of {@code payload}. */
    public Continue(byte[] payload) {
      this(Octets.of(payload, "payload"));
    }

    @Override
    public VerifyRespType type() {
      return VerifyRespType.CONTINUE;
    }
  }

  /** {@code finish}: verification is complete for the Helper; the body is Empty. */
  public record Finish() implements Result {
    @Override
    public VerifyRespType type() {
      return VerifyRespType.FINISH;
    }
  }

  /** {@code reject}: the Helper rejected the report with this error. */
  public record Reject(ReportError reportError) implements Result {
    /** Rejects a null error. */
    public Reject {
      Objects.requireNonNull(reportError, "report_error");
    }

    @Override
    public VerifyRespType type() {
      return VerifyRespType.REJECT;
    }
  }
}
