package org.priodp.vdaf;

import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.priodp.field.DecodeException;
import org.priodp.field.FieldVector;
import org.priodp.field.PrimeField;
import org.priodp.vdaf.VdafException.Reason;
import org.priodp.vdaf.internal.Circuit;
import org.priodp.vdaf.internal.Flp;
import org.priodp.vdaf.internal.TestOnlyPrio3;

/**
 * Prio3 (VDAF draft-20, section "Prio3"): sharding a measurement into input shares, the one
 * round of verification by the aggregators, aggregation and unsharding, with every message
 * encoding of section "Message Serialization".
 *
 * <p>An instance is immutable and thread-safe. It is built from a {@link Prio3Variant} and the
 * number of aggregators (SHARES, 2 by default). Measurements are lists of integers: one element
 * for Prio3Count (0 or 1), Prio3Sum (0..max_measurement) and Prio3Histogram (the bucket index);
 * {@code length} elements for Prio3SumVec, Prio3MultihotCountVec (0 or 1 each) and
 * Prio3L1BoundSum (draft-ietf-ppm-l1-bound-sum-02: integers >= 0 whose sum is at most
 * max_value).
 *
 * <p>Every operation checks its arguments and messages; on bad input it throws {@link
 * VdafException} and nothing else.
 *
 * <p>This class is the API: it checks the arguments, aggregates, decodes, and holds the
 * messages. The work follows the specification's sections in package-private classes: {@code
 * Prio3Sharding} (the Client's side), {@code Prio3Verification} (the aggregators' side) and
 * {@code Prio3Xof} (the auxiliary functions both use).
 */
public final class Prio3 {

  /** The nonce size in bytes (NONCE_SIZE). */
  public static final int NONCE_SIZE = 16;

  /** The verification key size in bytes (VERIFY_KEY_SIZE = XofTurboShake128.SEED_SIZE). */
  public static final int VERIFY_KEY_SIZE = XofTurboShake128.SEED_SIZE;

  /** The document version used in domain separation tags (VERSION; draft-20 uses 18). */
  public static final int VERSION = 18;

  /** The longest application context string: a domain separation tag holds at most 65535 bytes. */
  public static final int MAX_CTX_LENGTH = XofTurboShake128.MAX_DST_LENGTH - 8;

  private static final int SEED = XofTurboShake128.SEED_SIZE;

  private final Prio3Variant variant;
  private final long algorithmId;
  private final String name;
  private final int shares;
  private final int proofs;
  private final Circuit circuit;
  private final Prio3Sharding sharding;
  private final Prio3Verification verification;
  private final PrimeField field;

  /**
   * Creates Prio3 for a variant and two aggregators.
   *
   * @throws VdafException if the variant is null
   */
  public Prio3(Prio3Variant variant) {
    this(variant, 2);
  }

  /**
   * Creates Prio3 for a variant and {@code shares} aggregators.
   *
   * @throws VdafException if the variant is null or shares is outside [2, 255]
   */
  public Prio3(Prio3Variant variant, int shares) {
    this(
        requireVariant(variant),
        variant.circuit(),
        variant.algorithm().id(),
        variant.algorithm().specName(),
        variant.proofs(),
        shares);
  }

  private Prio3(
      Prio3Variant variant, Circuit circuit, long id, String name, int proofs, int shares) {
    if (shares < 2 || shares > 255) {
      throw new VdafException(Reason.INVALID_ARGUMENT, "shares must be in [2, 255], got " + shares);
    }
    this.variant = variant;
    this.circuit = circuit;
    Flp flp = new Flp(circuit);
    Prio3Xof xof = new Prio3Xof(circuit, id, proofs);
    this.sharding = new Prio3Sharding(circuit, flp, xof, shares, proofs);
    this.verification = new Prio3Verification(circuit, flp, xof, name, shares, proofs);
    this.field = circuit.field();
    this.algorithmId = id;
    this.name = name;
    this.proofs = proofs;
    this.shares = shares;
  }

  private static Prio3Variant requireVariant(Prio3Variant variant) {
    if (variant == null) {
      throw new VdafException(Reason.INVALID_ARGUMENT, "variant is null");
    }
    return variant;
  }

  static {
    // The one way to build Prio3 on a circuit that is no variant of the specification: the
    // test-only circuits of the official vectors, built by the unexported internal package.
    TestOnlyPrio3.register((circuit, id, name, proofs, shares) -> new Prio3(null, circuit, id, name, proofs, shares));
  }

  // ------------------------------------------------------------------ parameters

