package org.priodp.conformance.bench;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.priodp.noise.DiscreteGaussian;
import org.priodp.noise.DiscreteLaplace;
import org.priodp.noise.HardenedDiscreteLaplace;
import org.priodp.noise.RandomSource;
import org.priodp.noise.Rational;

/**
 * Exact sampler throughput, in samples per microsecond (millions per second), filling a
 * {@code long[1024]} per invocation. At the end of each trial the random bits consumed per
 * sample are printed next to the entropy of the distribution (log2(2e t) for the discrete
 * Laplace).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class SamplerBenchmark {
  private static final int N = 1024;

  @Param({"2", "100", "1000000"})
  public String scale;

  @Param({"seeded", "secure"})
  public String source;

  private DiscreteLaplace laplace;
  private HardenedDiscreteLaplace hardened;
  private DiscreteGaussian gaussian;
  private RandomSource rnd;
  private final long[] out = new long[N];
  private long samples;

  /** Builds the samplers and the random source. */
  @Setup(Level.Trial)
  public void setup() {
    Rational t = Rational.parse(scale);
    laplace = DiscreteLaplace.of(t);
    hardened = laplace.hardened();
    gaussian = DiscreteGaussian.of(Rational.of(10_000));
    rnd = source.equals("secure") ? RandomSource.secure() : RandomSource.seeded(new byte[] {42});
    samples = 0;
  }

  /** Prints the random bits consumed per sample in this trial. */
  @TearDown(Level.Trial)
  public void bits() {
    double t = Double.parseDouble(scale);
    System.out.printf("%n[bits] scale=%s source=%s: %.2f random bits per sample (entropy of the discrete Laplace: %.2f bits)%n",
        scale, source, (double) rnd.bitsConsumed() / samples, Math.log(2 * Math.E * t) / Math.log(2));
  }

  /** The exact discrete Laplace (CKS Algorithm 2). */
  @Benchmark
  @OperationsPerInvocation(N)
  public long[] laplace() {
    laplace.fill(out, rnd);
    samples += N;
    return out;
  }

  /** The fixed-work discrete Laplace (delta <= 2^-64). */
  @Benchmark
  @OperationsPerInvocation(N)
  public long[] hardened() {
    hardened.fill(out, rnd);
    samples += N;
    return out;
  }

  /** The exact discrete Gaussian with sigma^2 = 10^4 (the scale parameter does not apply; run it with -p scale=2). */
  @Benchmark
  @OperationsPerInvocation(N)
  public long[] gaussian() {
    gaussian.fill(out, rnd);
    samples += N;
    return out;
  }
}
