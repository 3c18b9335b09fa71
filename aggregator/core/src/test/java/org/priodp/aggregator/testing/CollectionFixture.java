package org.priodp.aggregator.testing;

import java.math.BigInteger;
import org.priodp.aggregator.core.BatchBuckets;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.Role;
import org.priodp.aggregator.datastore.BatchAggregation;
import org.priodp.aggregator.datastore.Datastore;
import org.priodp.aggregator.task.AuthToken;
import org.priodp.field.PrimeField;
import org.priodp.vdaf.dp.SensitivityRule;

/**
 * The Leader's side of a {@link Fixture} task: the same task as a Leader with the Collector's
 * token, and Leader buckets that add up with the Fixture's Helper buckets to a known histogram
 * (bucket k: 13 reports in coordinate k mod 8 and one in each other, 20 in all), with the same
 * report counts and checksums, as two aggregators' batch buckets after aggregation would be.
 */
public final class CollectionFixture {
  /** The Collector's bearer token. */
  public static final String COLLECTOR_TOKEN = "collector-token_9876543210";

  public final Fixture f;
  public final TaskDefinition leader;

  /** Wraps a fixture. */
  public CollectionFixture(Fixture f) {
    this.f = f;
    TaskDefinition h = f.task;
    this.leader = new TaskDefinition(f.taskId, Role.LEADER, h.configuration(), f.variant,
        h.dpStrategy(), SensitivityRule.PRIODP, f.collectorConfig, AuthToken.of(Fixture.TOKEN))
        .withCollectorAuthToken(AuthToken.of(COLLECTOR_TOKEN));
  }

  /** Returns the true histogram of bucket k. */
  public static long[] truth(int k) {
    long[] t = new long[8];
    for (int i = 0; i < 8; i++) {
      t[i] = i == k % 8 ? 13 : 1;
    }
    return t;
  }

  /** Returns the true histogram of buckets from..to-1. */
  public static long[] truth(int from, int to) {
    long[] t = new long[8];
    for (int k = from; k < to; k++) {
      long[] b = truth(k);
      for (int i = 0; i < 8; i++) {
        t[i] += b[i];
      }
    }
    return t;
  }

  /** Returns the Leader's share of bucket k: truth(k) - Fixture.share(k) in the field. */
  public byte[] leaderShare(int k) {
    PrimeField field = f.variant.field();
    byte[] helper = f.share(k);
    long[] h = field.decode(helper, 0, helper.length, 8);
    long[] w = field.newArray(8);
    long[] t = truth(k);
    for (int i = 0; i < 8; i++) {
      field.set(w, i, BigInteger.valueOf(t[i]));
    }
    long[] out = field.newArray(8);
    field.subVec(w, h, out, 8);
    byte[] enc = new byte[8 * field.encodedSize()];
    field.encode(out, 8, enc, 0);
    return enc;
  }

  /** Writes the Leader's buckets 0..n-1 (time 10 + k). */
  public void writeLeaderBuckets(Datastore store, int n) {
    for (int k = 0; k < n; k++) {
      BatchAggregation bucket = new BatchAggregation(f.taskId,
          BatchBuckets.timeIntervalBucket(Fixture.FIRST_BUCKET + k), ByteString.EMPTY,
          ByteString.copyOf(leaderShare(k)), Fixture.BUCKET_REPORTS,
          ByteString.copyOf(Fixture.bucketChecksum(k)));
      store.inTaskTransaction(f.taskId, tx -> {
        tx.batchBuckets().put(bucket);
        return null;
      });
    }
  }

  /** Returns the sum of the Leader's shares of buckets from..to-1: its un-noised share. */
  public byte[] leaderUnnoised(int from, int to) {
    PrimeField field = f.variant.field();
    long[] sum = field.newArray(8);
    for (int k = from; k < to; k++) {
      byte[] s = leaderShare(k);
      field.addVec(sum, field.decode(s, 0, s.length, 8), sum, 8);
    }
    byte[] out = new byte[8 * field.encodedSize()];
    field.encode(sum, 8, out, 0);
    return out;
  }
}
