package org.priodp.aggregator.dap;

import org.priodp.aggregator.dap.internal.CodeTable;
import org.priodp.aggregator.dap.internal.DapReader;
import org.priodp.aggregator.dap.internal.DapWriter;
import org.priodp.aggregator.dap.internal.Decoding;
import org.priodp.aggregator.dap.internal.Octets;

/**
 * A message of the VDAF ping-pong topology, {@code struct { MessageType type; select
 * (Message.type) { case initialize: opaque verifier_share<0..2^32-1>; case continue: opaque
 * verifier_message<0..2^32-1>; opaque verifier_share<0..2^32-1>; case finish: opaque
 * verifier_message<0..2^32-1>; }; } Message} with {@code enum { initialize(0), continue(1),
 * finish(2), (255) } MessageType} (VDAF-20 "The Ping-Pong Topology (Only Two Aggregators)").
 * DAP-18 carries it as the payload of VerifyInit, VerifyResp (continue) and VerifyContinue.
 *
 * <p>VDAF-20 turns a message that does not decode into a {@code Rejected} state for that report
 * (the whole of {@code ping_pong_helper_init} and {@code ping_pong_continued} sits in a
 * {@code try}), so a caller maps {@link DapDecodeException} from {@link #decode} to the report
 * error {@code vdaf_verify_error}, not to a failed aggregation job. The verifier share and message
 * stay opaque here; the VDAF decodes them.
 */
public sealed interface PingPongMessage
    permits PingPongMessage.Initialize, PingPongMessage.Continue, PingPongMessage.Finish {

  /** The MessageType code points. */
  enum Type {
    INITIALIZE(0),
    CONTINUE(1),
    FINISH(2);

    private static final CodeTable<Type> CODES =
        CodeTable.of(values(), Type::code, "ping-pong MessageType");

    private final int code;

    Type(int code) {
      this.code = code;
    }

    /** Returns the uint8 code point. */
    public int code() {
      return code;
    }

    /** Returns the type with this code point or throws {@link DapDecodeException} naming the field. */
    public static Type fromCode(int code, String field) {
      return CODES.fromCode(code, field);
    }
  }

  /** Returns the variant's type. */
  Type type();

  /** Returns the encoding. */
  default byte[] encode() {
    DapWriter w = new DapWriter().u8(type().code());
    if (this instanceof Initialize i) {
      w.vector(4, 0, 0xffffffffL, i.verifierShare());
    } else if (this instanceof Continue c) {
      w.vector(4, 0, 0xffffffffL, c.verifierMessage()).vector(4, 0, 0xffffffffL, c.verifierShare());
    } else {
      w.vector(4, 0, 0xffffffffL, ((Finish) this).verifierMessage());
    }
    return w.toByteArray();
  }

  /** Decodes one message with nothing after it; throws only {@link DapDecodeException}. */
  static PingPongMessage decode(byte[] encoded) {
    return Decoding.decodeAll(encoded, "PingPongMessage", r -> read(r, "ping_pong_message"));
  }

  private static PingPongMessage read(DapReader r, String field) {
    Type type = Type.fromCode(r.u8(field + ".type"), field + ".type");
    return switch (type) {
      case INITIALIZE -> new Initialize(r.opaque(4, 0, 0xffffffffL, field + ".verifier_share"));
      case CONTINUE -> {
        ByteString message = r.opaque(4, 0, 0xffffffffL, field + ".verifier_message");
        yield new Continue(message, r.opaque(4, 0, 0xffffffffL, field + ".verifier_share"));
      }
      case FINISH -> new Finish(r.opaque(4, 0, 0xffffffffL, field + ".verifier_message"));
    };
  }

  /** The Leader's first message: its encoded verifier share. */
  record Initialize(ByteString verifierShare) implements PingPongMessage {
    /** Validates the share. */
    public Initialize {
      Octets.checkVector(verifierShare, 0, 0xffffffffL, "verifier_share");
    }

    /** Returns the message holding a copy of {@code verifierShare}. */
    public Initialize(byte[] verifierShare) {
      this(Octets.of(verifierShare, "verifier_share"));
    }

    @Override
    public Type type() {
      return Type.INITIALIZE;
    }
  }

  /** A middle message: this round's verifier message and the sender's next verifier share. */
  record Continue(ByteString verifierMessage, ByteString verifierShare) implements PingPongMessage {
    /** Validates the fields. */
    public Continue {
      Octets.checkVector(verifierMessage, 0, 0xffffffffL, "verifier_message");
      Octets.checkVector(verifierShare, 0, 0xffffffffL, "verifier_share");
    }

    /** Returns the message holding copies of the arrays. */
    public Continue(byte[] verifierMessage, byte[] verifierShare) {
      this(Octets.of(verifierMessage, "verifier_message"), Octets.of(verifierShare, "verifier_share"));
    }

    @Override
    public Type type() {
      return Type.CONTINUE;
    }
  }

  /** The last message: the final verifier message. */
  record Finish(ByteString verifierMessage) implements PingPongMessage {
    /** Validates the message. */
    public Finish {
      Octets.checkVector(verifierMessage, 0, 0xffffffffL, "verifier_message");
    }

    /** Returns the message holding a copy of {@code verifierMessage}. */
    public Finish(byte[] verifierMessage) {
      this(Octets.of(verifierMessage, "verifier_message"));
    }

    @Override
    public Type type() {
      return Type.FINISH;
    }
  }
}
