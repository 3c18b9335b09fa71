package org.priodp.conformance.bench;

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
import org.priodp.field.Field128;
import org.priodp.field.Field64;
import org.priodp.field.PrimeField;

/**
 * Field arithmetic and encoding throughput over vectors of 4096 elements. Scores are elements
 * per microsecond (millions of elements per second); for {@code encode} and {@code decode}
 * multiply by the element size (8 bytes for Field64, 16 for Field128) to get MB/s.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class FieldBenchmark {
  private static final int N = 4096;

  @Param({"Field64", "Field128"})
  public String field;

  private PrimeField f;
  private long[] a;
  private long[] b;
  private long[] out;
  private byte[] encoded;
  private byte[] encodeBuffer;

  /** Fills the operands with seeded random canonical elements. */
  @Setup
  public void setup() {
    f = field.equals("Field64") ? Field64.FIELD : Field128.FIELD;
    SplittableRandom rnd = new SplittableRandom(42);
    a = random(rnd);
    b = random(rnd);
    out = f.newArray(N);
    encoded = new byte[N * f.encodedSize()];
    f.encode(a, N, encoded, 0);
    encodeBuffer = new byte[encoded.length];
  }

  private long[] random(SplittableRandom rnd) {
    long[] w = f.newArray(N);
    for (int i = 0; i < N; i++) {
      byte[] bytes = new byte[f.encodedSize() + 1];
      rnd.nextBytes(bytes);
      bytes[0] = 0;
      f.set(w, i, new java.math.BigInteger(bytes).mod(f.modulus()));
    }
    return w;
  }

  /** Element-wise products of two vectors (scores: M elements/s). */
  @Benchmark
  @OperationsPerInvocation(N)
  public long[] mul() {
    f.mulVec(a, b, out, N);
    return out;
  }

  /** Element-wise sums of two vectors (scores: M elements/s). */
  @Benchmark
  @OperationsPerInvocation(N)
  public long[] add() {
    f.addVec(a, b, out, N);
    return out;
  }

  /** Canonical encoding of a vector into a reused buffer (scores: M elements/s). */
  @Benchmark
  @OperationsPerInvocation(N)
  public byte[] encode() {
    f.encode(a, N, encodeBuffer, 0);
    return encodeBuffer;
  }

  /** Decoding of a vector with the < p check on every element (scores: M elements/s). */
  @Benchmark
  @OperationsPerInvocation(N)
  public long[] decode() {
    return f.decode(encoded, 0, encoded.length, N);
  }
}
