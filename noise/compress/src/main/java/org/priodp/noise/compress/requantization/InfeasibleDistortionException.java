package org.priodp.noise.compress.requantization;

/**
 * Thrown when a distortion bound cannot be met at any finite epsilon (requantization paper, Eq.
 * (7) has an empty feasible set): carries the smallest achievable worst-case distortion.
 */
public final class InfeasibleDistortionException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final double requested;
  private final double smallestAchievable;

  /** Creates the exception with the requested bound, the smallest achievable one and a message. */
  public InfeasibleDistortionException(double requested, double smallestAchievable, String message) {
    super(message);
    this.requested = requested;
    this.smallestAchievable = smallestAchievable;
  }

  /** Returns the requested distortion bound. */
  public double requested() {
    return requested;
  }

  /** Returns the smallest achievable worst-case distortion (at epsilon -> infinity). */
  public double smallestAchievable() {
    return smallestAchievable;
  }
}