  /**
   * Returns the variant.
   *
   * @throws IllegalStateException for a test-only circuit of the official vectors ({@code
   *     Prio3HigherDegree}), which is no variant of the specification; such an instance can only
   *     be built through the unexported {@code org.priodp.vdaf.internal} package
   */
  public Prio3Variant variant() {
    if (variant == null) {
      throw new IllegalStateException(name + " is a test-only circuit of the official test vectors,"
          + " not a Prio3 variant");
    }
    return variant;
  }

  /** Returns the name the specification and the test vectors use, e.g. "Prio3Histogram". */
  public String name() {
    return name;
  }

  /** Returns the 32-bit algorithm id (VDAF.ID) as an unsigned value. */
  public long algorithmId() {
    return algorithmId;
  }

  /** Returns the number of aggregators (SHARES). */
  public int shares() {
    return shares;
  }

  /** Returns the number of proofs (PROOFS). */
  public int proofs() {
    return proofs;
  }

  /** Returns the field. */
  public PrimeField field() {
    return field;
  }

  /** Returns true if the FLP uses joint randomness (JOINT_RAND_LEN > 0). */
  public boolean usesJointRand() {
    return circuit.jointRandLen() > 0;
  }

  /** Returns the number of random bytes sharding consumes (RAND_SIZE). */
  public int randSize() {
    return SEED * shares * (usesJointRand() ? 2 : 1);
  }

  /** Returns the length of the encoded measurement (MEAS_LEN). */
  public int measurementLength() {
    return circuit.measLen();
  }

  /** Returns the length of output and aggregate shares (OUTPUT_LEN). */
  public int outputLength() {
    return circuit.outputLen();
  }

  /** Returns the length of one proof (PROOF_LEN). */
  public int proofLength() {
    return circuit.proofLen();
  }

  /** Returns the length of one verifier (VERIFIER_LEN). */
  public int verifierLength() {
    return circuit.verifierLen();
  }

  // ------------------------------------------------------------------ sharding

  /** The output of {@link #shard}: the public share and one input share per aggregator. */
  public record ShardResult(PublicShare publicShare, List<InputShare> inputShares) {
    /** Copies the list. */
    public ShardResult {
      inputShares = List.copyOf(inputShares);
    }
  }

  /**
   * Shards a measurement with randomness drawn from {@code random} (section "Sharding").
   *
   * @throws VdafException on a bad measurement, nonce or context
   */
  public ShardResult shard(
      byte[] ctx, List<BigInteger> measurement, byte[] nonce, SecureRandom random) {
    if (random == null) {
      throw new VdafException(Reason.INVALID_ARGUMENT, "random is null");
    }
    byte[] rand = new byte[randSize()];
    random.nextBytes(rand);
    return shard(ctx, measurement, nonce, rand);
  }

  /**
   * Shards a measurement deterministically from {@code rand} of {@link #randSize()} bytes
   * (section "Sharding", the specification's {@code shard}).
   *
   * @throws VdafException on a bad measurement, nonce, rand or context
   */
  public ShardResult shard(byte[] ctx, List<BigInteger> measurement, byte[] nonce, byte[] rand) {
    checkCtx(ctx);
    checkLength("nonce", nonce, NONCE_SIZE);
    checkLength("rand", rand, randSize());
    return sharding.shard(ctx, measurement, nonce, rand);
  }

  // ------------------------------------------------------------------ verification

  /** The output of {@link #verifyInit}: the aggregator's state and its verifier share. */
  public record VerifyInitResult(VerifyState state, VerifierShare verifierShare) {}

  /**
   * Starts verification of one report by aggregator {@code aggId} (section "Verification", the
   * specification's {@code verify_init}): expands the input share, recomputes the joint
   * randomness and queries each proof.
   *
   * @throws VdafException on a bad key, nonce, context, aggregator id or message
   */
  public VerifyInitResult verifyInit(
      byte[] verifyKey,
      byte[] ctx,
      int aggId,
      byte[] nonce,
      PublicShare publicShare,
      InputShare inputShare) {
    checkLength("verify key", verifyKey, VERIFY_KEY_SIZE);
    checkCtx(ctx);
    checkLength("nonce", nonce, NONCE_SIZE);
    checkAggId(aggId);
    return verification.init(verifyKey, ctx, aggId, nonce, publicShare, inputShare);
  }

