package org.priodp.noise.compress.ppr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RenyiAccountantTest {
  /** Phi(x) by Simpson's rule on the density (accurate to ~1e-12 here). */
  static double phi(double x) {
    double lo = -40;
    int n = 200_000;
    double h = (x - lo) / n;
    double s = 0;
    for (int i = 0; i <= n; i++) {
      double t = lo + i * h;
      double f = Math.exp(-t * t / 2) / Math.sqrt(2 * Math.PI);
      s += (i == 0 || i == n) ? f : (i % 2 == 1 ? 4 * f : 2 * f);
    }
    return s * h / 3;
  }

  /** The exact privacy profile of the Gaussian mechanism (Balle and Wang 2018). */
  static double exactDelta(double eps, double mu) {
    return phi(1 / (2 * mu) - eps * mu) - Math.exp(eps) * phi(-1 / (2 * mu) - eps * mu);
  }

  @Test
  void gaussianSigmaIsSoundAndCloseToTheExactCalibration() {
    double delta = 1e-5;
    for (double eps : new double[] {0.5, 1, 2}) {
      double mu = RenyiAccountant.gaussianNoiseMultiplier(eps, delta);
      double classic = Math.sqrt(2 * Math.log(1.25 / delta)) / eps;
      // the exact (analytic) calibration: smallest mu with exactDelta <= delta
      double lo = 0.1;
      double hi = 100;
      for (int i = 0; i < 50; i++) {
        double mid = 0.5 * (lo + hi);
        if (exactDelta(eps, mid) > delta) {
          lo = mid;
        } else {
          hi = mid;
        }
      }
      System.out.printf("eps=%.1f delta=1e-5: RDP mu=%.4f exact mu=%.4f classic mu=%.4f%n", eps, mu, hi, classic);
      assertTrue(exactDelta(eps, mu) <= delta, "RDP calibration must be sound");
      assertTrue(mu >= hi && mu <= 1.15 * hi, "RDP sigma within 15% of the exact one");
      if (eps <= 1) {
        assertTrue(mu < classic, "RDP beats sqrt(2 ln(1.25/delta))/eps for eps <= 1");
      }
    }
    // known value: eps = 1, delta = 1e-5 needs the exact multiplier 3.73 (Balle and Wang, Fig. 1)
    double exact1 = 0;
    for (double m = 3.6; m < 3.9; m += 1e-4) {
      if (exactDelta(1, m) <= 1e-5) {
        exact1 = m;
        break;
      }
    }
    assertEquals(3.73, exact1, 0.01);
  }

  @Test
  void subsampledGaussianKnownCases() {
    // order 2 closed form: log(1 + gamma^2 (e^(1/mu^2) - 1))
    double g = 0.1;
    double mu = 1.5;
    assertEquals(Math.log1p(g * g * Math.expm1(1 / (mu * mu))), RenyiAccountant.subsampledGaussianRdp(2, g, mu), 1e-12);
    // gamma = 1 is the Gaussian mechanism, and CSGM on d coordinates of bound 1/sqrt(d) at rate 1
    // is the Gaussian mechanism on the vector
    assertEquals(RenyiAccountant.gaussianRdp(7, mu), RenyiAccountant.subsampledGaussianRdp(7, 1, mu), 1e-12);
    int d = 1000;
    double sigma = 2.0;
    double csgm = RenyiAccountant.csgmEpsilon(d, 1, sigma, 1 / Math.sqrt(d), 1e-6);
    double gauss = RenyiAccountant.gaussianEpsilon(sigma, 1e-6);
    assertEquals(gauss, csgm, 0.02 * gauss);
    // subsampling amplifies: a smaller rate needs less noise per coordinate sum (relative to gamma n)
    double s1 = RenyiAccountant.csgmSigma(d, 1, 1 / Math.sqrt(d), 1, 1e-6);
    double s01 = RenyiAccountant.csgmSigma(d, 0.1, 1 / Math.sqrt(d), 1, 1e-6);
    System.out.printf("CSGM d=1000 eps=1 delta=1e-6: sigma(gamma=1)=%.3f sigma(gamma=0.1)=%.3f%n", s1, s01);
    assertTrue(s01 < s1);
    assertThrows(IllegalArgumentException.class, () -> RenyiAccountant.subsampledGaussianRdp(1, 0.5, 1));
    assertThrows(IllegalArgumentException.class, () -> RenyiAccountant.gaussianEpsilon(1, 0));
    assertThrows(IllegalArgumentException.class, () -> RenyiAccountant.gaussianNoiseMultiplier(-1, 1e-5));
  }
}
