package org.priodp.conformance.bench;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.priodp.noise.RandomSource;
import org.priodp.noise.compress.SharedRandomness;
import org.priodp.noise.compress.ppr.GaussianPprChunk;
import org.priodp.noise.compress.ppr.PprCodec;
import org.priodp.noise.compress.ppr.PprEncoding;
import org.priodp.noise.compress.ppr.RenyiAccountant;

/**
 * PPR encode time per 50-dimension Gaussian-mechanism chunk (alpha = 2) in the PPR paper's
 * running-time setting (App. K): n = 500 clients, d = 1000, delta = 10^-6, sigma the Rényi-DP
 * Gaussian noise of each client for central epsilon, the chunk a slice of a vector with entries
 * +-1/sqrt(d) (norm bound sqrt(50/1000)). Mode SampleTime gives the median and the 99th
 * percentile; the {@code bitsPerChunk} counter is the mean Elias-delta length and {@code capped}
 * the number of runs that hit the cap (10^6 points). The reference Python implementation takes
 * about 0.43 ms, 10 ms and 134 ms per chunk at epsilon 0.05, 0.25 and 0.5 on this machine; the
 * target is 50x faster.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class PprBenchmark {
  private static final int DIM = 50;
  private static final int N = 500;
  private static final int D = 1000;

  @Param({"0.05", "0.25", "0.5"})
  public double epsilon;

  private GaussianPprChunk chunk;
  private SharedRandomness shared;
  private RandomSource local;
  private double[] x;
  private long report;

  /** Bits and capped runs, reported next to the time. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.EVENTS)
  public static class Counters {
    public long bits;
    public long chunks;
    public long capped;

    /** Resets the counts. */
    @Setup(Level.Iteration)
    public void reset() {
      bits = 0;
      chunks = 0;
      capped = 0;
    }

    /** Returns the mean bits per chunk so far. */
    public double bitsPerChunk() {
      return chunks == 0 ? 0 : (double) bits / chunks;
    }
  }

  /** Builds the chunk mechanism. */
  @Setup
  public void setup() {
    double sigma = RenyiAccountant.gaussianNoiseMultiplier(epsilon, 1e-6) / Math.sqrt(N);
    chunk = GaussianPprChunk.of(DIM, sigma, Math.sqrt((double) DIM / D));
    shared = SharedRandomness.fromHex("0123456789abcdef");
    local = RandomSource.secure();
    x = new double[DIM];
    for (int i = 0; i < DIM; i++) {
      x[i] = (i % 2 == 0 ? 1 : -1) / Math.sqrt(D);
    }
  }

  /** Encodes one chunk (a fresh report of the shared randomness each time). */
  @Benchmark
  public PprEncoding encode(Counters c) {
    PprCodec<double[]> codec = new PprCodec<>(chunk.proposal(), shared, ++report, 2, 1_000_000);
    PprEncoding e = codec.encode(chunk.target(x), local);
    c.bits += e.bits();
    c.chunks++;
    if (e.capped()) {
      c.capped++;
    }
    return e;
  }
}
