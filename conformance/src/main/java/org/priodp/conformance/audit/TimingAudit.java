package org.priodp.conformance.audit;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.function.LongSupplier;
import org.priodp.noise.DiscreteGaussian;
import org.priodp.noise.DiscreteLaplace;
import org.priodp.noise.HardenedDiscreteGaussian;
import org.priodp.noise.HardenedDiscreteLaplace;
import org.priodp.noise.RandomSource;
import org.priodp.noise.local.KaryRandomizedResponse;
import org.priodp.noise.local.RandomizedResponse;
import org.priodp.noise.local.SymmetricRappor;

/**
 * A dudect-style timing audit (Reparaz, Balasch and Verbauwhede, "Dude, is my code constant
 * time?", DATE 2017): each draw of a sampler is timed on its own, classified by its output into
 * two classes, and Welch's t statistic tests whether the two classes' mean running times
 * differ. |t| > {@value #THRESHOLD} is dudect's threshold for a leak.
 *
 * <p>Targets run interleaved (a batch of each in a fresh random order per round, so that drift
 * of the machine hits all of them alike) after a warm-up that lets the JIT compile them. Each
 * draw is timed with {@link System#nanoTime} around the call alone; its input (for the local
 * randomizers, the true bucket) is chosen before the clock starts and its class is computed after
 * it stops (a branch on the output inside the timed region would itself leak the class). As dudect does, the statistic
 * is also computed on the measurements below the 90th percentile of the target's times, which
 * removes most interrupts, garbage collections and generator refills (large, rare and not
 * related to the class).
 *
 * <p>Doubles are used throughout: these are figures for people about running times, not
 * sampling.
 */
public final class TimingAudit {

  /** dudect's threshold: |t| above it means the two classes' running times differ. */
  public static final double THRESHOLD = 4.5;

  private TimingAudit() {}

  // ------------------------------------------------------------------ statistics

  /** Welford's running mean and variance of one class. */
  public static final class Moments {
    private long n;
    private double mean;
    private double m2;

    /** Adds one observation. */
    public void add(double x) {
      n++;
      double d = x - mean;
      mean += d / n;
      m2 += d * (x - mean);
    }

    /** Returns the number of observations. */
    public long count() {
      return n;
    }

    /** Returns the mean (0 when empty). */
    public double mean() {
      return mean;
    }

    /** Returns the unbiased sample variance (0 with fewer than two observations). */
    public double variance() {
      return n < 2 ? 0 : m2 / (n - 1);
    }
  }

  /**
   * Returns Welch's t = (mean0 - mean1) / sqrt(var0/n0 + var1/n1). With zero variance in both
   * classes it is 0 for equal means and +-infinity otherwise; NaN if a class is empty.
   */
  public static double welchT(Moments c0, Moments c1) {
    if (c0.count() == 0 || c1.count() == 0) {
      return Double.NaN;
    }
    double diff = c0.mean() - c1.mean();
    double se2 = c0.variance() / c0.count() + c1.variance() / c1.count();
    if (se2 == 0) {
      return diff == 0 ? 0 : Math.copySign(Double.POSITIVE_INFINITY, diff);
    }
    return diff / Math.sqrt(se2);
  }

  /** Welch's t of the times whose class is 0 against those whose class is 1. */
  public static double welchT(long[] times, boolean[] inClass1, long maxTime) {
    Moments c0 = new Moments();
    Moments c1 = new Moments();
    for (int i = 0; i < times.length; i++) {
      if (times[i] <= maxTime) {
        (inClass1[i] ? c1 : c0).add(times[i]);
      }
    }
    return welchT(c0, c1);
  }

