package org.priodp.conformance.bench;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
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
import org.priodp.noise.RandomSource;
import org.priodp.noise.compress.EliasCode;
import org.priodp.noise.compress.SharedRandomness;
import org.priodp.noise.compress.dql.DqlCodec;
import org.priodp.noise.compress.dql.DqlDescription;
import org.priodp.noise.compress.dql.DqlParameters;

/**
 * Dyadic quantized Laplace codec throughput on vectors of 4096 values x ~ U[-1, 1], shared
 * randomness from the report stream and local randomness from {@link RandomSource#secure()}.
 * Scores are values per microsecond (millions of values per second); the {@code bitsPerValue}
 * counter of {@code encode} is the mean signed Elias delta length. Target: encode + decode at
 * 2 M values/s or more on one core.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class DqlBenchmark {
  private static final int N = 4096;

  @Param({"1:2", "1:10", "5:2", "5:10"})
  public String epsilonEll;

  private DqlCodec codec;
  private SharedRandomness shared;
  private RandomSource local;
  private double[] x;
  private DqlDescription description;
  private long report;

  /** Bits per value of the last encoded vector, reported next to the throughput. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.EVENTS)
  public static class Bits {
    public long bits;
    public long values;

    /** Resets the counts. */
    @Setup(Level.Iteration)
    public void reset() {
      bits = 0;
      values = 0;
    }

    /** Returns the mean bits per value so far. */
    public double bitsPerValue() {
      return values == 0 ? 0 : (double) bits / values;
    }
  }

  /** Builds the codec and the input vector. */
  @Setup
  public void setup() {
    String[] p = epsilonEll.split(":");
    codec = DqlCodec.of(DqlParameters.of(Double.parseDouble(p[0]), Double.parseDouble(p[1])), EliasCode.DELTA);
    shared = SharedRandomness.fromHex("0123456789abcdef");
    local = RandomSource.secure();
    SplittableRandom rnd = new SplittableRandom(42);
    x = new double[N];
    for (int i = 0; i < N; i++) {
      x[i] = 2 * rnd.nextDouble() - 1;
    }
    description = codec.encode(x, shared, 0, local);
  }

  /** Encodes a vector of 4096 values (scores: M values/s). */
  @Benchmark
  @OperationsPerInvocation(N)
  public DqlDescription encode(Bits bits) {
    DqlDescription d = codec.encode(x, shared, ++report, local);
    bits.bits += d.bitLength();
    bits.values += N;
    return d;
  }

  /** Decodes a vector of 4096 values (scores: M values/s). */
  @Benchmark
  @OperationsPerInvocation(N)
  public double[] decode() {
    return codec.decode(description, shared, 0);
  }
}
