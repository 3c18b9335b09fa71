package org.priodp.conformance.bench;

import java.math.BigInteger;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.priodp.field.Field128;
import org.priodp.field.Field64;
import org.priodp.field.Ntt;
import org.priodp.field.PrimeField;

/**
 * NTT and inverse NTT over the 2-power subgroup ({@link Ntt}) of sizes 2^10 and 2^16 for both
 * fields. Scores are microseconds per transform; the root tables are built in setup, so the
 * scores exclude the one-time table cost.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class NttBenchmark {

  @Param({"Field64", "Field128"})
  public String field;

  @Param({"10", "16"})
  public int logSize;

  private PrimeField f;
  private int n;
  private long[] input;
  private long[] work;

  /** Fills the input with seeded random canonical elements and warms the root tables. */
  @Setup(Level.Trial)
  public void setup() {
    f = field.equals("Field64") ? Field64.FIELD : Field128.FIELD;
    n = 1 << logSize;
    SplittableRandom rnd = new SplittableRandom(42);
    input = f.newArray(n);
    for (int i = 0; i < n; i++) {
      byte[] bytes = new byte[f.encodedSize() + 9];
      rnd.nextBytes(bytes);
      bytes[0] = 0;
      f.set(input, i, new BigInteger(bytes).mod(f.modulus()));
    }
    work = input.clone();
    Ntt.nttInPlace(f, work);
  }

  /** Forward NTT in place (coefficients to values at the n-th roots of unity). */
  @Benchmark
  public long[] ntt() {
    System.arraycopy(input, 0, work, 0, input.length);
    Ntt.nttInPlace(f, work);
    return work;
  }

  /** Inverse NTT in place (values at the n-th roots of unity to coefficients). */
  @Benchmark
  public long[] invNtt() {
    System.arraycopy(input, 0, work, 0, input.length);
    Ntt.invNttInPlace(f, work);
    return work;
  }
}