  /**
   * Combines the verifier shares of all aggregators into the verifier message (the
   * specification's {@code verifier_shares_to_message}): decides each proof and, with joint
   * randomness, derives the joint randomness seed from the aggregators' parts.
   *
   * @throws VdafException (PROOF_REJECTED) if a proof is rejected, or on bad messages
   */
  public VerifierMessage verifierSharesToMessage(byte[] ctx, List<VerifierShare> verifierShares) {
    checkCtx(ctx);
    if (verifierShares == null || verifierShares.size() != shares) {
      throw new VdafException(
          Reason.INVALID_ARGUMENT,
          "need " + shares + " verifier shares, got "
              + (verifierShares == null ? "null" : verifierShares.size()));
    }
    return verification.toMessage(ctx, verifierShares);
  }

  /**
   * Finishes verification (the specification's {@code verify_next}): checks that the joint
   * randomness seed of the verifier message equals the one this aggregator computed, and returns
   * the output share.
   *
   * @throws VdafException (JOINT_RAND_MISMATCH) if the seeds differ, or on bad arguments
   */
  public FieldVector verifyNext(VerifyState state, VerifierMessage verifierMessage) {
    if (state == null || verifierMessage == null) {
      throw new VdafException(Reason.INVALID_ARGUMENT, "verify state and message must be non-null");
    }
    return verification.next(state, verifierMessage);
  }

  // ------------------------------------------------------------------ aggregation

  /**
   * Sums output shares into an aggregate share (the specification's {@code agg_init} and {@code
   * agg_update}); an empty list gives zeros.
   *
   * @throws VdafException if a share has the wrong field or length
   */
  public FieldVector aggregate(List<FieldVector> outShares) {
    return sum(outShares, "output share");
  }

  /**
   * Merges aggregate shares (the specification's {@code merge}).
   *
   * @throws VdafException if a share has the wrong field or length
   */
  public FieldVector merge(List<FieldVector> aggShares) {
    return sum(aggShares, "aggregate share");
  }

  /**
   * Unshards aggregate shares into the aggregate result (section "Unsharding"): one integer in
   * [0, p) per output element (one for Count and Sum).
   *
   * @throws VdafException if a share has the wrong field or length
   */
  public List<BigInteger> unshard(List<FieldVector> aggShares, long numMeasurements) {
    if (aggShares == null || aggShares.size() != shares) {
      throw new VdafException(
          Reason.INVALID_ARGUMENT,
          "need " + shares + " aggregate shares, got " + (aggShares == null ? "null" : aggShares.size()));
    }
    return circuit.decode(merge(aggShares).toWords(), numMeasurements);
  }

  private FieldVector sum(List<FieldVector> vectors, String what) {
    if (vectors == null) {
      throw new VdafException(Reason.INVALID_ARGUMENT, what + "s are null");
    }
    int n = circuit.outputLen();
    long[] acc = field.newArray(n);
    for (FieldVector v : vectors) {
      if (v == null || v.field() != field || v.length() != n) {
        throw new VdafException(
            Reason.INVALID_ARGUMENT, what + " must be " + n + " " + field.name() + " elements");
      }
      field.addVec(acc, v.toWords(), acc, n);
    }
    return FieldVector.ofWords(field, acc);
  }

  // ------------------------------------------------------------------ decoding

  /**
   * Decodes a public share (section "Public Share").
   *
   * @throws VdafException (MALFORMED_MESSAGE) on a wrong length
   */
  public PublicShare decodePublicShare(byte[] encoded) {
    int n = usesJointRand() ? shares : 0;
    checkMessageLength("public share", encoded, n * SEED);
    byte[][] parts = new byte[n][];
    for (int i = 0; i < n; i++) {
      parts[i] = Arrays.copyOfRange(encoded, i * SEED, (i + 1) * SEED);
    }
    return new PublicShare(parts);
  }

  /**
   * Decodes the input share of aggregator {@code aggId} (section "Input Share").
   *
   * @throws VdafException (MALFORMED_MESSAGE) on a wrong length or non-canonical element, or
   *     (INVALID_ARGUMENT) on a bad aggregator id
   */
  public InputShare decodeInputShare(int aggId, byte[] encoded) {
    checkAggId(aggId);
    boolean jr = usesJointRand();
    int blindLen = jr ? SEED : 0;
    int fs = field.encodedSize();
    if (aggId == 0) {
      int measLen = circuit.measLen();
      int proofsLen = circuit.proofLen() * proofs;
      checkMessageLength("leader input share", encoded, (measLen + proofsLen) * fs + blindLen);
      long[] meas = decodeField("leader measurement share", encoded, 0, measLen);
      long[] proofsShare = decodeField("leader proofs share", encoded, measLen * fs, proofsLen);
      byte[] blind = jr ? Arrays.copyOfRange(encoded, encoded.length - SEED, encoded.length) : null;
      return new InputShare(field, 0, meas, proofsShare, null, blind);
    }
    checkMessageLength("helper input share", encoded, SEED + blindLen);
    byte[] share = Arrays.copyOf(encoded, SEED);
    byte[] blind = jr ? Arrays.copyOfRange(encoded, SEED, 2 * SEED) : null;
    return new InputShare(field, aggId, null, null, share, blind);
  }

