package org.priodp.vdaf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.priodp.field.FieldVector;
import org.priodp.vdaf.internal.TestOnlyPrio3;

/**
 * Round trips of Prio3 on fresh (seeded) randomness for every variant and several parameter
 * sets, tampering with each message kind, and rejection of bad arguments. The official vectors
 * run in the conformance module.
 */
class Prio3Test {
  private static final byte[] CTX = "prio3 test".getBytes(StandardCharsets.US_ASCII);
  private static byte[] seed;

  @BeforeAll
  static void seed() {
    String hex = System.getProperty("priodp.seed", "5eed000000000000000000000000000000000000000000000000000000000001");
    seed = HexFormat.of().parseHex(hex);
    System.out.println("Prio3Test seed (override with -Dpriodp.seed=<64 hex>): " + hex);
  }

  /** A deterministic byte stream for one test case. */
  private static XofTurboShake128 stream(String label) {
    return new XofTurboShake128(seed, label.getBytes(StandardCharsets.UTF_8), new byte[0]);
  }

  private static List<BigInteger> ints(long... v) {
    List<BigInteger> out = new ArrayList<>();
    for (long x : v) {
      out.add(BigInteger.valueOf(x));
    }
    return out;
  }

  private static BigInteger big(long v) {
    return BigInteger.valueOf(v);
  }

  /** A case: the VDAF and a generator of valid measurements from a byte stream. */
  record Case(String label, Prio3 prio3, Function<XofTurboShake128, List<BigInteger>> measurement) {
    @Override
    public String toString() {
      return label;
    }
  }

