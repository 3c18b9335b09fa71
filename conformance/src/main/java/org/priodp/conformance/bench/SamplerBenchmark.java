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
 * {@code long[1024]} per invocation, side by side: the discrete Laplace by exact inversion (the
 * default, {@code laplace}), the Canonne-Kamath-Steinke reference ({@code laplaceCks}), the
 * fixed-work sampler ({@code hardened}), and the discrete Gaussian with sigma^2 = 10^4 by
 * envelope inversion ({@code gaussian}) and by CKS ({@code gaussianCks}). At the end of each
 * trial the random bits consumed per sample are printed next to the entropy of the distribution.
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
  private long bitsAtStart;

  /** Builds the samplers and the random source. */
  @Setup(Level.Trial)
  public void setup() {
    Rational t = Rational.parse(scale);
    laplace = DiscreteLaplace.of(t);
    hardened = laplace.hardened();
    gaussian = DiscreteGaussian.of(Rational.of(10_000));
    rnd = source.equals("secure") ? RandomSource.secure() : RandomSource.seeded(new byte[] {42});
    samples = 0;
    bitsAtStart = rnd.bitsConsumed();
  }

  /** Prints the random bits consumed per sample in this trial. */
  @TearDown(Level.Trial)
  public void bits() { // double: figures shown to people
    double t = Double.parseDouble(scale);
    double r = Math.exp(-1 / t);
    double laplaceEntropy = (-Math.log((1 - r) / (1 + r)) + 2 * r / ((1 - r) * (1 + r)) / t) / Math.log(2);
    // sigma^2 = 10^4: the entropy of the discrete Gaussian is log2(sigma sqrt(2 pi e)) to 10^-9
    double gaussianEntropy = Math.log(100 * Math.sqrt(2 * Math.PI * Math.E)) / Math.log(2);
    System.out.printf("%n[bits] scale=%s source=%s: %.2f random bits per sample (entropy: discrete Laplace %.2f bits,"
        + " discrete Gaussian sigma^2=10^4 %.2f bits)%n",
        scale, source, (double) (rnd.bitsConsumed() - bitsAtStart) / samples, laplaceEntropy, gaussianEntropy);
  }

  /** The exact discrete Laplace by inversion (the default sampler). */
  @Benchmark
  @OperationsPerInvocation(N)
  public long[] laplace() {
    laplace.fill(out, rnd);
    samples += N;
    return out;
  }

  /** The exact discrete Laplace by CKS Algorithm 2 (the reference sampler). */
  @Benchmark
  @OperationsPerInvocation(N)
  public long[] laplaceCks() {
    for (int i = 0; i < N; i++) {
      out[i] = laplace.sampleReference(rnd);
    }
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

  /** The exact discrete Gaussian with sigma^2 = 10^4 by CKS Algorithm 3 (the reference sampler). */
  @Benchmark
  @OperationsPerInvocation(N)
  public long[] gaussianCks() {
    for (int i = 0; i < N; i++) {
      out[i] = gaussian.sampleReference(rnd);
    }
    samples += N;
    return out;
  }
}
