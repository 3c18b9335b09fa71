package org.priodp.vdaf.dp;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.priodp.noise.Budget;
import org.priodp.noise.DiscreteGaussian;
import org.priodp.noise.DiscreteLaplace;
import org.priodp.noise.HardenedDiscreteGaussian;
import org.priodp.noise.HardenedDiscreteLaplace;
import org.priodp.noise.NoiseSampler;
import org.priodp.noise.Rational;
import org.priodp.noise.ledger.ZCdpConversion;

/**
 * A differential-privacy strategy for aggregate shares: which noise each aggregator adds, with
 * its parameter held exactly. The set is closed.
 *
 * <p>The noise scale follows from the strategy and the VDAF's {@link Sensitivity}: discrete
 * Laplace with scale L1/epsilon (epsilon-DP, papers/prio3-pure-dp-discrete-laplace.txt,
 * Theorem 4) or discrete Gaussian with sigma^2 = L2^2/(2 rho) (rho-zCDP, Canonne, Kamath and
 * Steinke 2020). Either guarantee holds as long as one aggregator is honest.
 *
 * <p><b>Unit of privacy.</b> One report, under replacement: epsilon (or rho) bounds what the
 * released aggregate reveals about any single report's measurement, between two batches of the
 * same size that differ in that one measurement. A user who contributes k reports to a batch
 * gets k epsilon (for zCDP k^2 rho) by group privacy. Each collection of a batch spends the
 * budget once; budgets across batches, collections and tasks are the operator's to track.
 *
 * <p>A strategy answers every question that depends on which strategy it is (its name and
 * parameters, its guarantee, whether it has a fixed-work sampler) through a method each record
 * implements; nothing outside these types tests which strategy it holds.
 */
