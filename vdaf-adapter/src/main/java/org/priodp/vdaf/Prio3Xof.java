package org.priodp.vdaf;

import java.util.Arrays;
import org.priodp.field.PrimeField;
import org.priodp.vdaf.internal.Circuit;

/**
 * The auxiliary functions of one Prio3 instance (VDAF draft-20, section "Auxiliary Functions"):
 * the domain separation tag and every value derived with {@link XofTurboShake128} — the helpers'
 * measurement and proofs shares expanded from their seeds, the prove, query and joint randomness
 * (PROOFS times each circuit's length), and the joint randomness parts and seed.
 *
 * <p>{@link Prio3} shards and verifies with these; it checks every argument before. Immutable.
 */
final class Prio3Xof {
  static final int USAGE_MEAS_SHARE = 1;
  static final int USAGE_PROOF_SHARE = 2;
  static final int USAGE_JOINT_RANDOMNESS = 3;
  static final int USAGE_PROVE_RANDOMNESS = 4;
  static final int USAGE_QUERY_RANDOMNESS = 5;
  static final int USAGE_JOINT_RAND_SEED = 6;
  static final int USAGE_JOINT_RAND_PART = 7;

  private static final int SEED = XofTurboShake128.SEED_SIZE;

  private final PrimeField field;
  private final Circuit circuit;
  private final long algorithmId;
  private final int proofs;

  /** Derives for the circuit of the algorithm {@code algorithmId} with {@code proofs} proofs. */
  Prio3Xof(Circuit circuit, long algorithmId, int proofs) {
    this.field = circuit.field();
    this.circuit = circuit;
    this.algorithmId = algorithmId;
    this.proofs = proofs;
  }

  /** Returns the domain separation tag: VERSION, class 0 (VDAF), algorithm id, usage, ctx. */
  byte[] dst(int usage, byte[] ctx) {
    byte[] d = new byte[8 + ctx.length];
    d[0] = (byte) Prio3.VERSION;
    d[1] = 0; // algorithm class: VDAF
    d[2] = (byte) (algorithmId >>> 24);
    d[3] = (byte) (algorithmId >>> 16);
    d[4] = (byte) (algorithmId >>> 8);
    d[5] = (byte) algorithmId;
    d[6] = (byte) (usage >>> 8);
    d[7] = (byte) usage;
    System.arraycopy(ctx, 0, d, 8, ctx.length);
    return d;
  }

  /** Returns helper {@code aggId}'s measurement share, MEAS_LEN elements, from its seed. */
  long[] helperMeasShare(byte[] ctx, int aggId, byte[] share) {
    return XofTurboShake128.expandIntoVec(
        field, share, dst(USAGE_MEAS_SHARE, ctx), new byte[] {(byte) aggId}, circuit.measLen());
  }

  /** Returns helper {@code aggId}'s share of the proofs, PROOFS * PROOF_LEN elements. */
  long[] helperProofsShare(byte[] ctx, int aggId, byte[] share) {
    return XofTurboShake128.expandIntoVec(
        field,
        share,
        dst(USAGE_PROOF_SHARE, ctx),
        new byte[] {(byte) proofs, (byte) aggId},
        circuit.proofLen() * proofs);
  }

  /** Returns the prove randomness of every proof, PROOFS * PROVE_RAND_LEN elements. */
  long[] proveRands(byte[] ctx, byte[] proveSeed) {
    return XofTurboShake128.expandIntoVec(
        field,
        proveSeed,
        dst(USAGE_PROVE_RANDOMNESS, ctx),
        new byte[] {(byte) proofs},
        circuit.proveRandLen() * proofs);
  }

  /** Returns the query randomness of every proof, PROOFS * QUERY_RAND_LEN elements. */
  long[] queryRands(byte[] verifyKey, byte[] ctx, byte[] nonce) {
    byte[] binder = new byte[1 + nonce.length];
    binder[0] = (byte) proofs;
    System.arraycopy(nonce, 0, binder, 1, nonce.length);
    return XofTurboShake128.expandIntoVec(
        field, verifyKey, dst(USAGE_QUERY_RANDOMNESS, ctx), binder, circuit.queryRandLen() * proofs);
  }

  /** Returns aggregator {@code aggId}'s joint randomness part, bound to its measurement share. */
  byte[] jointRandPart(byte[] ctx, int aggId, byte[] blind, long[] measShare, byte[] nonce) {
    byte[] prefix = new byte[1 + nonce.length];
    prefix[0] = (byte) aggId;
    System.arraycopy(nonce, 0, prefix, 1, nonce.length);
    // binder = aggId || nonce || encode(measShare); the share's words are absorbed as they are
    return XofTurboShake128.deriveSeed(blind, dst(USAGE_JOINT_RAND_PART, ctx), prefix, measShare);
  }

  /** Returns the joint randomness seed derived from every aggregator's part. */
  byte[] jointRandSeed(byte[] ctx, byte[][] parts) {
    byte[] binder = new byte[parts.length * SEED];
    for (int i = 0; i < parts.length; i++) {
      System.arraycopy(parts[i], 0, binder, i * SEED, SEED);
    }
    return XofTurboShake128.deriveSeed(new byte[SEED], dst(USAGE_JOINT_RAND_SEED, ctx), binder);
  }

  /** Returns the joint randomness of every proof, PROOFS * JOINT_RAND_LEN elements. */
  long[] jointRands(byte[] ctx, byte[] seed) {
    return XofTurboShake128.expandIntoVec(
        field,
        seed,
        dst(USAGE_JOINT_RANDOMNESS, ctx),
        new byte[] {(byte) proofs},
        circuit.jointRandLen() * proofs);
  }

  /**
   * Returns elements [from, from + len) of {@code v}: one proof's part of a vector that holds
   * PROOFS consecutive parts (randomness, proofs, verifiers). When the range is all of {@code v}
   * it returns {@code v} itself, so the result must not be modified.
   */
  static long[] slice(PrimeField field, long[] v, int from, int len) {
    int w = field.words();
    if (from == 0 && len * w == v.length) {
      return v; // the whole vector (PROOFS = 1): callers only read slices
    }
    return Arrays.copyOfRange(v, from * w, (from + len) * w);
  }
}