  private static int below(XofTurboShake128 x, int bound) {
    byte[] b = x.next(4);
    int v = ((b[0] & 0xff) << 24 | (b[1] & 0xff) << 16 | (b[2] & 0xff) << 8 | (b[3] & 0xff)) >>> 1;
    return v % bound;
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case("Count, 2 shares", new Prio3(new Prio3Variant.Count()), x -> ints(below(x, 2))),
        new Case("Count, 3 shares", new Prio3(new Prio3Variant.Count(), 3), x -> ints(below(x, 2))),
        new Case("Sum(255)", new Prio3(new Prio3Variant.Sum(big(255))), x -> ints(below(x, 256))),
        new Case("Sum(1)", new Prio3(new Prio3Variant.Sum(big(1))), x -> ints(below(x, 2))),
        new Case("Sum(1000), 3 shares", new Prio3(new Prio3Variant.Sum(big(1000)), 3), x -> ints(below(x, 1001))),
        new Case(
            "SumVec(10, 255, 9)",
            new Prio3(Prio3Variant.SumVec.of(10, big(255), 9)),
            x -> vector(x, 10, 256)),
        new Case(
            "SumVec(3, 5, 2), 4 shares",
            new Prio3(Prio3Variant.SumVec.of(3, big(5), 2), 4),
            x -> vector(x, 3, 6)),
        new Case(
            "SumVec Field64 multiproof(4, 100, 5, 3 proofs)",
            new Prio3(Prio3Variant.SumVec.field64Multiproof(4, big(100), 5, 3)),
            x -> vector(x, 4, 101)),
        new Case(
            "Histogram(4, 2)", new Prio3(new Prio3Variant.Histogram(4, 2)), x -> ints(below(x, 4))),
        new Case(
            "Histogram(100, 10), 3 shares",
            new Prio3(new Prio3Variant.Histogram(100, 10), 3),
            x -> ints(below(x, 100))),
        new Case(
            "Histogram(1, 1)", new Prio3(new Prio3Variant.Histogram(1, 1)), x -> ints(0)),
        new Case(
            "MultihotCountVec(10, 3, 4)",
            new Prio3(new Prio3Variant.MultihotCountVec(10, 3, 4)),
            x -> multihot(x, 10, 3)),
        new Case(
            "MultihotCountVec(4, 4, 1), 3 shares",
            new Prio3(new Prio3Variant.MultihotCountVec(4, 4, 1), 3),
            x -> multihot(x, 4, 4)),
        new Case(
            "L1BoundSum(10, 240, 9)",
            new Prio3(new Prio3Variant.L1BoundSum(10, big(240), 9)),
            x -> l1Bounded(x, 10, 240)),
        new Case(
            "L1BoundSum(3, 1, 1), 3 shares",
            new Prio3(new Prio3Variant.L1BoundSum(3, big(1), 1), 3),
            x -> l1Bounded(x, 3, 1)),
        new Case(
            "L1BoundSum(1, 1000, 7)",
            new Prio3(new Prio3Variant.L1BoundSum(1, big(1000), 7)),
            x -> l1Bounded(x, 1, 1000)),
        new Case("HigherDegree", TestOnlyPrio3.higherDegree(2), x -> ints(below(x, 3))));
  }

  private static List<BigInteger> vector(XofTurboShake128 x, int length, int bound) {
    List<BigInteger> out = new ArrayList<>();
    for (int i = 0; i < length; i++) {
      out.add(big(below(x, bound)));
    }
    return out;
  }

  /** A vector of {@code length} integers >= 0 whose sum is at most {@code maxValue}. */
  private static List<BigInteger> l1Bounded(XofTurboShake128 x, int length, int maxValue) {
    List<BigInteger> out = new ArrayList<>();
    int left = below(x, maxValue + 1);
    for (int i = 0; i < length; i++) {
      int v = below(x, left + 1);
      left -= v;
      out.add(big(v));
    }
    return out;
  }

  private static List<BigInteger> multihot(XofTurboShake128 x, int length, int maxWeight) {
    List<BigInteger> out = new ArrayList<>();
    int weight = 0;
    for (int i = 0; i < length; i++) {
      int bit = weight < maxWeight ? below(x, 2) : 0;
      weight += bit;
      out.add(big(bit));
    }
    return out;
  }

  /** Everything one report produces, as encoded messages. */
  record Report(byte[] nonce, byte[] publicShare, List<byte[]> inputShares) {}

  private static Report shard(Prio3 prio3, List<BigInteger> meas, XofTurboShake128 x) {
    byte[] nonce = x.next(Prio3.NONCE_SIZE);
    Prio3.ShardResult r = prio3.shard(CTX, meas, nonce, x.next(prio3.randSize()));
    List<byte[]> inputs = new ArrayList<>();
    for (Prio3.InputShare s : r.inputShares()) {
      inputs.add(s.encode());
    }
    return new Report(nonce, r.publicShare().encode(), inputs);
  }

  /** Verification by every aggregator on encoded messages, with optional tampering hooks. */
  private static List<FieldVector> verify(
      Prio3 prio3, byte[] verifyKey, Report report, Function<byte[], byte[]> tamperVerifierShare0,
      Function<byte[], byte[]> tamperMessage) {
    List<Prio3.VerifyState> states = new ArrayList<>();
    List<Prio3.VerifierShare> verifierShares = new ArrayList<>();
    for (int a = 0; a < prio3.shares(); a++) {
      Prio3.VerifyInitResult init =
          prio3.verifyInit(
              verifyKey,
              CTX,
              a,
              report.nonce(),
              prio3.decodePublicShare(report.publicShare()),
              prio3.decodeInputShare(a, report.inputShares().get(a)));
      states.add(init.state());
      byte[] vs = init.verifierShare().encode();
      if (a == 0) {
        vs = tamperVerifierShare0.apply(vs);
      }
      verifierShares.add(prio3.decodeVerifierShare(vs));
    }
    byte[] message =
        tamperMessage.apply(prio3.verifierSharesToMessage(CTX, verifierShares).encode());
    List<FieldVector> outShares = new ArrayList<>();
    for (int a = 0; a < prio3.shares(); a++) {
      outShares.add(prio3.verifyNext(states.get(a), prio3.decodeVerifierMessage(message)));
    }
    return outShares;
  }

  private static List<FieldVector> verify(Prio3 prio3, byte[] verifyKey, Report report) {
    return verify(prio3, verifyKey, report, Function.identity(), Function.identity());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void roundTripAggregatesTheMeasurements(Case c) {
    Prio3 prio3 = c.prio3();
    XofTurboShake128 x = stream("round trip " + c.label());
    byte[] verifyKey = x.next(Prio3.VERIFY_KEY_SIZE);
    int reports = 5;
    List<List<FieldVector>> outSharesByAgg = new ArrayList<>();
    for (int a = 0; a < prio3.shares(); a++) {
      outSharesByAgg.add(new ArrayList<>());
    }
    BigInteger[] expected = new BigInteger[prio3.outputLength()];
    java.util.Arrays.fill(expected, BigInteger.ZERO);
    for (int r = 0; r < reports; r++) {
      List<BigInteger> meas = c.measurement().apply(x);
      List<FieldVector> outShares = verify(prio3, verifyKey, shard(prio3, meas, x));
      for (int a = 0; a < prio3.shares(); a++) {
        outSharesByAgg.get(a).add(outShares.get(a));
      }
      addExpected(prio3, meas, expected);
    }
    List<FieldVector> aggShares = new ArrayList<>();
    for (int a = 0; a < prio3.shares(); a++) {
      FieldVector agg = prio3.aggregate(outSharesByAgg.get(a));
      // The aggregate share survives its encoding.
      assertEquals(agg, prio3.decodeAggregateShare(agg.encode()));
      aggShares.add(agg);
    }
    assertEquals(List.of(expected), prio3.unshard(aggShares, reports), c.label());
  }

  private static void addExpected(Prio3 prio3, List<BigInteger> meas, BigInteger[] expected) {
    if (prio3.algorithmId() == Prio3Algorithm.HISTOGRAM.id()) {
      int bucket = meas.get(0).intValueExact();
      expected[bucket] = expected[bucket].add(BigInteger.ONE);
    } else {
      for (int i = 0; i < expected.length; i++) {
        expected[i] = expected[i].add(meas.get(i));
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void shardingIsDeterministicAndMessagesRoundTrip(Case c) {
    Prio3 prio3 = c.prio3();
    XofTurboShake128 x = stream("determinism " + c.label());
    List<BigInteger> meas = c.measurement().apply(x);
    byte[] nonce = x.next(Prio3.NONCE_SIZE);
    byte[] rand = x.next(prio3.randSize());
    Prio3.ShardResult a = prio3.shard(CTX, meas, nonce, rand);
    Prio3.ShardResult b = prio3.shard(CTX, meas, nonce, rand);
    assertEquals(a, b);
    assertEquals(a.publicShare(), prio3.decodePublicShare(a.publicShare().encode()));
    for (int i = 0; i < prio3.shares(); i++) {
      Prio3.InputShare s = a.inputShares().get(i);
      assertEquals(i, s.aggregatorId());
      assertArrayEquals(s.encode(), prio3.decodeInputShare(i, s.encode()).encode());
    }
    // A different context changes the shares: the context is bound into every XOF call.
    Prio3.ShardResult other = prio3.shard("other".getBytes(StandardCharsets.US_ASCII), meas, nonce, rand);
    assertThrows(AssertionError.class, () -> assertArrayEquals(
        a.inputShares().get(0).encode(), other.inputShares().get(0).encode()));
  }

  private static byte[] flip(byte[] b, int index) {
    byte[] c = b.clone();
    c[index] ^= (byte) 0x5a;
    return c;
  }

  /** Byte 3 of a field element: changes the value by a multiple of 2^24, never by +-1. */
  private static int elementByte(Prio3 prio3, int element) {
    return element * prio3.field().encodedSize() + 3;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void tamperingWithAnyMessageFailsVerification(Case c) {
    Prio3 prio3 = c.prio3();
    XofTurboShake128 x = stream("tamper " + c.label());
    byte[] key = x.next(Prio3.VERIFY_KEY_SIZE);
    Report report = shard(prio3, c.measurement().apply(x), x);
    verify(prio3, key, report); // untampered: accepted
    int measBytes = prio3.measurementLength() * prio3.field().encodedSize();
    List<Report> tampered = new ArrayList<>();
    // Leader: a measurement share element, a proof share element, the blind.
    byte[] leader = report.inputShares().get(0);
    tampered.add(withInput(report, 0, flip(leader, elementByte(prio3, 0))));
    tampered.add(withInput(report, 0, flip(leader, measBytes + 3)));
    tampered.add(withInput(report, 0, flip(leader, leader.length - 1)));
    // Each helper: its seed, and its blind if any.
    for (int a = 1; a < prio3.shares(); a++) {
      byte[] helper = report.inputShares().get(a);
      tampered.add(withInput(report, a, flip(helper, 0)));
      tampered.add(withInput(report, a, flip(helper, helper.length - 1)));
    }
    // The public share (only non-empty with joint randomness).
    for (int i = 0; i < report.publicShare().length; i += 32) {
      tampered.add(new Report(report.nonce(), flip(report.publicShare(), i), report.inputShares()));
    }
    // With joint randomness the nonce is bound into the joint randomness parts.
    if (prio3.usesJointRand()) {
      tampered.add(new Report(flip(report.nonce(), 0), report.publicShare(), report.inputShares()));
    }
    for (Report t : tampered) {
      assertThrows(VdafException.class, () -> verify(prio3, key, t));
    }
    // The leader's verifier share: a verifier element, and the joint randomness part if any.
    assertThrows(
        VdafException.class,
        () -> verify(prio3, key, report, vs -> flip(vs, 3), Function.identity()));
    assertThrows(
        VdafException.class,
        () -> verify(prio3, key, report, vs -> flip(vs, vs.length - 1), Function.identity()));
    if (prio3.usesJointRand()) {
      VdafException e =
          assertThrows(
              VdafException.class,
              () -> verify(prio3, key, report, Function.identity(), m -> flip(m, 0)));
      assertEquals(VdafException.Reason.JOINT_RAND_MISMATCH, e.reason());
    }
    // A different verify key changes the query randomness: the proof is then not accepted only
    // if it was malformed, so a valid report still verifies.
    verify(prio3, x.next(Prio3.VERIFY_KEY_SIZE), report);
  }

  private static Report withInput(Report r, int agg, byte[] share) {
    List<byte[]> inputs = new ArrayList<>(r.inputShares());
    inputs.set(agg, share);
    return new Report(r.nonce(), r.publicShare(), inputs);
  }

  @Test
  void invalidMeasurementsAreRejected() {
    byte[] nonce = new byte[Prio3.NONCE_SIZE];
    Prio3 count = new Prio3(new Prio3Variant.Count());
    byte[] rand = new byte[count.randSize()];
    for (List<BigInteger> bad : List.of(ints(2), ints(-1), ints(0, 1), ints(), List.<BigInteger>of())) {
      VdafException e = assertThrows(VdafException.class, () -> count.shard(CTX, bad, nonce, rand));
      assertEquals(VdafException.Reason.INVALID_MEASUREMENT, e.reason());
    }
    assertThrows(VdafException.class, () -> count.shard(CTX, null, nonce, rand));
    List<BigInteger> withNull = new ArrayList<>();
    withNull.add(null);
    assertThrows(VdafException.class, () -> count.shard(CTX, withNull, nonce, rand));

    Prio3 sum = new Prio3(new Prio3Variant.Sum(big(100)));
    assertThrows(VdafException.class, () -> sum.shard(CTX, ints(101), nonce, new byte[sum.randSize()]));
    Prio3 hist = new Prio3(new Prio3Variant.Histogram(5, 2));
    byte[] hrand = new byte[hist.randSize()];
    assertThrows(VdafException.class, () -> hist.shard(CTX, ints(5), nonce, hrand));
    assertThrows(VdafException.class, () -> hist.shard(CTX, ints(-1), nonce, hrand));
    Prio3 sumVec = new Prio3(Prio3Variant.SumVec.of(3, big(7), 2));
    byte[] srand = new byte[sumVec.randSize()];
    assertThrows(VdafException.class, () -> sumVec.shard(CTX, ints(1, 2), nonce, srand));
    assertThrows(VdafException.class, () -> sumVec.shard(CTX, ints(1, 2, 8), nonce, srand));
    Prio3 multihot = new Prio3(new Prio3Variant.MultihotCountVec(4, 2, 2));
    byte[] mrand = new byte[multihot.randSize()];
    assertThrows(VdafException.class, () -> multihot.shard(CTX, ints(1, 1, 1, 0), nonce, mrand));
    assertThrows(VdafException.class, () -> multihot.shard(CTX, ints(1, 2, 0, 0), nonce, mrand));
    Prio3 l1 = new Prio3(new Prio3Variant.L1BoundSum(3, big(10), 2));
    byte[] lrand = new byte[l1.randSize()];
    for (List<BigInteger> bad : List.of(ints(5, 5, 1), ints(11, 0, 0), ints(-1, 0, 0), ints(1, 2), ints(1, 2, 3, 4))) {
      VdafException e = assertThrows(VdafException.class, () -> l1.shard(CTX, bad, nonce, lrand), bad.toString());
      assertEquals(VdafException.Reason.INVALID_MEASUREMENT, e.reason());
    }
  }

  /** Prio3L1BoundSum (draft-ietf-ppm-l1-bound-sum-02): measurements at the bound verify. */
  @Test
  void l1BoundSumAcceptsMeasurementsAtTheBound() {
    Prio3 prio3 = new Prio3(new Prio3Variant.L1BoundSum(4, big(240), 5));
    XofTurboShake128 x = stream("l1 at the bound");
    byte[] key = x.next(Prio3.VERIFY_KEY_SIZE);
    List<List<BigInteger>> atTheBound = List.of(
        ints(240, 0, 0, 0), ints(0, 0, 0, 240), ints(60, 60, 60, 60), ints(1, 2, 3, 234), ints(0, 0, 0, 0));
    List<List<FieldVector>> outShares = List.of(new ArrayList<>(), new ArrayList<>());
    for (List<BigInteger> meas : atTheBound) {
      List<FieldVector> out = verify(prio3, key, shard(prio3, meas, x));
      outShares.get(0).add(out.get(0));
      outShares.get(1).add(out.get(1));
    }
    List<FieldVector> aggShares = List.of(prio3.aggregate(outShares.get(0)), prio3.aggregate(outShares.get(1)));
    assertEquals(ints(301, 62, 63, 534), prio3.unshard(aggShares, atTheBound.size()));
  }

  /**
   * A Client that encodes a measurement whose sum exceeds max_value with a weight that lies (the
   * components 240 and 240 are each in range, the claimed weight 240 is in range, but 480 != 240)
   * proves it with a circuit that accepts the lie; the variant's Prio3 refuses it in
   * verification (the weight check of Figure 1), and refuses to shard it at all.
   */
  @Test
  void l1BoundSumRefusesAWeightThatLies() {
    Prio3Variant.L1BoundSum variant = new Prio3Variant.L1BoundSum(4, big(240), 5);
    Prio3 honest = new Prio3(variant);
    Prio3 cheating = TestOnlyPrio3.onCircuit(new LyingWeight(variant, big(240)),
        variant.algorithmId(), variant.specName(), 1, 2);
    XofTurboShake128 x = stream("l1 lying weight");
    byte[] key = x.next(Prio3.VERIFY_KEY_SIZE);
    byte[] nonce = new byte[Prio3.NONCE_SIZE];
    List<BigInteger> overTheBound = ints(240, 240, 0, 0);
    VdafException refused = assertThrows(VdafException.class,
        () -> honest.shard(CTX, overTheBound, nonce, new byte[honest.randSize()]));
    assertEquals(VdafException.Reason.INVALID_MEASUREMENT, refused.reason());
    assertTrue(refused.getMessage().contains("480 exceeds max_value 240"), refused.getMessage());
    // The cheating Client's report has the honest sizes, so the aggregators can run it ...
    Report lie = shard(cheating, overTheBound, x);
    VdafException e = assertThrows(VdafException.class, () -> verify(honest, key, lie));
    assertEquals(VdafException.Reason.PROOF_REJECTED, e.reason());
    // ... and the same Client telling the truth about a valid measurement is accepted.
    Prio3 truthful = TestOnlyPrio3.onCircuit(new LyingWeight(variant, big(240)),
        variant.algorithmId(), variant.specName(), 1, 2);
    verify(honest, key, shard(truthful, ints(200, 40, 0, 0), x));
  }

  /**
   * Prio3L1BoundSum's circuit with an encoding that writes each component and then a claimed
   * weight of its choice, in place of the true sum: what a cheating Client would send.
   */
  private static final class LyingWeight extends org.priodp.vdaf.internal.Circuit {
    private final org.priodp.vdaf.internal.Circuit honest;
    private final org.priodp.vdaf.internal.RangeCheckedInt encoding;
    private final BigInteger claimed;
    private final int length;

    LyingWeight(Prio3Variant.L1BoundSum v, BigInteger claimed) {
      this(v.circuit(), v, claimed);
    }

    private LyingWeight(org.priodp.vdaf.internal.Circuit c, Prio3Variant.L1BoundSum v, BigInteger claimed) {
      super(c.field(), new org.priodp.vdaf.internal.Gadget[] {c.gadget(0)}, new int[] {c.gadgetCalls(0)},
          c.measLen(), c.jointRandLen(), c.evalOutputLen(), c.outputLen());
      this.honest = c;
      this.encoding = new org.priodp.vdaf.internal.RangeCheckedInt(c.field(), v.maxValue());
      this.claimed = claimed;
      this.length = v.length();
    }

    @Override
    public long[] encode(List<BigInteger> measurement) {
      long[] out = field.newArray(measLen());
      for (int i = 0; i < length; i++) {
        encoding.encode(measurement.get(i), out, i * encoding.bits());
      }
      encoding.encode(claimed, out, length * encoding.bits());
      return out;
    }

    @Override
    public long[] eval(long[] meas, long[] jointRand, int numShares, GadgetCall[] calls) {
      return honest.eval(meas, jointRand, numShares, calls);
    }

    @Override
    public long[] truncate(long[] meas) {
      return honest.truncate(meas);
    }
  }

  @Test
  void badArgumentsAreRejectedWithVdafException() {
    Prio3 prio3 = new Prio3(new Prio3Variant.Histogram(4, 2));
    XofTurboShake128 x = stream("bad arguments");
    byte[] nonce = x.next(Prio3.NONCE_SIZE);
    byte[] rand = x.next(prio3.randSize());
    List<BigInteger> meas = ints(1);
    assertThrows(VdafException.class, () -> prio3.shard(CTX, meas, new byte[15], rand));
    assertThrows(VdafException.class, () -> prio3.shard(CTX, meas, nonce, new byte[rand.length - 1]));
    assertThrows(VdafException.class, () -> prio3.shard(null, meas, nonce, rand));
    assertThrows(VdafException.class, () -> prio3.shard(new byte[Prio3.MAX_CTX_LENGTH + 1], meas, nonce, rand));
    assertThrows(VdafException.class, () -> new Prio3(new Prio3Variant.Count(), 1));
    assertThrows(VdafException.class, () -> new Prio3(new Prio3Variant.Count(), 256));
    assertThrows(VdafException.class, () -> new Prio3(null));

    Prio3.ShardResult r = prio3.shard(CTX, meas, nonce, rand);
    byte[] key = x.next(Prio3.VERIFY_KEY_SIZE);
    Prio3.InputShare leader = r.inputShares().get(0);
    Prio3.InputShare helper = r.inputShares().get(1);
    assertThrows(VdafException.class, () -> prio3.verifyInit(new byte[31], CTX, 0, nonce, r.publicShare(), leader));
    assertThrows(VdafException.class, () -> prio3.verifyInit(key, CTX, 2, nonce, r.publicShare(), leader));
    assertThrows(VdafException.class, () -> prio3.verifyInit(key, CTX, 0, nonce, r.publicShare(), helper));
    assertThrows(VdafException.class, () -> prio3.verifyInit(key, CTX, 1, nonce, r.publicShare(), leader));
    assertThrows(VdafException.class, () -> prio3.verifyInit(key, CTX, 0, nonce, null, leader));
    assertThrows(VdafException.class, () -> prio3.verifyInit(key, CTX, 0, nonce, r.publicShare(), null));
    // Messages of another Prio3 instance do not fit.
    Prio3 other = new Prio3(new Prio3Variant.Histogram(5, 2));
    Prio3.ShardResult o = other.shard(CTX, meas, nonce, x.next(other.randSize()));
    assertThrows(VdafException.class, () -> prio3.verifyInit(key, CTX, 0, nonce, r.publicShare(), o.inputShares().get(0)));
    Prio3.VerifyInitResult init = prio3.verifyInit(key, CTX, 0, nonce, r.publicShare(), leader);
    assertThrows(VdafException.class, () -> prio3.verifierSharesToMessage(CTX, List.of(init.verifierShare())));
    assertThrows(VdafException.class, () -> prio3.verifierSharesToMessage(CTX, null));
    assertThrows(VdafException.class, () -> prio3.verifyNext(null, null));
    assertThrows(VdafException.class, () -> prio3.unshard(List.of(), 0));
    assertThrows(VdafException.class, () -> prio3.aggregate(List.of(FieldVector.zeros(prio3.field(), 3))));
  }

  @Test
  void decodersRejectMalformedInputWithVdafExceptionOnly() {
    XofTurboShake128 x = stream("decoders");
    for (Prio3 prio3 : List.of(new Prio3(new Prio3Variant.Count()), new Prio3(new Prio3Variant.Histogram(4, 2), 3))) {
      for (int trial = 0; trial < 200; trial++) {
        int len = below(x, 400);
        byte[] junk = x.next(len);
        int agg = below(x, prio3.shares());
        tryDecode(() -> prio3.decodePublicShare(junk));
        tryDecode(() -> prio3.decodeInputShare(agg, junk));
        tryDecode(() -> prio3.decodeVerifierShare(junk));
        tryDecode(() -> prio3.decodeVerifierMessage(junk));
        tryDecode(() -> prio3.decodeAggregateShare(junk));
      }
      // All-ones bytes are non-canonical in both fields.
      byte[] ones = new byte[prio3.outputLength() * prio3.field().encodedSize()];
      java.util.Arrays.fill(ones, (byte) 0xff);
      VdafException e = assertThrows(VdafException.class, () -> prio3.decodeAggregateShare(ones));
      assertEquals(VdafException.Reason.MALFORMED_MESSAGE, e.reason());
      assertThrows(VdafException.class, () -> prio3.decodeInputShare(-1, new byte[32]));
      assertThrows(VdafException.class, () -> prio3.decodeVerifierShare(null));
    }
  }

  private static void tryDecode(Runnable decode) {
    try {
      decode.run();
    } catch (VdafException expected) {
      // the only allowed failure
    }
  }

  @Test
  void everyPrio3HasItsVariantExceptTheTestOnlyCircuit() {
    Prio3Variant h = new Prio3Variant.Histogram(4, 2);
    assertEquals(h, new Prio3(h).variant());
    Prio3 higher = TestOnlyPrio3.higherDegree(3);
    assertEquals("Prio3HigherDegree", higher.name());
    assertEquals(0xFFFFFFFFL, higher.algorithmId());
    assertEquals(3, higher.shares());
    IllegalStateException e = assertThrows(IllegalStateException.class, higher::variant);
    assertTrue(e.getMessage().contains("test-only"), e.getMessage());
  }
}
