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
import org.priodp.noise.RandomSource;

/**
 * Random-source throughput in MB/s (bytes per microsecond), filling a 64 KiB buffer per
 * invocation through the public API ({@code nextLong}, as the samplers read it). "secure" is
 * {@link RandomSource#secure()} (the fast-key-erasure AES-256-CTR stream keyed from the JDK
 * DRBG), "jdkDrbg" is {@link RandomSource#jdkDrbg()} (the JDK DRBG read 4 KiB at a time),
 * "seeded" is {@link RandomSource#seeded(byte[])} (plain AES-256-CTR, for comparison).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class RandomSourceBenchmark {
  private static final int BYTES = 64 * 1024;

  @Param({"secure", "jdkDrbg", "seeded"})
  public String source;

  private RandomSource rnd;
  private final long[] out = new long[BYTES / 8];

  /** Builds the random source. */
  @Setup(Level.Trial)
  public void setup() {
    rnd = switch (source) {
      case "secure" -> RandomSource.secure();
      case "jdkDrbg" -> RandomSource.jdkDrbg();
      case "seeded" -> RandomSource.seeded(new byte[] {42});
      default -> throw new IllegalArgumentException("unknown source " + source);
    };
  }

  /** Fills 64 KiB; the score is bytes per microsecond, i.e. MB/s. */
  @Benchmark
  @OperationsPerInvocation(BYTES)
  public long[] fill64KiB() {
    for (int i = 0; i < out.length; i++) {
      out[i] = rnd.nextLong();
    }
    return out;
  }
}
