package org.priodp.aggregator.cli;

import org.priodp.vdaf.dp.DpStrategy;
import org.priodp.vdaf.dp.SensitivityRule;
import picocli.CommandLine.Option;

/** The command-line options that choose a DP strategy and the sensitivity rule. */
final class DpOptions {
  @Option(names = "--epsilon", paramLabel = "EPSILON",
      description = "Pure epsilon-DP with discrete Laplace noise (decimal or fraction, e.g. 1, 0.5, 1/2).")
  String epsilon;

  @Option(names = "--rho", paramLabel = "RHO",
      description = "rho-zCDP with discrete Gaussian noise (decimal or fraction, e.g. 1/2).")
  String rho;

  @Option(names = "--sensitivity-rule", paramLabel = "RULE", defaultValue = "priodp",
      description = "priodp: SumVec L1 = length * max_measurement; janus: length * (2^bits - 1)"
          + ", as libprio-rs and Janus compute it.")
  String rule;

  /** Returns true if --epsilon or --rho was given. */
  boolean given() {
    return epsilon != null || rho != null;
  }

  /** Returns the strategy: Laplace for --epsilon, Gaussian for --rho, none without either. */
  DpStrategy strategy() {
    if (epsilon != null && rho != null) {
      throw new IllegalArgumentException("give --epsilon or --rho, not both");
    }
    if (epsilon != null) {
      return DpStrategy.PureDpDiscreteLaplace.parse(epsilon);
    }
    if (rho != null) {
      return DpStrategy.ZCdpDiscreteGaussian.parse(rho);
    }
    return new DpStrategy.NoDifferentialPrivacy();
  }

  /** Returns the sensitivity rule. */
  SensitivityRule rule() {
    return SensitivityRule.parse("--sensitivity-rule", rule);
  }
}
