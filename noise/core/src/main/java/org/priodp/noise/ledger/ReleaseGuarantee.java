package org.priodp.noise.ledger;

import java.util.Objects;
import org.priodp.noise.Budget;
import org.priodp.noise.Rational;

/**
 * What one release of one batch gives one protected unit (issue 25, item 1): pure epsilon-DP or
 * rho-zCDP, and the total-variation distance of the released noise from the exact mechanism's.
 *
 * <p>The total variation is 0 for the exact samplers and n times the per-draw delta for the
 * fixed-work ones (n noised coordinates, {@link org.priodp.noise.HardenedDiscreteLaplace}).
 *
 * @param perRelease the exact mechanism's guarantee
 * @param totalVariation the distance to the exact mechanism, in [0, 1]
 */
public record ReleaseGuarantee(Budget perRelease, Rational totalVariation) {

  /**
   * Validates that both are present and the total variation lies in [0, 1].
   *
   * @throws IllegalArgumentException otherwise
   */
  public ReleaseGuarantee {
    Objects.requireNonNull(perRelease, "perRelease");
    Objects.requireNonNull(totalVariation, "totalVariation");
    if (totalVariation.signum() < 0 || totalVariation.compareTo(Rational.ONE) > 0) {
      throw new IllegalArgumentException("total variation must be in [0, 1], got " + totalVariation);
    }
  }

  /**
   * Returns the guarantee for a group of k reports (group privacy): epsilon becomes k epsilon,
   * rho becomes k^2 rho (Bun and Steinke 2016, Proposition 1.9); the total variation is
   * unchanged, since it bounds the distance between the fixed-work and the exact mechanism on the
   * same input, whatever the neighbouring relation.
   *
   * @throws IllegalArgumentException if k < 1
   */
  public ReleaseGuarantee forGroup(long k) {
    if (k < 1) {
      throw new IllegalArgumentException("group size must be >= 1, got " + k);
    }
    Rational factor = Rational.of(k);
    Budget grouped = perRelease instanceof Budget.PureDp p
        ? new Budget.PureDp(p.epsilon().multiply(factor))
        : new Budget.ZCdp(perRelease.parameter().multiply(factor.square()));
    return new ReleaseGuarantee(grouped, totalVariation);
  }
}
