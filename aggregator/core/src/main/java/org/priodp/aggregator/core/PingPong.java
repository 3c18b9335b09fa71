package org.priodp.aggregator.core;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.priodp.aggregator.dap.PingPongMessage;
import org.priodp.aggregator.dap.DapVersion;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.field.FieldVector;
import org.priodp.vdaf.Prio3;

/**
 * Moves one report through the VDAF ping-pong state machine of both aggregators (VDAF-20 "The
 * Ping-Pong Topology (Only Two Aggregators)"; DAP-18 "Leader Initialization", "Helper
 * Initialization") for Prio3, whose verification takes one round: the Leader's initialization
 * ({@code ping_pong_leader_init}) is Continued with an {@code initialize} message; the Helper's
 * ({@code ping_pong_helper_init}) on that message is FinishedWithOutbound, its output share and
 * a {@code finish} message carrying the verifier message; the Leader's continuation ({@code
 * ping_pong_leader_continued}) on that {@code finish} is Finished with its output share. Any
 * other message, or one the VDAF fails to decode or verify, is Rejected. The VDAF application
 * context is {@code "dap-NN" || task_id} of the task's {@link DapVersion} (DAP-19 "Verifying and
 * Aggregating Reports").
 * Immutable; the states are values.
 */
final class PingPong {
  private final Prio3 prio3;
  private final byte[] ctx;

  /** Creates the state machine of the reports of a task speaking {@code version}. */
  PingPong(Prio3 prio3, DapVersion version, TaskId taskId) {
    this.prio3 = Objects.requireNonNull(prio3, "prio3");
    this.ctx = version.vdafContext(taskId);
  }

  /** A report's state after a transition (VDAF-20 "Ping-Pong Topology": State). */
  sealed interface State permits Continued, FinishedWithOutbound, Finished, Rejected {}

  /** Waiting for the peer's answer to {@code outbound}, with the VDAF verification state. */
  record Continued(Prio3.VerifyState state, PingPongMessage outbound) implements State {
    /** Rejects null parts. */
    Continued {
      Objects.requireNonNull(state, "state");
      Objects.requireNonNull(outbound, "outbound");
    }
  }

  /** Done with the output share; {@code outbound} still goes to the peer. */
  record FinishedWithOutbound(FieldVector outShare, PingPongMessage outbound) implements State {
    /** Rejects null parts. */
    FinishedWithOutbound {
      Objects.requireNonNull(outShare, "outShare");
      Objects.requireNonNull(outbound, "outbound");
    }
  }

  /** Done with the output share, nothing more to send. */
  record Finished(FieldVector outShare) implements State {
    /** Rejects a null share. */
    Finished {
      Objects.requireNonNull(outShare, "outShare");
    }
  }

  /** The report is invalid (DAP's report error {@code vdaf_verify_error}). */
  record Rejected() implements State {}

  private static final Rejected REJECTED = new Rejected();

  /**
   * The Leader's initialization from its VDAF {@code verify_init} ({@code ping_pong_leader_init}):
   * Continued, sending its verifier share in an {@code initialize} message.
   */
  Continued leaderInitialized(Prio3.VerifyInitResult init) {
    return new Continued(init.state(),
        new PingPongMessage.Initialize(init.verifierShare().encode()));
  }

  /**
   * The Helper's initialization from its VDAF {@code verify_init} and the Leader's message
   * ({@code ping_pong_helper_init}): for an {@code initialize} message whose verifier share
   * combines with the Helper's into a verifier message that verifies, FinishedWithOutbound with
   * the output share and a {@code finish} message; otherwise Rejected.
   */
  State helperInitialized(Prio3.VerifyInitResult init, byte[] inbound) {
    try {
      if (!(PingPongMessage.decode(inbound) instanceof PingPongMessage.Initialize initialize)) {
        return REJECTED;
      }
      Prio3.VerifierShare leaderShare = prio3.decodeVerifierShare(
          initialize.verifierShare().toByteArray());
      Prio3.VerifierMessage message = prio3.verifierSharesToMessage(ctx,
          List.of(leaderShare, init.verifierShare()));
      FieldVector out = prio3.verifyNext(init.state(), message);
      return new FinishedWithOutbound(out, new PingPongMessage.Finish(message.encode()));
    } catch (IllegalArgumentException e) { // VdafException, DapDecodeException
      return REJECTED;
    }
  }

  /**
   * The Leader's continuation with the Helper's message ({@code ping_pong_leader_continued}):
   * for a {@code finish} message whose verifier message verifies, Finished with the output share;
   * otherwise Rejected (Prio3 has one round, so a {@code continue} message is never valid).
   */
  State leaderContinued(Continued state, byte[] inbound) {
    try {
      if (!(PingPongMessage.decode(inbound) instanceof PingPongMessage.Finish finish)) {
        return REJECTED;
      }
      return new Finished(prio3.verifyNext(state.state(),
          prio3.decodeVerifierMessage(finish.verifierMessage().toByteArray())));
    } catch (IllegalArgumentException e) { // VdafException, DapDecodeException
      return REJECTED;
    }
  }
}