public sealed interface DpStrategy
    permits DpStrategy.NoDifferentialPrivacy,
        DpStrategy.PureDpDiscreteLaplace,
        DpStrategy.ZCdpDiscreteGaussian,
        DpStrategy.ReportBudget {

  /**
   * Returns the sampler every aggregator uses for each coordinate, or empty when the strategy
   * adds no noise.
   */
  Optional<NoiseSampler> sampler(Sensitivity sensitivity);

  /**
   * Returns the fixed-work sampler with the same distribution up to a stated total variation
   * per draw ({@link NoiseSampler#totalVariationPerDraw()}; see {@link
   * org.priodp.noise.HardenedDiscreteLaplace} and {@link
   * org.priodp.noise.HardenedDiscreteGaussian}).
   *
   * @throws IllegalArgumentException if the strategy has no fixed-work sampler (it adds no
   *     noise), or its scale (sigma^2) is too large for it: the message names the largest
   *     supported value
   */
  default NoiseSampler hardenedSampler(Sensitivity sensitivity) {
    Objects.requireNonNull(sensitivity, "sensitivity");
    throw new IllegalArgumentException(
        "the fixed-work sampler exists for noising strategies only, not " + describe());
  }

  /** Returns the budget the strategy spends (epsilon or rho), or empty when it adds no noise. */
  Optional<Budget> budget();

  /**
   * Returns the strategy's code in prio-dp's DP-binding task extension (DpBindingV1, see the
   * aggregator's {@code DpBinding}): 0 none, 1 PureDpDiscreteLaplace, 2 ZCdpDiscreteGaussian,
   * 3 ReportBudgetDiscreteLaplace, 4 ReportBudgetDiscreteGaussian.
   */
  int bindingCode();

  /**
   * Returns the exact parameter the DP binding digests: the budget (epsilon or rho) of a fixed
   * strategy, the fixed delta of ReportBudgetDiscreteGaussian, empty otherwise.
   */
  default Optional<Rational> bindingParameter() {
    return budget().map(Budget::parameter);
  }

  /**
   * Returns whether the strategy's epsilon comes from the reports' privacy budgets, one release
   * at a time (draft-ietf-ppm-dap-attribution-00, sections 3 and 5), rather than from the task:
   * then only {@link #forRelease} gives a strategy that can noise.
   */
  default boolean budgetFromReports() {
    return false;
  }

  /**
   * Returns the strategy a release noises with when its epsilon is {@code epsilon}: this strategy
   * for a fixed one (the argument is ignored), the concrete pure-DP or zCDP strategy for a
   * report-budget one (attribution draft section 5, "optimization and safeguard").
   */
  default DpStrategy forRelease(Rational epsilon) {
    Objects.requireNonNull(epsilon, "epsilon");
    return this;
  }

  /** Returns a one-line description for people, e.g. "PureDpDiscreteLaplace(epsilon=1/2)". */
  String describe();

  /**
   * Returns the name task files write in {@code "dp_strategy"}: "NoDifferentialPrivacy",
   * "PureDpDiscreteLaplace" or "ZCdpDiscreteGaussian".
   */
  String name();

  /**
   * Returns the parameters by the names task files use, as exact fractions or integers
   * ({@link Rational#toString()}): {epsilon} for PureDpDiscreteLaplace, {rho} for
   * ZCdpDiscreteGaussian, none for NoDifferentialPrivacy.
   */
  Map<String, String> parameters();

  /**
   * Returns the guarantee the budget buys, for people: "pure DP", "zCDP", or "none" when the
   * strategy adds no noise.
   */
  String guarantee();

  /**
   * Returns true if the strategy has a fixed-work sampler ({@link #hardenedSampler}): both
   * noising strategies have one (which may still refuse a scale too large for it).
   */
  boolean hasHardenedSampler();

  /**
   * Returns the budget as people read it, the parameters as "name = value", e.g. "epsilon = 1/2";
   * empty when the strategy adds no noise.
   */
  default Optional<String> describeBudget() {
    return parameters().entrySet().stream()
        .map(e -> e.getKey() + " = " + e.getValue())
        .reduce((a, b) -> a + ", " + b);
  }

  /** No noise: the aggregate share is released as computed. No privacy guarantee. */
  record NoDifferentialPrivacy() implements DpStrategy {
    @Override
    public Optional<NoiseSampler> sampler(Sensitivity sensitivity) {
      Objects.requireNonNull(sensitivity, "sensitivity");
      return Optional.empty();
    }

    @Override
    public Optional<Budget> budget() {
      return Optional.empty();
    }

    @Override
    public int bindingCode() {
      return 0;
    }

    @Override
    public String describe() {
      return name();
    }

    @Override
    public String name() {
      return "NoDifferentialPrivacy";
    }

    @Override
    public Map<String, String> parameters() {
      return Map.of();
    }

    @Override
    public String guarantee() {
      return "none";
    }

    @Override
    public boolean hasHardenedSampler() {
      return false;
    }
  }

  /** Pure epsilon-DP: discrete Laplace noise with scale L1 sensitivity / epsilon. */
  record PureDpDiscreteLaplace(Rational epsilon) implements DpStrategy {
    /** Validates that epsilon > 0. */
    public PureDpDiscreteLaplace {
      new Budget.PureDp(epsilon); // validates non-null and > 0 with the budget's message
    }

    /** Parses epsilon from a decimal or a fraction ("0.5", "1/2"). */
    public static PureDpDiscreteLaplace parse(String epsilon) {
      return new PureDpDiscreteLaplace(Rational.parsePositive("epsilon", epsilon));
    }

    /** Returns the discrete Laplace sampler with scale L1 / epsilon. */
    public DiscreteLaplace laplace(Sensitivity sensitivity) {
      return DiscreteLaplace.forBudget(sensitivity.l1(), new Budget.PureDp(epsilon));
    }

    @Override
    public Optional<NoiseSampler> sampler(Sensitivity sensitivity) {
      return Optional.of(laplace(sensitivity));
    }

    /** Returns the fixed-work discrete Laplace with scale L1 / epsilon. */
    @Override
    public HardenedDiscreteLaplace hardenedSampler(Sensitivity sensitivity) {
      return laplace(sensitivity).hardened(); // throws beyond its largest scale (delta <= 2^-64), naming it
    }

    @Override
    public Optional<Budget> budget() {
      return Optional.of(new Budget.PureDp(epsilon));
    }

    @Override
    public int bindingCode() {
      return 1;
    }

    @Override
    public String describe() {
      return "PureDpDiscreteLaplace(epsilon=" + epsilon + ")";
    }

    @Override
    public String name() {
      return "PureDpDiscreteLaplace";
    }

    @Override
    public Map<String, String> parameters() {
      return Map.of("epsilon", epsilon.toString());
    }

    @Override
    public String guarantee() {
      return "pure DP";
    }

    @Override
    public boolean hasHardenedSampler() {
      return true;
    }
  }

  /** rho-zCDP: discrete Gaussian noise with sigma^2 = (L2 sensitivity)^2 / (2 rho). */
  record ZCdpDiscreteGaussian(Rational rho) implements DpStrategy {
    /** Validates that rho > 0. */
    public ZCdpDiscreteGaussian {
      new Budget.ZCdp(rho);
    }

    /** Parses rho from a decimal or a fraction ("0.5", "1/2"). */
    public static ZCdpDiscreteGaussian parse(String rho) {
      return new ZCdpDiscreteGaussian(Rational.parsePositive("rho", rho));
    }

    /** Returns the discrete Gaussian sampler with sigma^2 = L2^2 / (2 rho). */
    public DiscreteGaussian gaussian(Sensitivity sensitivity) {
      return DiscreteGaussian.forBudget(sensitivity.l2Squared(), new Budget.ZCdp(rho));
    }

    @Override
    public Optional<NoiseSampler> sampler(Sensitivity sensitivity) {
      return Optional.of(gaussian(sensitivity));
    }

    /** Returns the fixed-work discrete Gaussian with sigma^2 = L2^2 / (2 rho). */
    @Override
    public HardenedDiscreteGaussian hardenedSampler(Sensitivity sensitivity) {
      return gaussian(sensitivity).hardened(); // throws above sigma^2 = 10^18, naming it
    }

    @Override
    public Optional<Budget> budget() {
      return Optional.of(new Budget.ZCdp(rho));
    }

    @Override
    public int bindingCode() {
      return 2;
    }

    @Override
    public String describe() {
      return "ZCdpDiscreteGaussian(rho=" + rho + ")";
    }

    @Override
    public String name() {
      return "ZCdpDiscreteGaussian";
    }

    @Override
    public Map<String, String> parameters() {
      return Map.of("rho", rho.toString());
    }

    @Override
    public String guarantee() {
      return "zCDP";
    }

    @Override
    public boolean hasHardenedSampler() {
      return true;
    }
  }

  /**
   * Pure epsilon-DP with epsilon taken per release from the reports' privacy budgets
   * (draft-ietf-ppm-dap-attribution-00, sections 3 and 5): discrete Laplace noise with scale L1
   * sensitivity / epsilon_release, epsilon_release the collection job's min_dp_budget or else
   * the least privacy_budget of the batch's reports. The strategy itself cannot noise; {@link
   * #forRelease} gives the {@link PureDpDiscreteLaplace} of one release.
   */
  record ReportBudgetDiscreteLaplace() implements ReportBudget {
    /** Returns PureDpDiscreteLaplace(epsilon). */
    @Override
    public PureDpDiscreteLaplace forRelease(Rational epsilon) {
      return new PureDpDiscreteLaplace(epsilon);
    }

    @Override
    public int bindingCode() {
      return 3;
    }

    @Override
    public String describe() {
      return name();
    }

    @Override
    public String name() {
      return "ReportBudgetDiscreteLaplace";
    }

    @Override
    public Map<String, String> parameters() {
      return Map.of();
    }

    @Override
    public String guarantee() {
      return "pure DP at each release's epsilon";
    }

    @Override
    public Optional<String> describeBudget() {
      return Optional.of("epsilon from the reports' privacy_budget");
    }
  }

  /**
   * (epsilon, delta)-DP with epsilon taken per release from the reports' privacy budgets and the
   * deployment's fixed delta (draft-ietf-ppm-dap-attribution-00, section 3.2): discrete Gaussian
   * noise at the rho whose zCDP implies (epsilon_release, delta)-DP, rho a rational lower bound of
   * (sqrt(L + epsilon) - sqrt(L))^2 with L = ln(1/delta) ({@link ZCdpConversion#rhoFor}), so
   * sigma^2 = L2^2 / (2 rho). {@link #forRelease} gives the {@link ZCdpDiscreteGaussian} of one
   * release.
   *
   * @param delta the deployment's fixed delta, in (0, 1)
   */
  record ReportBudgetDiscreteGaussian(Rational delta) implements ReportBudget {
    /** Validates that 0 < delta < 1. */
    public ReportBudgetDiscreteGaussian {
      Objects.requireNonNull(delta, "delta");
      if (delta.signum() <= 0 || delta.compareTo(Rational.ONE) >= 0) {
        throw new IllegalArgumentException("delta must be in (0, 1), got " + delta);
      }
    }

    /** Parses delta from a decimal or a fraction ("0.000000001", "1/1000000000"). */
    public static ReportBudgetDiscreteGaussian parse(String delta) {
      return new ReportBudgetDiscreteGaussian(Rational.parsePositive("delta", delta));
    }

    @Override
    public Optional<Rational> bindingParameter() {
      return Optional.of(delta);
    }

    /** Returns ZCdpDiscreteGaussian(rho) with rho = {@link ZCdpConversion#rhoFor}(epsilon, delta). */
    @Override
    public ZCdpDiscreteGaussian forRelease(Rational epsilon) {
      return new ZCdpDiscreteGaussian(ZCdpConversion.rhoFor(epsilon, delta));
    }

    @Override
    public int bindingCode() {
      return 4;
    }

    @Override
    public String describe() {
      return "ReportBudgetDiscreteGaussian(delta=" + delta + ")";
    }

    @Override
    public String name() {
      return "ReportBudgetDiscreteGaussian";
    }

    @Override
    public Map<String, String> parameters() {
      return Map.of("delta", delta.toString());
    }

    @Override
    public String guarantee() {
      return "(epsilon, delta)-DP at each release's epsilon";
    }

    @Override
    public Optional<String> describeBudget() {
      return Optional.of("epsilon from the reports' privacy_budget, delta = " + delta);
    }
  }

  /**
   * The strategies whose epsilon comes from the reports' privacy budgets, one release at a time
   * (draft-ietf-ppm-dap-attribution-00, sections 3 and 5): they have no sampler and no budget of
   * their own; {@link #forRelease} gives the strategy of one release, which has both.
   */
  sealed interface ReportBudget extends DpStrategy
      permits ReportBudgetDiscreteLaplace, ReportBudgetDiscreteGaussian {
    /** Refuses: the scale depends on the release's epsilon. */
    @Override
    default Optional<NoiseSampler> sampler(Sensitivity sensitivity) {
      throw noEpsilon();
    }

    /** Refuses: the scale depends on the release's epsilon. */
    @Override
    default NoiseSampler hardenedSampler(Sensitivity sensitivity) {
      throw noEpsilon();
    }

    /** Returns empty: each release has its own budget. */
    @Override
    default Optional<Budget> budget() {
      return Optional.empty();
    }

    @Override
    default boolean budgetFromReports() {
      return true;
    }

    /** Returns true: the strategy of every release has a fixed-work sampler. */
    @Override
    default boolean hasHardenedSampler() {
      return true;
    }

    private IllegalArgumentException noEpsilon() {
      return new IllegalArgumentException(name() + " takes epsilon from the reports' privacy"
          + " budgets: build the mechanism of a release with forRelease(epsilon)");
    }
  }
}
