package org.priodp.vdaf;

import java.security.MessageDigest;
import java.util.List;
import org.priodp.field.FieldVector;
import org.priodp.field.PrimeField;
import org.priodp.vdaf.VdafException.Reason;
import org.priodp.vdaf.internal.Circuit;
import org.priodp.vdaf.internal.Flp;

/**
 * The aggregators' side of one Prio3 instance (VDAF draft-20, section "Verification"): each
 * aggregator expands its input share, recomputes the joint randomness and queries each proof
 * ({@code verify_init}); the verifier shares are summed and each proof decided ({@code
 * verifier_shares_to_message}); each aggregator then checks the joint randomness seed and keeps
 * its output share ({@code verify_next}). Every message is checked to fit this instance first.
 *
 * <p>{@link Prio3} checks the plain arguments (key, context, nonce, aggregator id, list sizes)
 * before it calls these. Immutable.
 */
final class Prio3Verification {
  private final PrimeField field;
  private final Circuit circuit;
  private final Flp flp;
  private final Prio3Xof xof;
  private final String name;
  private final int shares;
  private final int proofs;

  /** Verifies for the circuit of {@code name} among {@code shares} aggregators, PROOFS proofs. */
  Prio3Verification(Circuit circuit, Flp flp, Prio3Xof xof, String name, int shares, int proofs) {
    this.field = circuit.field();
    this.circuit = circuit;
    this.flp = flp;
    this.xof = xof;
    this.name = name;
    this.shares = shares;
    this.proofs = proofs;
  }

  private boolean usesJointRand() {
    return circuit.jointRandLen() > 0;
  }

  /**
   * The specification's {@code verify_init} for aggregator {@code aggId}.
   *
   * @throws VdafException if the public share or the input share does not fit
   */
  Prio3.VerifyInitResult init(byte[] verifyKey, byte[] ctx, int aggId, byte[] nonce,
      Prio3.PublicShare publicShare, Prio3.InputShare inputShare) {
    checkPublicShare(publicShare);
    checkInputShare(inputShare, aggId);
    boolean jr = usesJointRand();
    int w = field.words();

    long[] measShare;
    long[] proofsShare;
    if (aggId == 0) {
      measShare = inputShare.measShare;
      proofsShare = inputShare.proofsShare;
    } else {
      measShare = xof.helperMeasShare(ctx, aggId, inputShare.share);
      proofsShare = xof.helperProofsShare(ctx, aggId, inputShare.share);
    }
    long[] outShare = circuit.truncate(measShare);

    byte[] correctedJointRandSeed = null;
    byte[] jointRandPart = null;
    long[] jointRands = new long[0];
    if (jr) {
      jointRandPart = xof.jointRandPart(ctx, aggId, inputShare.blind, measShare, nonce);
      byte[][] parts = publicShare.jointRandParts.clone();
      parts[aggId] = jointRandPart;
      correctedJointRandSeed = xof.jointRandSeed(ctx, parts);
      jointRands = xof.jointRands(ctx, correctedJointRandSeed);
    }

    long[] queryRands = xof.queryRands(verifyKey, ctx, nonce);
    int proofLen = circuit.proofLen();
    int queryRandLen = circuit.queryRandLen();
    int jointRandLen = circuit.jointRandLen();
    int verifierLen = circuit.verifierLen();
    long[] verifiersShare = field.newArray(verifierLen * proofs);
    for (int i = 0; i < proofs; i++) {
      long[] proofShare = Prio3Xof.slice(field, proofsShare, i * proofLen, proofLen);
      long[] queryRand = Prio3Xof.slice(field, queryRands, i * queryRandLen, queryRandLen);
      long[] jointRand = Prio3Xof.slice(field, jointRands, i * jointRandLen, jointRandLen);
      long[] verifier = flp.query(measShare, proofShare, queryRand, jointRand, shares);
      System.arraycopy(verifier, 0, verifiersShare, i * verifierLen * w, verifierLen * w);
    }
    return new Prio3.VerifyInitResult(
        new Prio3.VerifyState(field, outShare, correctedJointRandSeed),
        new Prio3.VerifierShare(field, verifiersShare, jointRandPart));
  }

