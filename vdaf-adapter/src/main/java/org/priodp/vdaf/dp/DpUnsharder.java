package org.priodp.vdaf.dp;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.priodp.field.DecodeException;
import org.priodp.field.FieldVector;
import org.priodp.field.PrimeField;
import org.priodp.vdaf.Prio3Algorithm;
import org.priodp.vdaf.Prio3Variant;

/**
 * The DP-aware unshard of a noised Prio3 aggregation (the decoder the DAP Collector runs): unshards the aggregators' (noised)
 * aggregate shares, lifts the result from the field to the integers, and reports per coordinate
 * the confidence interval of the total noise (DESIGN.md "Facts: the mechanism", collector
 * decoding).
 *
 * <p><b>The lift.</b> A noised coordinate is the true aggregate plus the noise, reduced mod p.
 * With n reports the true aggregate lies in [0, n * max] (max: 1 for Count, Histogram and
 * MultihotCountVec, max_measurement for Sum and SumVec, max_value for L1BoundSum), and the total
 * noise lies in [-h, h] except with probability at most {@link #LIFT_FAILURE_PROBABILITY} (h from the same tail
 * bounds as the intervals). Each coordinate v is therefore lifted to the integer v + j p nearest
 * the range R = [-h, n * max + h]: the one inside R when there is one, else the closer one
 * (the lower on a tie). This is exact whenever the noise stays within [-h, h], however large
 * the true aggregate is (a Sum of 2^63 over Field64 decodes as 2^63, not as a negative number).
 * A range R that holds more than p integers would make the lift ambiguous, and is refused.
 *
 * <p>Every aggregator adds its own draw, so the collector sees the sum of one draw per share;
 * the intervals account for all of them. Post-processing is off by default and, when asked for,
 * reported apart from the estimates. Instances are immutable.
 */
public final class DpUnsharder {
  /** The default coverage of the reported intervals. */
  public static final double DEFAULT_CONFIDENCE = 0.95;

  /**
   * The probability, 2^-40, with which the total noise may leave the range the lift assumes (a
   * tail bound, like the intervals: the true probability is at most this).
   */
  public static final double LIFT_FAILURE_PROBABILITY = 0x1p-40;

  private final Prio3DpMechanism mechanism;
  private final double confidence;
  private final PostProcessing postProcessing;

  private DpUnsharder(Prio3DpMechanism mechanism, double confidence, PostProcessing postProcessing) {
    this.mechanism = Objects.requireNonNull(mechanism, "mechanism");
    if (!(confidence > 0 && confidence < 1)) {
      throw new IllegalArgumentException("confidence must be in (0, 1), got " + confidence);
    }
    this.confidence = confidence;
    this.postProcessing = Objects.requireNonNull(postProcessing, "postProcessing");
    if (postProcessing == PostProcessing.ROUND_HISTOGRAM_TO_COUNT
        && mechanism.variant().algorithm() != Prio3Algorithm.HISTOGRAM) {
      throw new IllegalArgumentException("post-processing round-histogram-to-count needs Prio3Histogram, not "
          + mechanism.variant().algorithm().specName());
    }
  }

  /**
   * Returns a collector for aggregates noised by {@code mechanism} (the same variant, strategy
   * and sensitivity rule as the aggregators), with 95% intervals and no post-processing.
   */
  public static DpUnsharder of(Prio3DpMechanism mechanism) {
    return new DpUnsharder(mechanism, DEFAULT_CONFIDENCE, PostProcessing.NONE);
  }

  /** Returns a copy with intervals of the given coverage, in (0, 1). */
  public DpUnsharder withConfidence(double confidence) {
    return new DpUnsharder(mechanism, confidence, postProcessing);
  }

  /** Returns a copy that also reports post-processed values. */
  public DpUnsharder withPostProcessing(PostProcessing postProcessing) {
    return new DpUnsharder(mechanism, confidence, postProcessing);
  }

  /** Returns the mechanism. */
  public Prio3DpMechanism mechanism() {
    return mechanism;
  }