  /**
   * Decodes a verifier share (section "Verifier Share").
   *
   * @throws VdafException (MALFORMED_MESSAGE) on a wrong length or non-canonical element
   */
  public VerifierShare decodeVerifierShare(byte[] encoded) {
    int n = circuit.verifierLen() * proofs;
    int fs = field.encodedSize();
    boolean jr = usesJointRand();
    checkMessageLength("verifier share", encoded, n * fs + (jr ? SEED : 0));
    long[] verifiers = decodeField("verifier share", encoded, 0, n);
    byte[] part = jr ? Arrays.copyOfRange(encoded, n * fs, n * fs + SEED) : null;
    return new VerifierShare(field, verifiers, part);
  }

  /**
   * Decodes a verifier message (section "Verifier Message").
   *
   * @throws VdafException (MALFORMED_MESSAGE) on a wrong length
   */
  public VerifierMessage decodeVerifierMessage(byte[] encoded) {
    boolean jr = usesJointRand();
    checkMessageLength("verifier message", encoded, jr ? SEED : 0);
    return new VerifierMessage(jr ? encoded.clone() : null);
  }

  /**
   * Decodes an output share or aggregate share (section "Aggregation"): OUTPUT_LEN elements.
   *
   * @throws VdafException (MALFORMED_MESSAGE) on a wrong length or non-canonical element
   */
  public FieldVector decodeAggregateShare(byte[] encoded) {
    int n = circuit.outputLen();
    checkMessageLength("aggregate share", encoded, n * field.encodedSize());
    return FieldVector.ofWords(field, decodeField("aggregate share", encoded, 0, n));
  }

  // ------------------------------------------------------------------ messages

  /** The public share: the joint randomness parts, or nothing without joint randomness. */
  public static final class PublicShare {
    final byte[][] jointRandParts;

    PublicShare(byte[][] jointRandParts) {
      this.jointRandParts = jointRandParts;
    }

    /** Returns copies of the joint randomness parts (empty without joint randomness). */
    public List<byte[]> jointRandParts() {
      List<byte[]> out = new ArrayList<>(jointRandParts.length);
      for (byte[] p : jointRandParts) {
        out.add(p.clone());
      }
      return Collections.unmodifiableList(out);
    }

    /** Returns the encoding: the concatenated parts. */
    public byte[] encode() {
      byte[] out = new byte[jointRandParts.length * SEED];
      for (int i = 0; i < jointRandParts.length; i++) {
        System.arraycopy(jointRandParts[i], 0, out, i * SEED, SEED);
      }
      return out;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof PublicShare p && Arrays.equals(encode(), p.encode());
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(encode());
    }
  }

  /**
   * An input share: the leader's holds its measurement share and proofs share, a helper's the
   * seed they are expanded from; with joint randomness each also holds a blind.
   */
  public static final class InputShare {
    final PrimeField field;
    final int aggregatorId;
    final long[] measShare;
    final long[] proofsShare;
    final byte[] share;
    final byte[] blind;

    InputShare(
        PrimeField field,
        int aggregatorId,
        long[] measShare,
        long[] proofsShare,
        byte[] share,
        byte[] blind) {
      this.field = field;
      this.aggregatorId = aggregatorId;
      this.measShare = measShare;
      this.proofsShare = proofsShare;
      this.share = share;
      this.blind = blind;
    }

    /** Returns the id of the aggregator the share is for (0 is the leader). */
    public int aggregatorId() {
      return aggregatorId;
    }

    /** Returns the leader's measurement share; empty for a helper's share. */
    public Optional<FieldVector> measurementShare() {
      return measShare == null ? Optional.empty() : Optional.of(FieldVector.ofWords(field, measShare));
    }

