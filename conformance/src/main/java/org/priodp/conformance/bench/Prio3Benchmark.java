package org.priodp.conformance.bench;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.priodp.field.FieldVector;
import org.priodp.vdaf.Prio3;
import org.priodp.vdaf.Prio3Variant;
import org.priodp.vdaf.XofTurboShake128;

/**
 * Prio3 client and aggregator cost for two aggregators: {@code shard} is the client's sharding
 * of one measurement; {@code verify} is the full verification of one report by both aggregators
 * (verify_init twice, verifier_shares_to_message, verify_next twice) on already decoded
 * messages. Scores are microseconds per report.
 *
 * <p>Configurations: Prio3Histogram with length 10, 100 and 1000 (chunk_length 3, 10 and 32,
 * near sqrt(length)), and Prio3SumVec with length 100 and max_measurement 255 (chunk_length 28,
 * near sqrt(length * bits) = sqrt(800)), and Prio3SumVec with length 1000 and max_measurement 1
 * (chunk_length 31, near sqrt(1000)). The last three are the configurations of the libprio-rs
 * comparison of issue 27 (Histogram(1000, chunk 32), SumVec(100, max 255, chunk 28),
 * SumVec(1000, max 1, chunk 31)).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class Prio3Benchmark {
  private static final byte[] CTX = "prio-dp benchmark".getBytes(StandardCharsets.US_ASCII);

  @Param({"Histogram10", "Histogram100", "Histogram1000", "SumVec100", "SumVec1000"})
  public String config;

  private Prio3 prio3;
  private List<BigInteger> measurement;
  private byte[] nonce;
  private byte[] rand;
  private byte[] verifyKey;
  private Prio3.ShardResult report;

  /** Builds the VDAF, a measurement, seeded randomness and one sharded report. */
  @Setup
  public void setup() {
    XofTurboShake128 x =
        new XofTurboShake128(new byte[32], "Prio3Benchmark".getBytes(StandardCharsets.US_ASCII), new byte[0]);
    switch (config) {
      case "Histogram10" -> histogram(10, 3);
      case "Histogram100" -> histogram(100, 10);
      case "Histogram1000" -> histogram(1000, 32);
      case "SumVec100" -> {
        prio3 = new Prio3(Prio3Variant.SumVec.of(100, BigInteger.valueOf(255), 28));
        measurement = new ArrayList<>();
        byte[] values = x.next(100);
        for (byte v : values) {
          measurement.add(BigInteger.valueOf(v & 0xff));
        }
      }
      case "SumVec1000" -> {
        prio3 = new Prio3(Prio3Variant.SumVec.of(1000, BigInteger.ONE, 31));
        measurement = new ArrayList<>();
        byte[] values = x.next(1000);
        for (byte v : values) {
          measurement.add(BigInteger.valueOf(v & 1));
        }
      }
      default -> throw new IllegalArgumentException("unknown config " + config);
    }
    nonce = x.next(Prio3.NONCE_SIZE);
    rand = x.next(prio3.randSize());
    verifyKey = x.next(Prio3.VERIFY_KEY_SIZE);
    report = prio3.shard(CTX, measurement, nonce, rand);
  }

  private void histogram(int length, int chunkLength) {
    prio3 = new Prio3(new Prio3Variant.Histogram(length, chunkLength));
    measurement = List.of(BigInteger.valueOf(length / 2));
  }

  /** The client: shard one measurement (encode, prove, split into shares). */
  @Benchmark
  public Prio3.ShardResult shard() {
    return prio3.shard(CTX, measurement, nonce, rand);
  }

  /** Both aggregators: verify one report and return the helper's output share. */
  @Benchmark
  public FieldVector verify() {
    Prio3.VerifyInitResult leader =
        prio3.verifyInit(verifyKey, CTX, 0, nonce, report.publicShare(), report.inputShares().get(0));
    Prio3.VerifyInitResult helper =
        prio3.verifyInit(verifyKey, CTX, 1, nonce, report.publicShare(), report.inputShares().get(1));
    Prio3.VerifierMessage message =
        prio3.verifierSharesToMessage(CTX, List.of(leader.verifierShare(), helper.verifierShare()));
    prio3.verifyNext(leader.state(), message);
    return prio3.verifyNext(helper.state(), message);
  }
}
