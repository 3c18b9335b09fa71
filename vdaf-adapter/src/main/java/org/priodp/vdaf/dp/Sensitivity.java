package org.priodp.vdaf.dp;

import java.math.BigInteger;
import java.util.Objects;
import org.priodp.vdaf.Prio3Variant;

/**
 * The global sensitivity of a Prio3 variant's aggregation function under replacement of one
 * measurement, as exact integers: the L1 sensitivity (for pure DP, DESIGN.md "Facts: the
 * mechanism") and the squared L2 sensitivity (for zCDP).
 *
 * <table>
 *   <caption>Sensitivities</caption>
 *   <tr><th>variant</th><th>L1</th><th>L2 squared</th></tr>
 *   <tr><td>Count</td><td>1</td><td>1</td></tr>
 *   <tr><td>Sum(max)</td><td>max</td><td>max^2</td></tr>
 *   <tr><td>SumVec(length, max)</td><td>length * max</td><td>length * max^2</td></tr>
 *   <tr><td>Histogram(length)</td><td>2</td><td>2</td></tr>
 *   <tr><td>MultihotCountVec(length, w)</td><td>min(2w, length)</td><td>min(2w, length)</td></tr>
 *   <tr><td>L1BoundSum(length, max_value)</td><td>2 max_value (max_value if length is 1)</td>
 *       <td>2 max_value^2 (max_value^2 if length is 1)</td></tr>
 * </table>
 *
 * <p>Under {@link SensitivityRule#JANUS_COMPATIBLE}, SumVec uses 2^bits - 1 in place of max
 * (libprio-rs and Janus); the other variants are unchanged.
 *
 * @param l1 the L1 sensitivity, > 0
 * @param l2Squared the squared L2 sensitivity, > 0
 * @param rule the rule that produced them
 */
public record Sensitivity(BigInteger l1, BigInteger l2Squared, SensitivityRule rule) {

  /** Validates that both sensitivities are > 0. */
  public Sensitivity {
    Objects.requireNonNull(l1, "l1");
    Objects.requireNonNull(l2Squared, "l2Squared");
    Objects.requireNonNull(rule, "rule");
    if (l1.signum() <= 0 || l2Squared.signum() <= 0) {
      throw new IllegalArgumentException(
          "sensitivities must be > 0, got L1 " + l1 + ", squared L2 " + l2Squared);
    }
  }

  /** Returns the sensitivity of a variant under prio-dp's rule ({@link SensitivityRule#PRIODP}). */
  public static Sensitivity of(Prio3Variant variant) {
    return of(variant, SensitivityRule.PRIODP);
  }

  /** Returns the sensitivity of a variant under the given rule ({@link Prio3Variant#sensitivity}). */
  public static Sensitivity of(Prio3Variant variant, SensitivityRule rule) {
    Objects.requireNonNull(variant, "variant");
    Objects.requireNonNull(rule, "rule");
    return variant.sensitivity(rule);
  }
}
