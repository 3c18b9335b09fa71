package org.priodp.aggregator.demo;

import java.io.PrintWriter;
import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.priodp.field.FieldVector;
import org.priodp.vdaf.Prio3;
import org.priodp.vdaf.Prio3Variant;
import org.priodp.vdaf.VdafException;

/**
 * The demo's clients and the two aggregators' verification: simulated clients shard
 * histogram measurements with Prio3, and the leader and the helper verify every report and
 * aggregate their output shares (VDAF draft-20, Prio3 sharding, verification and aggregation).
 * Everything happens in memory; only the aggregate shares leave.
 *
 * @param trueCounts the histogram of the measurements the clients held (for the demo's table)
 * @param leaderShare the leader's un-noised aggregate share
 * @param helperShare the helper's un-noised aggregate share
 * @param accepted reports that verified
 * @param rejected reports that failed verification
 * @param checksum the DAP checksum of the accepted reports: the XOR of SHA-256(report id), with
 *     each report's nonce standing in for its report id
 */
record ClientsAndAggregators(
    long[] trueCounts, FieldVector leaderShare, FieldVector helperShare, int accepted, int rejected,
    byte[] checksum) {

  /** The application context string both aggregators and the clients use. */
  static final byte[] CTX = "prio-dp demo".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

  /**
   * Simulates {@code clients} clients with measurements drawn from a skewed distribution
   * (bucket i with weight 1/(i+1)) by a generator seeded with {@code measurementSeed}, shards
   * with fresh randomness, and verifies and aggregates with both aggregators, reporting
   * progress on {@code progress} when it takes long.
   */
  static ClientsAndAggregators run(
      Prio3 prio3, int clients, long measurementSeed, SecureRandom random, PrintWriter progress) {
    Prio3Variant.Histogram h = (Prio3Variant.Histogram) prio3.variant();
    int length = h.length();
    SplittableRandom measurements = new SplittableRandom(measurementSeed);
    double[] cumulative = new double[length];
    double total = 0;
    for (int i = 0; i < length; i++) {
      total += 1.0 / (i + 1);
      cumulative[i] = total;
    }
    int[] buckets = new int[clients];
    long[] trueCounts = new long[length];
    for (int c = 0; c < clients; c++) {
      double u = measurements.nextDouble() * total;
      int b = 0;
      while (b < length - 1 && u >= cumulative[b]) {
        b++;
      }
      buckets[c] = b;
      trueCounts[b]++;
    }

    byte[] verifyKey = new byte[Prio3.VERIFY_KEY_SIZE];
    random.nextBytes(verifyKey);
    byte[][] nonces = new byte[clients][Prio3.NONCE_SIZE];
    byte[][] rands = new byte[clients][prio3.randSize()];
    for (int c = 0; c < clients; c++) {
      random.nextBytes(nonces[c]);
      random.nextBytes(rands[c]);
    }

    Progress p = new Progress(progress, "clients shard, aggregators verify", clients);
    FieldVector[][] outShares = new FieldVector[clients][];
    // reports are independent: use both cores
    IntStream.range(0, clients).parallel().forEach(c -> {
      outShares[c] = shardAndVerify(prio3, verifyKey, nonces[c], rands[c], buckets[c]);
      p.step();
    });
    p.done();

    List<FieldVector> leaderOut = new ArrayList<>(clients);
    List<FieldVector> helperOut = new ArrayList<>(clients);
    int rejected = 0;
    byte[] checksum = new byte[32];
    java.security.MessageDigest sha256 = sha256();
    for (int c = 0; c < clients; c++) {
      FieldVector[] pair = outShares[c];
      if (pair == null) {
        rejected++;
      } else {
        leaderOut.add(pair[0]);
        helperOut.add(pair[1]);
        byte[] reportIdHash = sha256.digest(nonces[c]);
        for (int i = 0; i < 32; i++) {
          checksum[i] ^= reportIdHash[i];
        }
      }
    }
    return new ClientsAndAggregators(trueCounts, prio3.aggregate(leaderOut),
        prio3.aggregate(helperOut), clients - rejected, rejected, checksum);
  }

  private static java.security.MessageDigest sha256() {
    try {
      return java.security.MessageDigest.getInstance("SHA-256");
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JDK", e);
    }
  }

  /** One report: shard, both aggregators' verify_init, the message, verify_next; null if rejected. */
  private static FieldVector[] shardAndVerify(
      Prio3 prio3, byte[] verifyKey, byte[] nonce, byte[] rand, int bucket) {
    Prio3.ShardResult shard = prio3.shard(CTX, List.of(BigInteger.valueOf(bucket)), nonce, rand);
    try {
      Prio3.VerifyInitResult leader =
          prio3.verifyInit(verifyKey, CTX, 0, nonce, shard.publicShare(), shard.inputShares().get(0));
      Prio3.VerifyInitResult helper =
          prio3.verifyInit(verifyKey, CTX, 1, nonce, shard.publicShare(), shard.inputShares().get(1));
      Prio3.VerifierMessage message = prio3.verifierSharesToMessage(
          CTX, List.of(leader.verifierShare(), helper.verifierShare()));
      return new FieldVector[] {
        prio3.verifyNext(leader.state(), message), prio3.verifyNext(helper.state(), message)
      };
    } catch (VdafException rejected) {
      return null;
    }
  }

  /** A progress line on stderr, shown only once the work has taken more than a second. */
  static final class Progress {
    private final PrintWriter out;
    private final String what;
    private final int total;
    private final long start = System.nanoTime();
    private final AtomicInteger count = new AtomicInteger();
    private volatile boolean shown;

    Progress(PrintWriter out, String what, int total) {
      this.out = out;
      this.what = what;
      this.total = total;
    }

    void step() {
      int c = count.incrementAndGet();
      if (c % 500 == 0 && System.nanoTime() - start > 1_000_000_000L) {
        synchronized (this) {
          shown = true;
          out.printf("\r  %s: %d/%d", what, c, total);
          out.flush();
        }
      }
    }

    void done() {
      if (shown) {
        synchronized (this) {
          out.printf("\r  %s: %d/%d, %.1f s%n", what, total, total, (System.nanoTime() - start) / 1e9);
          out.flush();
        }
      }
    }
  }
}