    /** Returns the encoding (Prio3LeaderShare or Prio3HelperShare, with the blind if any). */
    public byte[] encode() {
      int blindLen = blind == null ? 0 : SEED;
      byte[] out;
      int off;
      if (aggregatorId == 0) {
        int fs = field.encodedSize();
        int m = field.length(measShare);
        int p = field.length(proofsShare);
        out = new byte[(m + p) * fs + blindLen];
        field.encode(measShare, m, out, 0);
        field.encode(proofsShare, p, out, m * fs);
        off = (m + p) * fs;
      } else {
        out = new byte[SEED + blindLen];
        System.arraycopy(share, 0, out, 0, SEED);
        off = SEED;
      }
      if (blind != null) {
        System.arraycopy(blind, 0, out, off, SEED);
      }
      return out;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof InputShare s
          && s.aggregatorId == aggregatorId
          && s.field == field
          && Arrays.equals(encode(), s.encode());
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(encode());
    }
  }

  /** A verifier share: the aggregator's share of each verifier and its joint randomness part. */
  public static final class VerifierShare {
    final PrimeField field;
    final long[] verifiersShare;
    final byte[] jointRandPart;

    VerifierShare(PrimeField field, long[] verifiersShare, byte[] jointRandPart) {
      this.field = field;
      this.verifiersShare = verifiersShare;
      this.jointRandPart = jointRandPart;
    }

    /** Returns the encoding (Prio3VerifierShare, with the joint randomness part if any). */
    public byte[] encode() {
      int n = field.length(verifiersShare);
      int fs = field.encodedSize();
      byte[] out = new byte[n * fs + (jointRandPart == null ? 0 : SEED)];
      field.encode(verifiersShare, n, out, 0);
      if (jointRandPart != null) {
        System.arraycopy(jointRandPart, 0, out, n * fs, SEED);
      }
      return out;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof VerifierShare s && s.field == field && Arrays.equals(encode(), s.encode());
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(encode());
    }
  }

  /** The verifier message: the joint randomness seed, or nothing without joint randomness. */
  public static final class VerifierMessage {
    final byte[] jointRandSeed;

    VerifierMessage(byte[] jointRandSeed) {
      this.jointRandSeed = jointRandSeed;
    }

    /** Returns the encoding: the seed, or the empty string. */
    public byte[] encode() {
      return jointRandSeed == null ? new byte[0] : jointRandSeed.clone();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof VerifierMessage m && Arrays.equals(encode(), m.encode());
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(encode());
    }
  }

  /**
   * An aggregator's verification state between {@link #verifyInit} and {@link #verifyNext}: the
   * output share and the joint randomness seed it computed.
   */
  public static final class VerifyState {
    final PrimeField field;
    final long[] outShare;
    final byte[] correctedJointRandSeed;

    VerifyState(PrimeField field, long[] outShare, byte[] correctedJointRandSeed) {
      this.field = field;
      this.outShare = outShare;
      this.correctedJointRandSeed = correctedJointRandSeed;
    }
  }


  // ------------------------------------------------------------------ checks

  private static void checkCtx(byte[] ctx) {
    if (ctx == null) {
      throw new VdafException(Reason.INVALID_ARGUMENT, "application context is null");
    }
    if (ctx.length > MAX_CTX_LENGTH) {
      throw new VdafException(
          Reason.INVALID_ARGUMENT,
          "application context must be at most " + MAX_CTX_LENGTH + " bytes, got " + ctx.length);
    }
  }

  private static void checkLength(String what, byte[] b, int expected) {
    if (b == null) {
      throw new VdafException(Reason.INVALID_ARGUMENT, what + " is null");
    }
    if (b.length != expected) {
      throw new VdafException(
          Reason.INVALID_ARGUMENT, what + " must be " + expected + " bytes, got " + b.length);
    }
  }

  private static void checkMessageLength(String what, byte[] b, int expected) {
    if (b == null) {
      throw new VdafException(Reason.MALFORMED_MESSAGE, what + " is null");
    }
    if (b.length != expected) {
      throw new VdafException(
          Reason.MALFORMED_MESSAGE, what + " must be " + expected + " bytes, got " + b.length);
    }
  }

  private long[] decodeField(String what, byte[] in, int off, int count) {
    try {
      return field.decode(in, off, count * field.encodedSize(), count);
    } catch (DecodeException e) {
      throw new VdafException(Reason.MALFORMED_MESSAGE, what + ": " + e.getMessage(), e);
    }
  }

  private void checkAggId(int aggId) {
    if (aggId < 0 || aggId >= shares) {
      throw new VdafException(
          Reason.INVALID_ARGUMENT, "aggregator id must be in [0, " + shares + "), got " + aggId);
    }
  }
}
