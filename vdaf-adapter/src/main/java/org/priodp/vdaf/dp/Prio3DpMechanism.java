package org.priodp.vdaf.dp;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;
import org.priodp.field.DecodeException;
import org.priodp.field.FieldVector;
import org.priodp.field.PrimeField;
import org.priodp.noise.HardenedDiscreteGaussian;
import org.priodp.noise.HardenedDiscreteLaplace;
import org.priodp.noise.NoiseSampler;
import org.priodp.noise.RandomSource;
import org.priodp.noise.Rational;
import org.priodp.vdaf.Prio3Variant;

/**
 * Adds differential-privacy noise to a Prio3 aggregate share, with the noise scale derived from
 * the VDAF's own parameters ({@link Sensitivity}) and a {@link DpStrategy}.
 *
 * <p>{@link #addNoiseToAggShare} draws one independent sample per coordinate, projects it into
 * the field (z >= 0 as is, z < 0 as p - |z|; any z is reduced mod p) and adds it to the share
 * (DESIGN.md "Facts: the mechanism"; papers/prio3-pure-dp-discrete-laplace.txt, Theorem 4).
 * Each aggregator calls it once per batch on its own share; the guarantee holds as long as one
 * aggregator is honest. No floating point is used on this path; the accuracy methods return
 * doubles for people.
 *
 * <p><b>Unit of privacy.</b> One report, under replacement: the released aggregate is
 * epsilon-DP (or rho-zCDP) with respect to two batches with the same number of reports that
 * differ in one report's measurement, replaced by any other valid measurement (the relation
 * {@link Sensitivity} is computed for; the report count itself is not protected, DAP reveals
 * it). A user who contributes k reports to a batch is protected only through group privacy:
 * k epsilon (k^2 rho). The guarantee is for one release of one batch; repeated collections and
 * other tasks compose, which the operator must account for.
 *
 * <p>Instances are immutable and thread-safe; the {@link RandomSource} passed to each call is
 * not, so give each thread its own.
 */
public final class Prio3DpMechanism {
  private final Prio3Variant variant;
  private final DpStrategy strategy;
  private final Sensitivity sensitivity;
  private final NoiseSampler sampler; // null: no noise
  private final boolean hardened;

  private Prio3DpMechanism(Prio3Variant variant, DpStrategy strategy, SensitivityRule rule,
      boolean hardened) {
    this.variant = Objects.requireNonNull(variant, "variant");
    this.strategy = Objects.requireNonNull(strategy, "strategy");
    if (strategy.budgetFromReports()) {
      // attribution draft section 5: the scale depends on the release's epsilon
      throw new IllegalArgumentException(strategy.name() + " noises at each release's epsilon:"
          + " build the mechanism from strategy.forRelease(epsilon)");
    }
    this.sensitivity = Sensitivity.of(variant, rule);
    this.hardened = hardened;
    this.sampler = hardened
        ? strategy.hardenedSampler(sensitivity)
        : strategy.sampler(sensitivity).orElse(null);
  }

  /**
   * Returns the mechanism for a variant and strategy under prio-dp's sensitivity rule.
   *
   * @throws IllegalArgumentException for a strategy whose epsilon comes from the reports
   *     ({@link DpStrategy#budgetFromReports()}): build it from {@code forRelease(epsilon)}
   */
  public static Prio3DpMechanism of(Prio3Variant variant, DpStrategy strategy) {
    return new Prio3DpMechanism(variant, strategy, SensitivityRule.PRIODP, false);
  }

  /**
   * Returns the mechanism for a variant and strategy under the given sensitivity rule (use
   * {@link SensitivityRule#JANUS_COMPATIBLE} to match a Janus peer's SumVec noise).
   */
  public static Prio3DpMechanism of(Prio3Variant variant, DpStrategy strategy, SensitivityRule rule) {
    return new Prio3DpMechanism(variant, strategy, Objects.requireNonNull(rule, "rule"), false);
  }

