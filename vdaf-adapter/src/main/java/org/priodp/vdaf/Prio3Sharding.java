package org.priodp.vdaf;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.priodp.field.PrimeField;
import org.priodp.vdaf.internal.Circuit;
import org.priodp.vdaf.internal.Flp;

/**
 * The Client's side of one Prio3 instance (VDAF draft-20, section "Sharding"): encodes the
 * measurement, splits it and its proofs into one share per aggregator (the leader's in full,
 * each helper's as a seed it expands), derives the joint randomness from every share's part and
 * proves the encoded measurement PROOFS times.
 *
 * <p>{@link Prio3#shard} checks the context, nonce and rand before it calls {@link #shard}.
 * Immutable.
 */
final class Prio3Sharding {
  private static final int SEED = XofTurboShake128.SEED_SIZE;

  private final PrimeField field;
  private final Circuit circuit;
  private final Flp flp;
  private final Prio3Xof xof;
  private final int shares;
  private final int proofs;

  /** Shards for the circuit among {@code shares} aggregators with {@code proofs} proofs. */
  Prio3Sharding(Circuit circuit, Flp flp, Prio3Xof xof, int shares, int proofs) {
    this.field = circuit.field();
    this.circuit = circuit;
    this.flp = flp;
    this.xof = xof;
    this.shares = shares;
    this.proofs = proofs;
  }

  private boolean usesJointRand() {
    return circuit.jointRandLen() > 0;
  }

  /**
   * Shards a measurement deterministically from {@code rand} (RAND_SIZE bytes: the helpers'
   * seeds, with joint randomness each followed by its blind, then the leader's blind, then the
   * prove seed), the specification's {@code shard}.
   *
   * @throws VdafException (INVALID_MEASUREMENT) if the circuit refuses the measurement
   */
  Prio3.ShardResult shard(byte[] ctx, List<BigInteger> measurement, byte[] nonce, byte[] rand) {
    long[] meas = circuit.encode(measurement);
    byte[][] seeds = new byte[rand.length / SEED][];
    for (int i = 0; i < seeds.length; i++) {
      seeds[i] = Arrays.copyOfRange(rand, i * SEED, (i + 1) * SEED);
    }
    boolean jr = usesJointRand();
    int w = field.words();
    int measLen = circuit.measLen();
    byte[][] helperShares = new byte[shares - 1][];
    byte[][] helperBlinds = new byte[shares - 1][];
    byte[] leaderBlind = null;
    byte[] proveSeed;
    if (jr) {
      for (int j = 0; j < shares - 1; j++) {
        helperShares[j] = seeds[2 * j];
        helperBlinds[j] = seeds[2 * j + 1];
      }
      leaderBlind = seeds[2 * (shares - 1)];
      proveSeed = seeds[2 * (shares - 1) + 1];
    } else {
      System.arraycopy(seeds, 0, helperShares, 0, shares - 1);
      proveSeed = seeds[shares - 1];
    }

    long[] leaderMeasShare = meas.clone();
    byte[][] jointRandParts = jr ? new byte[shares][] : new byte[0][];
    for (int j = 0; j < shares - 1; j++) {
      long[] helperMeasShare = xof.helperMeasShare(ctx, j + 1, helperShares[j]);
      field.subVec(leaderMeasShare, helperMeasShare, leaderMeasShare, measLen);
      if (jr) {
        jointRandParts[j + 1] =
            xof.jointRandPart(ctx, j + 1, helperBlinds[j], helperMeasShare, nonce);
      }
    }
    long[] jointRands = new long[0];
    if (jr) {
      jointRandParts[0] = xof.jointRandPart(ctx, 0, leaderBlind, leaderMeasShare, nonce);
      jointRands = xof.jointRands(ctx, xof.jointRandSeed(ctx, jointRandParts));
    }
    long[] proveRands = xof.proveRands(ctx, proveSeed);
    int proofLen = circuit.proofLen();
    int proveRandLen = circuit.proveRandLen();
    int jointRandLen = circuit.jointRandLen();
    long[] leaderProofsShare = field.newArray(proofLen * proofs);
    for (int i = 0; i < proofs; i++) {
      long[] proveRand = Prio3Xof.slice(field, proveRands, i * proveRandLen, proveRandLen);
      long[] jointRand = Prio3Xof.slice(field, jointRands, i * jointRandLen, jointRandLen);
      long[] proof = flp.prove(meas, proveRand, jointRand);
      System.arraycopy(proof, 0, leaderProofsShare, i * proofLen * w, proofLen * w);
    }
    for (int j = 0; j < shares - 1; j++) {
      long[] helperProofs = xof.helperProofsShare(ctx, j + 1, helperShares[j]);
      field.subVec(leaderProofsShare, helperProofs, leaderProofsShare, proofLen * proofs);
    }
    List<Prio3.InputShare> inputShares = new ArrayList<>(shares);
    inputShares.add(
        new Prio3.InputShare(field, 0, leaderMeasShare, leaderProofsShare, null, leaderBlind));
    for (int j = 0; j < shares - 1; j++) {
      byte[] blind = jr ? helperBlinds[j] : null;
      inputShares.add(new Prio3.InputShare(field, j + 1, null, null, helperShares[j], blind));
    }
    return new Prio3.ShardResult(new Prio3.PublicShare(jointRandParts), inputShares);
  }
}
