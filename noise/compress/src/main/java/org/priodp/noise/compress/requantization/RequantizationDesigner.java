package org.priodp.noise.compress.requantization;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.hipparchus.exception.MathIllegalStateException;
import org.hipparchus.optim.MaxIter;
import org.hipparchus.optim.PointValuePair;
import org.hipparchus.optim.linear.LinearConstraint;
import org.hipparchus.optim.linear.LinearConstraintSet;
import org.hipparchus.optim.linear.LinearObjectiveFunction;
import org.hipparchus.optim.linear.NonNegativeConstraint;
import org.hipparchus.optim.linear.Relationship;
import org.hipparchus.optim.linear.SimplexSolver;
import org.hipparchus.optim.nonlinear.scalar.GoalType;

/**
 * Designs the privacy-optimal randomized requantization channel (requantization paper, Sec. 3,
 * program (8)-(11)): the smallest epsilon for which some right-stochastic Q with Q(x-hat|x) <=
 * e^epsilon Q(x-hat|x~) has worst-case expected squared error at most delta over a family of input
 * distributions, found by bisection on a = e^epsilon (the sublevel sets are convex, Theorem 1)
 * with one linear program per step.
 *
 * <p>At fixed a the LP minimises t subject to E_{P x Q}[d] <= t for every P of the family (Eq.
 * (13)), rows summing to one (11) and the ratio constraints (1). The ratio constraints are written
 * in an equivalent compact form: for each output j a variable m_j with m_j <= Q(j|x) <= a m_j for
 * all x (take m_j = min_x Q(j|x)); substituting Q(j|x) = m_j + u_xj with 0 <= u_xj <= (a - 1) m_j
 * leaves |X||X-hat| inequalities instead of |X|^2 |X-hat|. The family enters by cutting planes:
 * the LP starts with one member and adds the most violated one until none exceeds t, which gives
 * the same optimum as the full LP.
 *
 * <p>The LP is solved in doubles by Hipparchus' simplex solver (design brief, non-negotiable 1
 * allows it here); the result is only a design. {@link RequantizationDesign#channel()} is the
 * exact rational channel, and its epsilon is computed from the exact matrix.
 */
public final class RequantizationDesigner {

  /** Largest epsilon the bisection will try; beyond it the LP's coefficients lose precision. */
  public static final double MAX_EPSILON = 25.0;

  /** Absolute tolerance of the bisection on epsilon. */
  public static final double EPSILON_TOLERANCE = 1e-4;

  /** Relative tolerance with which a family member may exceed the LP's bound t at termination. */
  public static final double LP_TOLERANCE = 1e-9;

  private final LloydMaxQuantizer input;
  private final LloydMaxQuantizer output;
  private final DistributionFamily family;
  private final double[][] d;
  private final double[][] weighted; // weighted[k][i*m + j] = P_k(i) d(i, j)
  private final double minimumDistortion;
  private final int worstAtInfinity;