  /**
   * Returns this mechanism with the fixed-work sampler in place of the exact one ({@link
   * HardenedDiscreteLaplace} for PureDpDiscreteLaplace, {@link HardenedDiscreteGaussian} for
   * ZCdpDiscreteGaussian): the same scale, but every draw runs the same loop and reads the same
   * number of random bits whatever the noise, so the time spent noising a share does not leak
   * the noise; the projection of each draw into the field and its addition to the share are
   * branch-free as well ({@link PrimeField#setSignedConstantTime}, {@link
   * PrimeField#addVecConstantTime}). Each draw is within total variation delta <= 2^-64 of the
   * exact distribution ({@link #totalVariation()}), so a share of n = {@code outputLength()}
   * independently noised coordinates is within n delta of the exact mechanism: the guarantee
   * becomes (epsilon, (1 + e^epsilon) n delta)-DP for the Laplace, and for the Gaussian (epsilon,
   * delta_zCDP(epsilon) + (1 + e^epsilon) n delta)-DP for every epsilon, delta_zCDP the exact
   * mechanism's conversion of rho-zCDP.
   *
   * @throws IllegalArgumentException if the strategy adds no noise, or its scale (sigma^2) is
   *     too large for the fixed-work sampler (the message names the largest supported value)
   */
  public Prio3DpMechanism withHardenedSampler() {
    return new Prio3DpMechanism(variant, strategy, sensitivity.rule(), true);
  }

  /** Returns true if noise is drawn by the fixed-work sampler. */
  public boolean hardened() {
    return hardened;
  }

  /** Returns the VDAF parameters. */
  public Prio3Variant variant() {
    return variant;
  }

  /** Returns the strategy. */
  public DpStrategy strategy() {
    return strategy;
  }

  /** Returns the sensitivity the noise is calibrated to. */
  public Sensitivity sensitivity() {
    return sensitivity;
  }

  /** Returns the per-coordinate sampler, or empty for {@link DpStrategy.NoDifferentialPrivacy}. */
  public Optional<NoiseSampler> sampler() {
    return Optional.ofNullable(sampler);
  }

  /**
   * Returns an exact upper bound on the total variation distance between one noised share and
   * the exact mechanism's: n times {@link NoiseSampler#totalVariationPerDraw()} for n = {@code
   * outputLength()} independent coordinates (total variation is subadditive over independent
   * coordinates); 0 with the exact sampler or without noise.
   */
  public Rational totalVariation() {
    return sampler == null ? Rational.ZERO
        : sampler.totalVariationPerDraw().multiply(Rational.of(variant.outputLength()));
  }

  /**
   * Returns one line for operators naming the strategy, the noise and the sampler, e.g.
   * "PureDpDiscreteLaplace(epsilon=1), discrete Laplace with scale 2, fixed-work sampler (total
   * variation <= 2^-64 per draw, <= 2^-60 per share of 16)" or "..., exact sampler (running time
   * depends on the noise)"; "NoDifferentialPrivacy, no noise" without noise. The per-share figure
   * is {@link #totalVariation()}, n times the per-draw delta for a share of n coordinates; each
   * exponent is the largest integer e with the bound <= 2^-e, computed exactly.
   */
  public String describeSettings() {
    if (sampler == null) {
      return strategy.describe() + ", no noise";
    }
    String noise = strategy.sampler(sensitivity).orElseThrow().describe();
    if (!hardened) {
      return strategy.describe() + ", " + noise + ", exact sampler (running time depends on the noise)";
    }
    int n = variant.outputLength();
    return strategy.describe() + ", " + noise + ", fixed-work sampler (total variation <= 2^-"
        + exponent(sampler.totalVariationPerDraw()) + " per draw, <= 2^-" + exponent(totalVariation())
        + " per share of " + n + ")";
  }