  /** The smallest value v such that at least a fraction q of the values are <= v. */
  public static long percentile(long[] values, double q) {
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    int i = (int) Math.ceil(q * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
  }

  // ------------------------------------------------------------------ targets

  /**
   * One thing to time. {@link #prepare} runs outside the clock (to choose an input), {@link #run}
   * inside it and keeps the output; {@link #key} runs outside the clock again and reduces the
   * output to a key (for example |z|), so that no comparison or branch on the output is timed;
   * {@link #classify} maps all keys to classes at the end (for example splitting at their
   * median).
   */
  public interface Target {
    /** Returns the name shown in the report. */
    String name();

    /** Called before each timed draw, outside the clock. */
    default void prepare() {}

    /** Does one draw and keeps its output. */
    void run();

    /** Returns the key of the output of the last draw (outside the clock). */
    long key();

    /** Maps every key to its class (true: class 1) and returns how the classes were formed. */
    String classify(long[] keys, boolean[] inClass1);
  }

  /** Splits keys at their median: class 0 is key <= median, class 1 is key > median. */
  static String splitAtMedian(long[] keys, boolean[] inClass1, String what) {
    long median = percentile(keys, 0.5);
    for (int i = 0; i < keys.length; i++) {
      inClass1[i] = keys[i] > median;
    }
    return what + " <= " + median + " vs > " + median;
  }

  /** A discrete Laplace sampler (plain or hardened), classified by |z| at its median. */
  public static Target laplace(String name, org.priodp.noise.NoiseSampler sampler, RandomSource rnd) {
    return noise(name, sampler, rnd);
  }

  /**
   * A noise sampler (discrete Laplace or Gaussian, exact or fixed-work), classified by |z| at its
   * median: small against large noise.
   */
  public static Target noise(String name, org.priodp.noise.NoiseSampler sampler, RandomSource rnd) {
    Objects.requireNonNull(sampler, "sampler");
    return new Target() {
      @Override
      public String name() {
        return name;
      }

      private long z;

      @Override
      public void run() {
        z = sampler.sample(rnd);
      }

      @Override
      public long key() {
        return Math.abs(z);
      }

      @Override
      public String classify(long[] keys, boolean[] inClass1) {
        return splitAtMedian(keys, inClass1, "|z|");
      }
    };
  }

  /**
   * The random-label control: the same draws as {@code inner}, but each assigned to a class by a
   * seeded coin instead of by its output. Its |t| shows how large t gets when the classes cannot
   * differ (dudect's sanity check).
   */
  public static Target randomLabels(Target inner, long seed) {
    Objects.requireNonNull(inner, "inner");
    return new Target() {
      @Override
      public String name() {
        return inner.name() + " (random labels)";
      }

      @Override
      public void prepare() {
        inner.prepare();
      }

      @Override
      public void run() {
        inner.run();
      }

      @Override
      public long key() {
        return inner.key();
      }

      @Override
      public String classify(long[] keys, boolean[] inClass1) {
        SplittableRandom coin = new SplittableRandom(seed);
        for (int i = 0; i < keys.length; i++) {
          inClass1[i] = coin.nextBoolean();
        }
        return "random labels (control)";
      }
    };
  }

  /** Binary RR of a random true bit, classified by whether the bit was flipped. */
  public static Target rr(RandomizedResponse rr, boolean fixedWork, RandomSource rnd, SplittableRandom inputs) {
    return new Target() {
      private int bit;
      private int report;

      @Override
      public String name() {
        String p = rr.flipProbability() instanceof org.priodp.noise.local.FlipProbability.OfEpsilon e
            ? "eps=" + e.epsilon() : rr.flipProbability().toString();
        return "RR " + p + (fixedWork ? " fixed-work" : "");
      }

      @Override
      public void prepare() {
        bit = inputs.nextInt(2);
      }

      @Override
      public void run() {
        report = fixedWork ? rr.randomizeFixedWork(bit, rnd) : rr.randomize(bit, rnd);
      }

      @Override
      public long key() {
        return report == bit ? 0 : 1;
      }

      @Override
      public String classify(long[] keys, boolean[] inClass1) {
        for (int i = 0; i < keys.length; i++) {
          inClass1[i] = keys[i] == 1;
        }
        return "true bit kept vs flipped";
      }
    };
  }

  /** k-RR of a random true bucket, classified by whether the report is the true bucket. */
  public static Target kRr(KaryRandomizedResponse krr, boolean fixedWork, RandomSource rnd,
      SplittableRandom inputs) {
    return new Target() {
      private int bucket;

      @Override
      public String name() {
        return "k-RR k=" + krr.k() + " eps=" + krr.epsilon() + (fixedWork ? " fixed-work" : "");
      }

      @Override
      public void prepare() {
        bucket = inputs.nextInt(krr.k());
      }

      private int report;

      @Override
      public void run() {
        report = fixedWork ? krr.randomizeFixedWork(bucket, rnd) : krr.randomize(bucket, rnd);
      }

      @Override
      public long key() {
        return report == bucket ? 0 : 1;
      }

      @Override
      public String classify(long[] keys, boolean[] inClass1) {
        for (int i = 0; i < keys.length; i++) {
          inClass1[i] = keys[i] == 1;
        }
        return "true vs other bucket";
      }
    };
  }

  /** RAPPOR of a random true bucket, classified by whether the true bucket's bit was flipped. */
  public static Target rappor(SymmetricRappor rappor, boolean fixedWork, RandomSource rnd,
      SplittableRandom inputs) {
    return new Target() {
      private int bucket;

      @Override
      public String name() {
        return "RAPPOR len=" + rappor.length() + " eps=" + rappor.epsilon() + (fixedWork ? " fixed-work" : "");
      }

      @Override
      public void prepare() {
        bucket = inputs.nextInt(rappor.length());
      }

      private boolean[] y;

      @Override
      public void run() {
        y = fixedWork ? rappor.randomizeFixedWork(bucket, rnd) : rappor.randomize(bucket, rnd);
      }

      @Override
      public long key() {
        return y[bucket] ? 0 : 1;
      }

      @Override
      public String classify(long[] keys, boolean[] inClass1) {
        for (int i = 0; i < keys.length; i++) {
          inClass1[i] = keys[i] == 1;
        }
        return "true bit kept vs flipped";
      }
    };
  }

  /**
   * The targets of {@code prio-dp audit timing}, each with its own production source: the plain
   * and hardened discrete Laplace; for each sigma^2 the exact and the hardened discrete Gaussian,
   * with the random-label control on the first exact Gaussian; and binary RR, k-RR and RAPPOR
   * (with the epsilon of k-RR) both exact (variable work) and fixed-work (what the client path,
   * {@code LocalRandomization}, uses).
   */
  public static List<Target> standardTargets(org.priodp.noise.Rational scale,
      List<org.priodp.noise.Rational> sigma2s, KaryRandomizedResponse krr, SymmetricRappor rappor,
      long inputSeed) {
    DiscreteLaplace plain = DiscreteLaplace.of(scale);
    HardenedDiscreteLaplace hardened = plain.hardened();
    List<Target> gaussians = new ArrayList<>();
    for (org.priodp.noise.Rational s2 : sigma2s) {
      DiscreteGaussian exact = DiscreteGaussian.of(s2);
      HardenedDiscreteGaussian fixed = exact.hardened();
      gaussians.add(noise("exact discrete Gaussian s2=" + s2, exact, RandomSource.secure()));
      gaussians.add(noise("hardened discrete Gaussian s2=" + s2, fixed, RandomSource.secure()));
      if (gaussians.size() == 2) {
        gaussians.add(randomLabels(noise("exact discrete Gaussian s2=" + s2, exact, RandomSource.secure()),
            inputSeed + 6));
      }
    }
    List<Target> all = new ArrayList<>(List.of(
        laplace("plain discrete Laplace t=" + scale, plain, RandomSource.secure()),
        laplace("hardened discrete Laplace t=" + scale, hardened, RandomSource.secure())));
    all.addAll(gaussians);
    all.addAll(List.of(
        rr(RandomizedResponse.ofEpsilon(krr.epsilon()), false, RandomSource.secure(), new SplittableRandom(inputSeed + 4)),
        rr(RandomizedResponse.ofEpsilon(krr.epsilon()), true, RandomSource.secure(), new SplittableRandom(inputSeed + 5)),
        kRr(krr, false, RandomSource.secure(), new SplittableRandom(inputSeed)),
        kRr(krr, true, RandomSource.secure(), new SplittableRandom(inputSeed + 1)),
        rappor(rappor, false, RandomSource.secure(), new SplittableRandom(inputSeed + 2)),
        rappor(rappor, true, RandomSource.secure(), new SplittableRandom(inputSeed + 3))));
    return List.copyOf(all);
  }

  // ------------------------------------------------------------------ measurement

  /**
   * The outcome for one target: class sizes and mean times (ns), and t over all measurements and
   * over those below the 90th percentile of the times.
   */
  public record Result(String target, String classes, long n0, long n1, double mean0, double mean1,
      double t, double tCropped) {

    /** True if either statistic exceeds {@link #THRESHOLD} in absolute value. */
    public boolean leaks() {
      return Math.abs(t) > THRESHOLD || Math.abs(tCropped) > THRESHOLD;
    }
  }

  /**
   * Times {@code measurements} draws of every target, interleaved in batches of {@code batch}
   * after {@code warmup} untimed draws of each, with the given clock (System::nanoTime in
   * production; tests pass a synthetic one).
   */
  public static List<Result> run(List<Target> targets, int measurements, int warmup, int batch,
      LongSupplier clock, long orderSeed) {
    if (measurements < 2 || warmup < 0 || batch < 1) {
      throw new IllegalArgumentException("need measurements >= 2, warmup >= 0 and batch >= 1");
    }
    int k = targets.size();
    long sink = 0;
    for (int w = 0; w < warmup; w++) {
      for (Target t : targets) {
        t.prepare();
        t.run();
        sink += t.key();
      }
    }
    long[][] times = new long[k][measurements];
    long[][] keys = new long[k][measurements];
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < k; i++) {
      order.add(i);
    }
    java.util.Random shuffle = new java.util.Random(orderSeed);
    for (int done = 0; done < measurements; done += batch) {
      int end = Math.min(measurements, done + batch);
      Collections.shuffle(order, shuffle);
      for (int ti : order) {
        Target t = targets.get(ti);
        long[] tt = times[ti];
        long[] kk = keys[ti];
        for (int i = done; i < end; i++) {
          t.prepare();
          long start = clock.getAsLong();
          t.run();
          long stop = clock.getAsLong();
          tt[i] = stop - start;
          kk[i] = t.key();
        }
      }
    }
    List<Result> results = new ArrayList<>();
    for (int ti = 0; ti < k; ti++) {
      Target t = targets.get(ti);
      boolean[] in1 = new boolean[measurements];
      String classes = t.classify(keys[ti], in1);
      sink += keys[ti][0];
      Moments c0 = new Moments();
      Moments c1 = new Moments();
      for (int i = 0; i < measurements; i++) {
        (in1[i] ? c1 : c0).add(times[ti][i]);
      }
      long p90 = percentile(times[ti], 0.9);
      results.add(new Result(t.name(), classes, c0.count(), c1.count(), c0.mean(), c1.mean(),
          welchT(c0, c1), welchT(times[ti], in1, p90)));
    }
    if (sink == 42) { // keeps the draws alive
      System.out.print("");
    }
    return results;
  }

  /** Returns the smallest positive difference between successive readings of the clock, in ns. */
  public static long clockResolution(LongSupplier clock) {
    long best = Long.MAX_VALUE;
    for (int i = 0; i < 10_000; i++) {
      long a = clock.getAsLong();
      long b = clock.getAsLong();
      while (b == a) {
        b = clock.getAsLong();
      }
      best = Math.min(best, b - a);
    }
    return best;
  }
}