  private RequantizationDesigner(LloydMaxQuantizer input, LloydMaxQuantizer output, DistributionFamily family) {
    this.input = input;
    this.output = output;
    this.family = family;
    int n = input.size();
    int m = output.size();
    d = new double[n][m];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < m; j++) {
        double e = input.level(i) - output.level(j);
        d[i][j] = e * e;
      }
    }
    weighted = new double[family.size()][n * m];
    double best = -1;
    int arg = 0;
    for (int k = 0; k < family.size(); k++) {
      double[] p = family.pmfs().get(k);
      double atInf = 0;
      for (int i = 0; i < n; i++) {
        double nearest = Double.POSITIVE_INFINITY;
        for (int j = 0; j < m; j++) {
          weighted[k][i * m + j] = p[i] * d[i][j];
          nearest = Math.min(nearest, d[i][j]);
        }
        atInf += p[i] * nearest;
      }
      if (atInf > best) {
        best = atInf;
        arg = k;
      }
    }
    minimumDistortion = best;
    worstAtInfinity = arg;
  }

  /**
   * Returns a designer for the given alphabets (|X-hat| <= |X|, the compression ratio of Eq. (2)
   * is log2|X-hat| / log2|X|) and family.
   *
   * @throws IllegalArgumentException if the family is not over the input levels, there are more
   *     outputs than inputs, or the LP would exceed 4096 channel entries
   */
  public static RequantizationDesigner of(LloydMaxQuantizer input, LloydMaxQuantizer output, DistributionFamily family) {
    Objects.requireNonNull(input, "input");
    Objects.requireNonNull(output, "output");
    Objects.requireNonNull(family, "family");
    if (family.inputSize() != input.size()) {
      throw new IllegalArgumentException("the family is over " + family.inputSize() + " levels, the input has " + input.size());
    }
    if (output.size() > input.size()) {
      throw new IllegalArgumentException("requantization needs |X-hat| <= |X|, got " + output.size() + " > " + input.size());
    }
    if (input.size() * output.size() > 4096) {
      throw new IllegalArgumentException("the channel has " + input.size() * output.size() + " entries; at most 4096 are supported");
    }
    return new RequantizationDesigner(input, output, family);
  }

  /** Returns the family the distortion bound holds for. */
  public DistributionFamily family() {
    return family;
  }

  /**
   * Returns the smallest worst-case distortion any channel reaches, at epsilon = infinity: the
   * deterministic nearest-level requantizer is optimal for every member at once, so this is the
   * largest over the family of E_P[min_x-hat d(x, x-hat)]. A finite epsilon needs delta above it.
   */
  public double minimumDistortion() {
    return minimumDistortion;
  }

  /** The LP's answer at a fixed ratio bound a = e^epsilon. */
  public record FixedRatio(double expEpsilon, double worstCaseDistortion, double[][] q) {
    /** Validates the ratio and copies the matrix. */
    public FixedRatio {
      if (!(expEpsilon >= 1)) {
        throw new IllegalArgumentException("e^epsilon must be >= 1, got " + expEpsilon);
      }
      q = deepCopy(q);
    }

    /** Returns a copy of the double channel matrix. */
    @Override
    public double[][] q() {
      return deepCopy(q);
    }
  }

  /**
   * Minimises the worst-case expected distortion over the family among channels with ratio
   * bound {@code expEpsilon} (one bisection step's LP). The distortion returned is re-evaluated on
   * the LP's matrix for every member of the family.
   *
   * @throws IllegalArgumentException if {@code expEpsilon} is not finite and >= 1
   */
  public FixedRatio minimizeDistortion(double expEpsilon) {
    return solve(expEpsilon, new Session());
  }

  /**
   * State shared by the LPs of one design call (or one sweep): the family members that were ever
   * binding seed each new LP's cutting planes, and every solved ratio brackets later bisections.
   */
  private final class Session {
    final List<Integer> active = new ArrayList<>(List.of(worstAtInfinity));
    final java.util.TreeMap<Double, FixedRatio> solved = new java.util.TreeMap<>(); // epsilon -> LP
    int solves;

    FixedRatio at(double epsilon) {
      FixedRatio r = solved.get(epsilon);
      if (r == null) {
        r = solve(Math.exp(epsilon), this);
        solved.put(epsilon, r);
        solves++;
      }
      return r;
    }
  }

  private FixedRatio solve(double expEpsilon, Session session) {
    if (!(expEpsilon >= 1) || Double.isInfinite(expEpsilon)) {
      throw new IllegalArgumentException("e^epsilon must be finite and >= 1, got " + expEpsilon);
    }
    int n = input.size();
    int m = output.size();
    int vars = m + n * m + 1;
    int t = vars - 1;
    List<LinearConstraint> base = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < m; j++) {
        double[] c = new double[vars];
        c[m + i * m + j] = 1;
        c[j] = -(expEpsilon - 1);
        base.add(new LinearConstraint(c, Relationship.LEQ, 0));
      }
    }
    for (int i = 0; i < n; i++) {
      double[] c = new double[vars];
      for (int j = 0; j < m; j++) {
        c[j] = 1;
        c[m + i * m + j] = 1;
      }
      base.add(new LinearConstraint(c, Relationship.EQ, 1));
    }
    double[] obj = new double[vars];
    obj[t] = 1;
    LinearObjectiveFunction f = new LinearObjectiveFunction(obj, 0);
    List<Integer> active = session.active; // grows: members binding here are tried first next time
    SimplexSolver solver = new SimplexSolver();
    while (true) {
      List<LinearConstraint> all = new ArrayList<>(base);
      for (int k : active) {
        double[] c = new double[vars];
        for (int i = 0; i < n; i++) {
          for (int j = 0; j < m; j++) {
            c[j] += weighted[k][i * m + j];
            c[m + i * m + j] = weighted[k][i * m + j];
          }
        }
        c[t] = -1;
        all.add(new LinearConstraint(c, Relationship.LEQ, 0));
      }
      PointValuePair sol;
      try {
        sol = solver.optimize(new MaxIter(1_000_000), f, new LinearConstraintSet(all), GoalType.MINIMIZE,
            new NonNegativeConstraint(true));
      } catch (MathIllegalStateException e) {
        throw new IllegalStateException("the simplex solver failed at e^epsilon = " + expEpsilon + ": " + e.getMessage(), e);
      }
      double[] x = sol.getPoint();
      double[][] q = new double[n][m];
      for (int i = 0; i < n; i++) {
        double s = 0;
        for (int j = 0; j < m; j++) {
          q[i][j] = Math.max(0, x[j] + x[m + i * m + j]);
          s += q[i][j];
        }
        for (int j = 0; j < m; j++) {
          q[i][j] /= s;
        }
      }
      double worst = -1;
      int arg = -1;
      for (int k = 0; k < family.size(); k++) {
        double v = 0;
        for (int i = 0; i < n; i++) {
          for (int j = 0; j < m; j++) {
            v += weighted[k][i * m + j] * q[i][j];
          }
        }
        if (v > worst) {
          worst = v;
          arg = k;
        }
      }
      if (worst <= x[t] * (1 + LP_TOLERANCE) + LP_TOLERANCE || active.contains(arg)) {
        return new FixedRatio(expEpsilon, worst, q);
      }
      active.add(arg);
    }
  }

  /**
   * Finds the smallest epsilon with worst-case distortion at most {@code delta} (Eq. (7)) by
   * bisection on epsilon to within {@link #EPSILON_TOLERANCE}, and returns the design with its
   * exact channel.
   *
   * @throws InfeasibleDistortionException if delta is at or below {@link #minimumDistortion()}
   *     (or so close to it that epsilon would exceed {@link #MAX_EPSILON})
   * @throws IllegalArgumentException if delta is not finite and > 0
   */
  public RequantizationDesign design(double delta) {
    return design(delta, new Session());
  }

  /**
   * Designs one channel per distortion bound, as {@link #design(double)} does, sharing the LPs
   * between the bisections: every solved ratio brackets the later searches, and family members
   * found binding seed later LPs. The epsilons agree with separate designs to within {@link
   * #EPSILON_TOLERANCE}; an infeasible bound gives null in its place.
   */
  public List<RequantizationDesign> designAll(double... deltas) {
    Session session = new Session();
    List<RequantizationDesign> out = new ArrayList<>();
    for (double delta : deltas) {
      try {
        out.add(design(delta, session));
      } catch (InfeasibleDistortionException e) {
        out.add(null);
      }
    }
    return out;
  }

  private RequantizationDesign design(double delta, Session session) {
    if (!(delta > 0) || Double.isInfinite(delta)) {
      throw new IllegalArgumentException("the distortion bound must be a finite number > 0, got " + delta);
    }
    if (delta <= minimumDistortion) {
      throw new InfeasibleDistortionException(delta, minimumDistortion,
          "distortion bound " + delta + " is infeasible for " + input.size() + " -> " + output.size()
              + " levels: the smallest achievable worst-case distortion is " + minimumDistortion
              + " (approached only as epsilon -> infinity); choose a larger bound");
    }
    int before = session.solves;
    FixedRatio zero = session.at(0.0);
    if (zero.worstCaseDistortion() <= delta) {
      return finish(0.0, zero, delta, Math.max(1, session.solves - before));
    }
    // Bracket with the LPs solved so far (D(e^epsilon) does not increase with epsilon).
    double hi = Double.NaN;
    FixedRatio best = null;
    for (var e : session.solved.entrySet()) {
      if (e.getValue().worstCaseDistortion() <= delta) {
        hi = e.getKey();
        best = e.getValue();
        break;
      }
    }
    double lo = 0;
    for (var e : session.solved.entrySet()) {
      if ((Double.isNaN(hi) || e.getKey() < hi) && e.getValue().worstCaseDistortion() > delta) {
        lo = Math.max(lo, e.getKey());
      }
    }
    if (best == null) {
      hi = Math.max(1, lo);
      while (true) {
        FixedRatio r = session.at(hi);
        if (r.worstCaseDistortion() <= delta) {
          best = r;
          break;
        }
        lo = hi;
        if (hi >= MAX_EPSILON) {
          throw new InfeasibleDistortionException(delta, minimumDistortion,
              "distortion bound " + delta + " needs epsilon > " + MAX_EPSILON + " (the smallest achievable worst-case distortion is "
                  + minimumDistortion + ", at epsilon -> infinity); choose a larger bound");
        }
        hi = Math.min(MAX_EPSILON, 2 * hi);
      }
    }
    while (hi - lo > EPSILON_TOLERANCE) {
      double mid = 0.5 * (lo + hi);
      FixedRatio r = session.at(mid);
      if (r.worstCaseDistortion() <= delta) {
        hi = mid;
        best = r;
      } else {
        lo = mid;
      }
    }
    return finish(hi, best, delta, Math.max(1, session.solves - before));
  }

  private RequantizationDesign finish(double target, FixedRatio r, double delta, int solves) {
    RequantizationChannel channel = RequantizationChannel.fromDoubles(input, output, r.q());
    return new RequantizationDesign(delta, target, r.worstCaseDistortion(), channel, channel.worstCaseDistortion(family),
        minimumDistortion, solves);
  }

  private static double[][] deepCopy(double[][] q) {
    Objects.requireNonNull(q, "q");
    double[][] c = new double[q.length][];
    for (int i = 0; i < q.length; i++) {
      c[i] = q[i].clone();
    }
    return c;
  }
}