  /** The largest integer e with x <= 2^-e, computed exactly (x in (0, 1)). */
  private static int exponent(Rational x) {
    return x.denominator().divide(x.numerator()).bitLength() - 1; // 2^e <= 1/x
  }

  /** Returns true if the strategy adds noise. */
  public boolean addsNoise() {
    return sampler != null;
  }

  /**
   * Returns a one-line description of the noise of one aggregator, e.g. "discrete Laplace with
   * scale 2".
   */
  public String describeNoise() {
    return sampler == null ? "no noise" : sampler.describe();
  }

  // ------------------------------------------------------------------ noising

  /**
   * Returns the noised aggregate share, in the same canonical encoding as the input.
   *
   * @param aggregateShare the encoded un-noised aggregate share: {@code outputLength()} field
   *     elements of the variant's field
   * @throws DecodeException if the share has the wrong length or a value >= p; the message names
   *     the VDAF and the element
   */
  public byte[] addNoiseToAggShare(byte[] aggregateShare, RandomSource rnd) {
    Objects.requireNonNull(aggregateShare, "aggregateShare");
    Objects.requireNonNull(rnd, "rnd");
    PrimeField field = variant.field();
    int n = variant.outputLength();
    long[] words;
    try {
      words = field.decode(aggregateShare, 0, aggregateShare.length, n);
    } catch (DecodeException e) {
      throw new DecodeException(variant.algorithm().specName() + " aggregate share ("
          + n + " " + field.name() + " elements): " + e.getMessage());
    }
    addNoiseInPlace(words, rnd);
    byte[] out = new byte[aggregateShare.length];
    field.encode(words, n, out, 0);
    return out;
  }

  /**
   * Returns the noised aggregate share.
   *
   * @throws IllegalArgumentException if the share is not in the variant's field or has the wrong
   *     length
   */
  public FieldVector addNoiseToAggShare(FieldVector aggregateShare, RandomSource rnd) {
    Objects.requireNonNull(aggregateShare, "aggregateShare");
    checkShape(aggregateShare, "aggregate share");
    long[] words = aggregateShare.toWords();
    addNoiseInPlace(words, rnd);
    return FieldVector.ofWords(variant.field(), words);
  }

  /**
   * Adds noise in place to a share in flat storage (the hot path: no decoding or copying).
   *
   * @param words exactly {@code outputLength()} canonical elements of the variant's field
   * @throws IllegalArgumentException if the array has the wrong size
   */
  public void addNoiseInPlace(long[] words, RandomSource rnd) {
    Objects.requireNonNull(words, "words");
    Objects.requireNonNull(rnd, "rnd");
    PrimeField field = variant.field();
    int n = variant.outputLength();
    if (words.length != n * field.words()) {
      throw new IllegalArgumentException(variant.algorithm().specName() + " aggregate shares have "
          + n + " " + field.name() + " elements (" + n * field.words() + " words), got "
          + words.length + " words");
    }
    if (sampler == null) {
      return;
    }
    addNoise(words, rnd, new long[n], field.newArray(n));
  }

  /**
   * Adds the noise to {@code words} through the scratch arrays {@code z} (the n draws) and {@code
   * noise} (their n field elements), and zeroes both before returning, also when a draw throws:
   * the noise of a share should not outlive the call in memory. (Best effort: Java promises
   * neither that a garbage collector has not copied an array before, nor anything about the
   * BigInteger draws of a sampler whose draws do not fit a long.)
   */
  void addNoise(long[] words, RandomSource rnd, long[] z, long[] noise) {
    PrimeField field = variant.field();
    int n = variant.outputLength();
    try {
      if (hardened) {
        // The whole share is fixed-work: the draws (HardenedDiscrete*), the projection into
        // the field and the addition use masks, never a branch on the noise or the share.
        sampler.fill(z, rnd);
        for (int i = 0; i < n; i++) {
          field.setSignedConstantTime(noise, i, z[i]);
        }
        field.addVecConstantTime(words, noise, words, n);
        return;
      }
      // A sampler whose draws fit a long takes the long path: a draw beyond the long range has
      // probability below exp(-2^23), and if it ever happens the sampler throws and nothing is
      // released (never resampled silently).
      if (sampler.drawsFitLong()) {
        sampler.fill(z, rnd);
        for (int i = 0; i < n; i++) {
          field.setSigned(noise, i, z[i]);
        }
      } else {
        for (int i = 0; i < n; i++) {
          setProjected(field, noise, i, sampler.sampleBig(rnd));
        }
      }
      field.addVec(words, noise, words, n);
    } finally {
      Arrays.fill(z, 0L);
      Arrays.fill(noise, 0L);
    }
  }