  /**
   * Decodes and unshards encoded aggregate shares.
   *
   * @param numMeasurements the number of reports aggregated into the shares (DAP's
   *     report_count); with DP it bounds the range the lift assumes, so it must be the true count
   * @throws DecodeException if a share has the wrong length or a value >= p; the message names
   *     the share and the element
   * @throws IllegalArgumentException if there are no shares or numMeasurements < 0, or (with DP)
   *     if the field cannot represent the aggregate plus noise unambiguously ({@link
   *     #checkDecodable})
   */
  public UnshardResult unshard(List<byte[]> aggregateShares, long numMeasurements) {
    Objects.requireNonNull(aggregateShares, "aggregateShares");
    Prio3Variant variant = mechanism.variant();
    PrimeField field = variant.field();
    List<FieldVector> shares = new ArrayList<>(aggregateShares.size());
    for (int j = 0; j < aggregateShares.size(); j++) {
      byte[] s = Objects.requireNonNull(aggregateShares.get(j), "aggregate share");
      try {
        shares.add(FieldVector.decode(field, s, variant.outputLength()));
      } catch (DecodeException e) {
        throw new DecodeException("aggregate share " + (j + 1) + " of " + aggregateShares.size() + " ("
            + variant.algorithm().specName() + ", " + variant.outputLength() + " " + field.name()
            + " elements): " + e.getMessage());
      }
    }
    return unshardVectors(shares, numMeasurements);
  }

  /**
   * Unshards aggregate shares: sums them, decodes the aggregate as the VDAF does, lifts it to
   * the integers (with DP, as the class comment describes) and attaches the intervals and any
   * post-processing.
   *
   * @param numMeasurements the number of reports aggregated into the shares (DAP's report_count)
   * @throws IllegalArgumentException if there are no shares, a share has the wrong field or
   *     length, numMeasurements < 0, or (with DP) the field cannot represent the aggregate plus
   *     noise unambiguously ({@link #checkDecodable})
   */
  public UnshardResult unshardVectors(List<FieldVector> aggregateShares, long numMeasurements) {
    Objects.requireNonNull(aggregateShares, "aggregateShares");
    Prio3Variant variant = mechanism.variant();
    if (aggregateShares.isEmpty()) {
      throw new IllegalArgumentException("unshard needs at least one aggregate share");
    }
    if (numMeasurements < 0) {
      throw new IllegalArgumentException("number of measurements must be >= 0, got " + numMeasurements);
    }
    FieldVector sum = null;
    for (FieldVector share : aggregateShares) {
      mechanism.checkShape(Objects.requireNonNull(share, "aggregate share"), "aggregate share");
      sum = sum == null ? share : sum.add(share);
    }
    List<BigInteger> fieldValues = variant.decodeAggregate(sum);
    boolean noised = mechanism.addsNoise();
    int noisedShares = noised ? aggregateShares.size() : 0;
    List<BigInteger> estimates;
    if (noised) {
      BigInteger[] range = liftRange(noisedShares, numMeasurements);
      BigInteger p = variant.field().modulus();
      estimates = new ArrayList<>(fieldValues.size());
      for (BigInteger v : fieldValues) {
        estimates.add(liftNearest(v, range[0], range[1], p));
      }
    } else {
      estimates = fieldValues;
    }
    BigInteger halfWidth = noised ? mechanism.noiseHalfWidthBig(noisedShares, confidence) : BigInteger.ZERO;
    List<BigInteger> post = switch (postProcessing) {
      case NONE -> List.of();
      case CLAMP -> clamp(estimates, upperBound(variant, numMeasurements));
      case ROUND_HISTOGRAM_TO_COUNT -> roundToCount(
          clamp(estimates, BigInteger.valueOf(numMeasurements)), BigInteger.valueOf(numMeasurements));
    };
    return new UnshardResult(variant, mechanism.strategy(), numMeasurements, noisedShares,
        fieldValues, estimates, halfWidth, confidence, noiseNote(noisedShares), postProcessing, post);
  }

  /**
   * Checks that aggregates of {@code numMeasurements} reports, noised by {@code aggregators}
   * aggregators, can be decoded: that the range R = [-h, n * max + h] of the class comment holds
   * at most p integers. Call it when a task is configured (with its largest expected batch) to
   * learn before any noise is spent what {@link #unshard} would refuse.
   *
   * @throws IllegalArgumentException naming the VDAF, the number of reports and the range if it
   *     does not fit, or if aggregators < 1 or numMeasurements < 0
   */
  public void checkDecodable(int aggregators, long numMeasurements) {
    if (numMeasurements < 0) {
      throw new IllegalArgumentException("number of measurements must be >= 0, got " + numMeasurements);
    }
    if (mechanism.addsNoise()) {
      liftRange(aggregators, numMeasurements);
    } else if (aggregators < 1) {
      throw new IllegalArgumentException("aggregators must be >= 1, got " + aggregators);
    }
  }

