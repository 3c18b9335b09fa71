package org.priodp.conformance.bench;

import java.math.BigInteger;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.priodp.field.PrimeField;
import org.priodp.noise.RandomSource;
import org.priodp.vdaf.Prio3Variant;
import org.priodp.vdaf.dp.DpStrategy;
import org.priodp.vdaf.dp.Prio3DpMechanism;

/**
 * Noising an encoded aggregate share end to end (decode, one exact discrete Laplace draw per
 * coordinate, projection, add, encode) with {@code Prio3DpMechanism.addNoiseToAggShare}, at
 * epsilon = 1: Prio3Histogram of length 100,000 (Field128, scale 2) and Prio3SumVec of length
 * 10,000 with max_measurement 255 (Field128, scale 2,550,000). Scores are coordinates per
 * microsecond (millions of coordinates per second); the target is >= 5 on one core.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class NoiseShareBenchmark {
  private static final int HISTOGRAM_LENGTH = 100_000;
  private static final int SUMVEC_LENGTH = 10_000;

  /** The noise source: the buffered SecureRandom of production, or the seeded AES-CTR stream. */
  @Param({"secure", "seeded"})
  public String source;

  private Prio3DpMechanism histogram;
  private Prio3DpMechanism sumVec;
  private byte[] histogramShare;
  private byte[] sumVecShare;
  private RandomSource rnd;

  /** Builds the mechanisms and seeded random shares. */
  @Setup
  public void setup() {
    DpStrategy eps = DpStrategy.PureDpDiscreteLaplace.parse("1");
    histogram = Prio3DpMechanism.of(new Prio3Variant.Histogram(HISTOGRAM_LENGTH, 316), eps);
    sumVec = Prio3DpMechanism.of(Prio3Variant.SumVec.of(SUMVEC_LENGTH, BigInteger.valueOf(255), 282), eps);
    SplittableRandom r = new SplittableRandom(42);
    histogramShare = randomShare(histogram.variant().field(), HISTOGRAM_LENGTH, r);
    sumVecShare = randomShare(sumVec.variant().field(), SUMVEC_LENGTH, r);
    rnd = source.equals("secure") ? RandomSource.secure() : RandomSource.seeded(new byte[] {42});
  }

  private static byte[] randomShare(PrimeField f, int n, SplittableRandom r) {
    long[] w = f.newArray(n);
    for (int i = 0; i < n; i++) {
      byte[] bytes = new byte[f.encodedSize() + 1];
      r.nextBytes(bytes);
      bytes[0] = 0;
      f.set(w, i, new BigInteger(bytes).mod(f.modulus()));
    }
    byte[] out = new byte[n * f.encodedSize()];
    f.encode(w, n, out, 0);
    return out;
  }

  /** Prio3Histogram(100,000), epsilon 1 (scale 2): M coordinates/s. */
  @Benchmark
  @OperationsPerInvocation(HISTOGRAM_LENGTH)
  public byte[] histogram100k() {
    return histogram.addNoiseToAggShare(histogramShare, rnd);
  }

  /** Prio3SumVec(10,000, max 255), epsilon 1 (scale 2,550,000): M coordinates/s. */
  @Benchmark
  @OperationsPerInvocation(SUMVEC_LENGTH)
  public byte[] sumVec10k() {
    return sumVec.addNoiseToAggShare(sumVecShare, rnd);
  }
}