  /** Stores the projection of any integer z into the field: z mod p (so z < 0 gives p - |z|). */
  static void setProjected(PrimeField field, long[] w, int i, BigInteger z) {
    field.set(w, i, z.mod(field.modulus()));
  }

  void checkShape(FieldVector v, String what) {
    if (v.field() != variant.field()) {
      throw new IllegalArgumentException(variant.algorithm().specName() + " " + what + "s are in "
          + variant.field().name() + ", got " + v.field().name());
    }
    if (v.length() != variant.outputLength()) {
      throw new IllegalArgumentException(variant.algorithm().specName() + " " + what + "s have "
          + variant.outputLength() + " elements, got " + v.length());
    }
  }

  // ------------------------------------------------------------------ accuracy (for people)

  /**
   * Returns the variance of the total noise on one coordinate when {@code aggregators}
   * independent aggregators each add one draw (for the discrete Gaussian, the upper bound
   * sigma^2 per draw). A figure for people, in double precision.
   */
  public double noiseVariance(int aggregators) {
    checkAggregators(aggregators);
    return sampler == null ? 0 : aggregators * sampler.variance();
  }

  /** Returns the standard deviation of the total noise on one coordinate, for people. */
  public double noiseStandardDeviation(int aggregators) {
    return Math.sqrt(noiseVariance(aggregators));
  }

  /**
   * Returns the smallest k such that the total noise of {@code aggregators} draws on one
   * coordinate lies in [-k, k] with probability at least {@code confidence}: exact discrete
   * Laplace tails for 1 and 2 draws, the sub-Gaussian bound for the discrete Gaussian, and for
   * more than two draws the union bound n * k1 with k1 the one-draw half-width at confidence
   * 1 - (1 - confidence)/n. Zero when no noise is added. Any scale is accepted (no overflow).
   */
  public BigInteger noiseHalfWidthBig(int aggregators, double confidence) {
    checkAggregators(aggregators);
    if (!(confidence > 0 && confidence < 1)) {
      throw new IllegalArgumentException("confidence must be in (0, 1), got " + confidence);
    }
    return sampler == null ? BigInteger.ZERO : sampler.halfWidth(aggregators, confidence);
  }

  /**
   * Returns {@link #noiseHalfWidthBig} as a long.
   *
   * @throws ArithmeticException if the half-width exceeds the long range (Laplace scales of about
   *     2^60 and more); use {@link #noiseHalfWidthBig}, which never overflows
   */
  public long noiseHalfWidth(int aggregators, double confidence) {
    BigInteger k = noiseHalfWidthBig(aggregators, confidence);
    if (k.bitLength() > 63) {
      throw new ArithmeticException("the noise half-width " + k + " exceeds the long range; use noiseHalfWidthBig");
    }
    return k.longValue();
  }

  private static void checkAggregators(int aggregators) {
    if (aggregators < 1) {
      throw new IllegalArgumentException("aggregators must be >= 1, got " + aggregators);
    }
  }

  @Override
  public String toString() {
    return "Prio3DpMechanism(" + variant + ", " + strategy.describe() + ", " + describeNoise() + ")";
  }
}