  /**
   * The specification's {@code verifier_shares_to_message}, for one verifier share per
   * aggregator.
   *
   * @throws VdafException (PROOF_REJECTED) if a proof is rejected, or if a share does not fit
   */
  Prio3.VerifierMessage toMessage(byte[] ctx, List<Prio3.VerifierShare> verifierShares) {
    boolean jr = usesJointRand();
    int verifierLen = circuit.verifierLen();
    long[] verifiers = field.newArray(verifierLen * proofs);
    byte[][] parts = new byte[jr ? shares : 0][];
    for (int i = 0; i < shares; i++) {
      Prio3.VerifierShare vs = verifierShares.get(i);
      checkVerifierShare(vs, i);
      field.addVec(verifiers, vs.verifiersShare, verifiers, verifierLen * proofs);
      if (jr) {
        parts[i] = vs.jointRandPart;
      }
    }
    for (int i = 0; i < proofs; i++) {
      if (!flp.decide(Prio3Xof.slice(field, verifiers, i * verifierLen, verifierLen))) {
        throw new VdafException(
            Reason.PROOF_REJECTED, "proof " + i + " of " + proofs + " failed the verifier check");
      }
    }
    return new Prio3.VerifierMessage(jr ? xof.jointRandSeed(ctx, parts) : null);
  }

  /**
   * The specification's {@code verify_next}, for a non-null state and message.
   *
   * @throws VdafException (JOINT_RAND_MISMATCH) if the seeds differ, or if the state does not
   *     belong to this instance
   */
  FieldVector next(Prio3.VerifyState state, Prio3.VerifierMessage verifierMessage) {
    if (state.field != field || field.length(state.outShare) != circuit.outputLen()
        || (state.correctedJointRandSeed != null) != usesJointRand()) {
      throw new VdafException(Reason.INVALID_ARGUMENT, "verify state does not belong to " + name);
    }
    byte[] seed = verifierMessage.jointRandSeed;
    byte[] corrected = state.correctedJointRandSeed;
    boolean equal =
        seed == null ? corrected == null : corrected != null && MessageDigest.isEqual(seed, corrected);
    if (!equal) {
      throw new VdafException(Reason.JOINT_RAND_MISMATCH, "joint randomness check failed");
    }
    return FieldVector.ofWords(field, state.outShare);
  }

  private void checkPublicShare(Prio3.PublicShare ps) {
    if (ps == null) {
      throw new VdafException(Reason.INVALID_ARGUMENT, "public share is null");
    }
    if (ps.jointRandParts.length != (usesJointRand() ? shares : 0)) {
      throw new VdafException(
          Reason.MALFORMED_MESSAGE, "public share does not hold one part per aggregator");
    }
  }

  private void checkInputShare(Prio3.InputShare s, int aggId) {
    if (s == null) {
      throw new VdafException(Reason.INVALID_ARGUMENT, "input share is null");
    }
    boolean ok =
        s.field == field
            && (s.aggregatorId == 0) == (aggId == 0)
            && (s.blind != null) == usesJointRand();
    if (ok && aggId == 0) {
      ok = field.length(s.measShare) == circuit.measLen()
          && field.length(s.proofsShare) == circuit.proofLen() * proofs;
    }
    if (!ok) {
      throw new VdafException(
          Reason.MALFORMED_MESSAGE, "input share does not fit " + name + " for aggregator " + aggId);
    }
  }

  private void checkVerifierShare(Prio3.VerifierShare vs, int i) {
    if (vs == null) {
      throw new VdafException(Reason.INVALID_ARGUMENT, "verifier share " + i + " is null");
    }
    if (vs.field != field
        || field.length(vs.verifiersShare) != circuit.verifierLen() * proofs
        || (vs.jointRandPart != null) != usesJointRand()) {
      throw new VdafException(
          Reason.MALFORMED_MESSAGE, "verifier share " + i + " does not fit " + name);
    }
  }
}
