package org.priodp.noise.compress.requantization;

import java.util.Objects;

/**
 * The result of designing a randomized requantization channel (requantization paper, Eq. (7)):
 * the bisection's target epsilon and LP distortion, and the deployed exact channel with the
 * epsilon it actually guarantees ({@code channel().epsilon()}, the one prio-dp reports) and its
 * worst-case distortion over the family.
 *
 * @param distortionBound the requested delta
 * @param targetEpsilon the bisection's epsilon (the LP's ratio bound was e^targetEpsilon); not a guarantee
 * @param lpDistortion the worst-case distortion of the LP's double matrix
 * @param channel the exact channel
 * @param channelDistortion the worst-case distortion of the exact channel over the family
 * @param minimumDistortion the smallest achievable worst-case distortion (epsilon -> infinity)
 * @param lpSolves the number of LPs the bisection solved (in a sweep, those not already solved for an
 *     earlier bound; reported as at least 1)
 */
public record RequantizationDesign(double distortionBound, double targetEpsilon, double lpDistortion,
    RequantizationChannel channel, double channelDistortion, double minimumDistortion, int lpSolves) {

  /** Validates the fields. */
  public RequantizationDesign {
    Objects.requireNonNull(channel, "channel");
    if (!(targetEpsilon >= 0) || !(lpDistortion >= 0) || !(channelDistortion >= 0) || lpSolves < 1) {
      throw new IllegalArgumentException("malformed design: epsilon " + targetEpsilon + ", distortion " + lpDistortion);
    }
  }

  /** Returns the epsilon the exact channel guarantees (ln of its exact maximum ratio, rounded up). */
  public double guaranteedEpsilon() {
    return channel.epsilon();
  }
}
