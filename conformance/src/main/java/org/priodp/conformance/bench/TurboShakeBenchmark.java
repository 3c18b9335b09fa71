package org.priodp.conformance.bench;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.priodp.field.Field128;
import org.priodp.field.Field64;
import org.priodp.vdaf.XofTurboShake128;
import org.priodp.vdaf.internal.TurboShake128;

/**
 * TurboSHAKE128 and XofTurboShake128 throughput on 16 KiB of input or output. Each operation is
 * one byte and the unit is operations per microsecond, so every score reads directly as MB/s
 * (10^6 bytes per second).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class TurboShakeBenchmark {
  private static final int BYTES = 16 * 1024;

  private byte[] message;
  private byte[] output;
  private byte[] seed;
  private byte[] dst;
  private byte[] binder;

  /** Fills the message, the seed and the binder with seeded random bytes. */
  @Setup
  public void setup() {
    SplittableRandom rnd = new SplittableRandom(42);
    message = new byte[BYTES];
    rnd.nextBytes(message);
    output = new byte[BYTES];
    seed = new byte[XofTurboShake128.SEED_SIZE];
    rnd.nextBytes(seed);
    dst = new byte[] {18, 0, 0, 0, 0, 3, 0, 1};
    binder = new byte[16]; // a report nonce, as Prio3 uses it
    rnd.nextBytes(binder);
  }

  /** Absorbs a 16 KiB message and squeezes 32 bytes (score: MB/s of input). */
  @Benchmark
  @OperationsPerInvocation(BYTES)
  public byte[] absorb() {
    return TurboShake128.hash(message, 0x01, 32);
  }

  /** Squeezes 16 KiB from an empty message into a reused buffer (score: MB/s of output). */
  @Benchmark
  @OperationsPerInvocation(BYTES)
  public byte[] squeeze() {
    new TurboShake128(0x01).squeeze(output, 0, BYTES);
    return output;
  }

  /**
   * Expands a seed into 1024 Field128 elements (16 KiB of XOF output, rejection sampling
   * included; score: MB/s of output).
   */
  @Benchmark
  @OperationsPerInvocation(BYTES)
  public long[] expandField128() {
    return XofTurboShake128.expandIntoVec(Field128.FIELD, seed, dst, binder, BYTES / 16);
  }

  /**
   * Expands a seed into 2048 Field64 elements (16 KiB of XOF output, rejection sampling
   * included; score: MB/s of output).
   */
  @Benchmark
  @OperationsPerInvocation(BYTES)
  public long[] expandField64() {
    return XofTurboShake128.expandIntoVec(Field64.FIELD, seed, dst, binder, BYTES / 8);
  }
}
