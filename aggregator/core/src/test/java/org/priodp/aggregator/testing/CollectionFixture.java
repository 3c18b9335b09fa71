package org.priodp.aggregator.testing;

import java.math.BigInteger;
import org.priodp.aggregator.core.BatchBuckets;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.dap.BatchId;
import org.priodp.aggregator.dap.BatchMode;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.Role;
import org.priodp.aggregator.dap.TaskConfiguration;
import org.priodp.aggregator.datastore.BatchAggregation;
import org.priodp.aggregator.datastore.BatchIdentifier;
import org.priodp.aggregator.datastore.Datastore;
import org.priodp.aggregator.task.AuthToken;
import org.priodp.field.PrimeField;
import org.priodp.vdaf.dp.SensitivityRule;

/**
 * The Leader's side of a {@link Fixture} task: the same task as a Leader with the Collector's
 * token, and Leader buckets that add up with the Fixture's Helper buckets to a known histogram
 * (bucket k: 13 reports in coordinate k mod 8 and one in each other, 20 in all), with the same
 * report counts and checksums, as two aggregators' batch buckets after aggregation would be.
 * {@link #leaderSelected} gives the same task in the leader_selected batch mode, whose batches
 * are such buckets under batch IDs {@link #batchId}.
 */
public final class CollectionFixture {
  /** The Collector's bearer token. */
  public static final String COLLECTOR_TOKEN = "collector-token_9876543210";

  public final Fixture f;
  public final TaskDefinition leader;
  /** The Helper's task: {@code f.task}, or its leader-selected twin. */
  public final TaskDefinition helper;

  /** Wraps a fixture. */
  public CollectionFixture(Fixture f) {
    this(f, f.task);
  }

  private CollectionFixture(Fixture f, TaskDefinition h) {
    this.f = f;
    this.helper = h;
    this.leader = new TaskDefinition(f.taskId, Role.LEADER, h.configuration(), f.variant,
        h.dpStrategy(), SensitivityRule.PRIODP, f.collectorConfig, AuthToken.of(Fixture.TOKEN))
        .withCollectorAuthToken(AuthToken.of(COLLECTOR_TOKEN));
  }

  /**
   * Returns the fixture's task in the leader_selected batch mode (min_batch_size 10, the Leader
   * at {@code leaderEndpoint}), as the Leader and as the Helper.
   */
  public static CollectionFixture leaderSelected(Fixture f, String leaderEndpoint) {
    TaskConfiguration c = TaskDefinition.configurationFor(f.variant, "fixture".getBytes(
        java.nio.charset.StandardCharsets.US_ASCII), leaderEndpoint, "https://helper.example/",
        Fixture.PRECISION, 10, BatchMode.LEADER_SELECTED, java.util.List.of());
    return new CollectionFixture(f, new TaskDefinition(f.taskId, Role.HELPER, c, f.variant,
        f.task.dpStrategy(), SensitivityRule.PRIODP, f.collectorConfig,
        AuthToken.of(Fixture.TOKEN)));
  }

  /** Returns batch ID {@code k}: 32 bytes, the first k + 1, the others 0. */
  public static BatchId batchId(int k) {
    byte[] b = new byte[BatchId.LENGTH];
    b[0] = (byte) (k + 1);
    return new BatchId(b);
  }

  /**
   * Writes leader-selected batch {@link #batchId}(k) to both stores as bucket k of the fixture
   * (the Leader's share of truth(k), the Helper's {@code f.share(k)}), with {@code count} reports
   * and {@code bucketChecksum(k)}; returns its identifier.
   */
  public BatchIdentifier writeLeaderSelectedBatch(Datastore leaderStore, Datastore helperStore,
      int k, long count) {
    BatchIdentifier batch = BatchBuckets.leaderSelectedBucket(batchId(k));
    ByteString checksum = ByteString.copyOf(Fixture.bucketChecksum(k));
    BatchAggregation mine = new BatchAggregation(f.taskId, batch, ByteString.EMPTY,
        ByteString.copyOf(leaderShare(k)), count, checksum);
    BatchAggregation theirs = new BatchAggregation(f.taskId, batch, ByteString.EMPTY,
        ByteString.copyOf(f.share(k)), count, checksum);
    leaderStore.inTaskTransaction(f.taskId, tx -> {
      tx.batchBuckets().put(mine);
      return null;
    });
    helperStore.inTaskTransaction(f.taskId, tx -> {
      tx.batchBuckets().put(theirs);
      return null;
    });
    return batch;
  }

  /**
   * Returns the encoded CollectionJobReq for "the next batch" (DAP-18 "Leader-selected Batch
   * Mode"): Query { leader_selected, empty config }, empty agg_param, no extension.
   */
  public static byte[] nextBatchRequest() {
    return SpecCollector.collectionJobReq(new SpecTls().u8(SpecCollector.LEADER_SELECTED)
        .opaque16(new byte[0]).bytes(), new byte[0], new byte[0]);
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
