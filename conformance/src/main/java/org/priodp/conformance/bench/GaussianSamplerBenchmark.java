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
import org.priodp.noise.DiscreteGaussian;
import org.priodp.noise.HardenedDiscreteGaussian;
import org.priodp.noise.RandomSource;
import org.priodp.noise.Rational;

/**
 * The fixed-work discrete Gaussian ({@code hardened}, {@link HardenedDiscreteGaussian}) against
 * the exact one ({@code exact}, {@link DiscreteGaussian}) in the same run, in samples per
 * microsecond (millions per second), filling a {@code long[1024]} per invocation from the
 * production source ({@link RandomSource#secure()}) or the seeded one. sigma^2 = 2 and 100 use
 * the hardened sampler's direct inversion, 10^4 and 10^6 its rejection rounds. Issue 25's
 * target: the hardened sampler within 10x of the exact one.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class GaussianSamplerBenchmark {
  private static final int N = 1024;

  @Param({"2", "100", "10000", "1000000"})
  public String sigma2;

  @Param({"secure"})
  public String source;

  private DiscreteGaussian exact;
  private HardenedDiscreteGaussian hardened;
  private RandomSource rnd;
  private final long[] out = new long[N];

  /** Builds both samplers and the random source. */
  @Setup(Level.Trial)
  public void setup() {
    exact = DiscreteGaussian.of(Rational.parse(sigma2));
    hardened = exact.hardened();
    rnd = source.equals("secure") ? RandomSource.secure() : RandomSource.seeded(new byte[] {43});
    System.out.printf("%n[sampler] sigma^2=%s: %s, %d random bits per sample%n", sigma2, hardened,
        hardened.bitsPerSample());
  }

  /** The exact discrete Gaussian (envelope inversion). */
  @Benchmark
  @OperationsPerInvocation(N)
  public long[] exact() {
    exact.fill(out, rnd);
    return out;
  }

  /** The fixed-work discrete Gaussian (delta <= 2^-64 per draw). */
  @Benchmark
  @OperationsPerInvocation(N)
  public long[] hardened() {
    hardened.fill(out, rnd);
    return out;
  }
}