  /**
   * Returns {lo, hi} = {-h, n * max + h}, h the half-width of the total noise of {@code
   * noisedShares} draws at failure probability {@link #LIFT_FAILURE_PROBABILITY}; refuses a
   * range of more than p integers.
   */
  private BigInteger[] liftRange(int noisedShares, long numMeasurements) {
    Prio3Variant variant = mechanism.variant();
    BigInteger h = mechanism.noiseHalfWidthBig(noisedShares, 1 - LIFT_FAILURE_PROBABILITY);
    BigInteger top = upperBound(variant, numMeasurements);
    BigInteger lo = h.negate();
    BigInteger hi = top.add(h);
    BigInteger p = variant.field().modulus();
    if (hi.subtract(lo).compareTo(p) >= 0) {
      throw new IllegalArgumentException(variant.describe() + " with " + numMeasurements + " reports and "
          + mechanism.strategy().describe() + ": the valid range of the aggregate plus noise, [-" + h + ", "
          + top + " + " + h + "] (noise bound h at failure probability 2^-40), spans >= p = " + p + "; "
          + variant.field().name() + " cannot represent it unambiguously");
    }
    return new BigInteger[] {lo, hi};
  }

  /**
   * Returns the integer congruent to v mod p nearest [lo, hi] (inside it if one is; the lower of
   * two equally near ones), for hi - lo < p.
   */
  static BigInteger liftNearest(BigInteger v, BigInteger lo, BigInteger hi, BigInteger p) {
    BigInteger above = lo.add(v.subtract(lo).mod(p)); // the least representative >= lo
    if (above.compareTo(hi) <= 0) {
      return above;
    }
    BigInteger below = above.subtract(p); // < lo
    return above.subtract(hi).compareTo(lo.subtract(below)) < 0 ? above : below;
  }

  private String noiseNote(int noisedShares) {
    if (!mechanism.addsNoise()) {
      return "no noise was added (" + mechanism.strategy().describe() + "): the values are exact";
    }
    String draws = noisedShares == 1
        ? "one noise draw"
        : "the sum of " + noisedShares + " independent noise draws, one per aggregator,";
    return "each value carries " + draws + " each " + mechanism.describeNoise() + " ("
        + mechanism.strategy().describe() + ", L1 sensitivity " + mechanism.sensitivity().l1()
        + ", squared L2 sensitivity " + mechanism.sensitivity().l2Squared() + "); value +- half-width"
        + " covers the noise-free value with probability at least " + confidence;
  }

  /**
   * The largest noise-free value of one coordinate: numMeasurements times the variant's {@link
   * Prio3Variant#maxContribution()}.
   */
  static BigInteger upperBound(Prio3Variant variant, long numMeasurements) {
    return BigInteger.valueOf(numMeasurements).multiply(variant.maxContribution());
  }

  static List<BigInteger> clamp(List<BigInteger> values, BigInteger upper) {
    List<BigInteger> out = new ArrayList<>(values.size());
    for (BigInteger v : values) {
      out.add(v.max(BigInteger.ZERO).min(upper));
    }
    return out;
  }

  /**
   * Rescales non-negative values to integers summing to {@code total}: floor(v_i * total / S)
   * plus one for the largest remainders (ties to the lower index); all-zero input is spread
   * evenly the same way.
   */
  static List<BigInteger> roundToCount(List<BigInteger> values, BigInteger total) {
    int n = values.size();
    BigInteger sum = BigInteger.ZERO;
    for (BigInteger v : values) {
      sum = sum.add(v);
    }
    List<BigInteger> weights = sum.signum() == 0 ? java.util.Collections.nCopies(n, BigInteger.ONE) : values;
    BigInteger denom = sum.signum() == 0 ? BigInteger.valueOf(n) : sum;
    BigInteger[] q = new BigInteger[n];
    BigInteger[] r = new BigInteger[n];
    BigInteger assigned = BigInteger.ZERO;
    for (int i = 0; i < n; i++) {
      BigInteger[] qr = weights.get(i).multiply(total).divideAndRemainder(denom);
      q[i] = qr[0];
      r[i] = qr[1];
      assigned = assigned.add(qr[0]);
    }
    int deficit = total.subtract(assigned).intValueExact(); // < n
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    java.util.Arrays.sort(order, (a, b) -> {
      int c = r[b].compareTo(r[a]);
      return c != 0 ? c : Integer.compare(a, b);
    });
    for (int k = 0; k < deficit; k++) {
      q[order[k]] = q[order[k]].add(BigInteger.ONE);
    }
    return List.of(q);
  }
}
