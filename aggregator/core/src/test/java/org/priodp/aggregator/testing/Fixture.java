package org.priodp.aggregator.testing;

import java.util.Arrays;
import java.util.List;
import org.priodp.aggregator.core.BatchBuckets;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.dap.AggregateShare;
import org.priodp.aggregator.dap.AggregateShareAad;
import org.priodp.aggregator.dap.AggregateShareEncryption;
import org.priodp.aggregator.dap.AggregateShareReq;
import org.priodp.aggregator.dap.BatchMode;
import org.priodp.aggregator.dap.BatchSelector;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.CollectionJobReq;
import org.priodp.aggregator.dap.HpkeConfig;
import org.priodp.aggregator.dap.HpkeConfigId;
import org.priodp.aggregator.dap.Interval;
import org.priodp.aggregator.dap.Query;
import org.priodp.aggregator.dap.Role;
import org.priodp.aggregator.dap.TaskConfiguration;
import org.priodp.aggregator.dap.TaskExtension;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.BatchAggregation;
import org.priodp.aggregator.datastore.Datastore;
import org.priodp.aggregator.hpke.Hpke;
import org.priodp.aggregator.hpke.HpkeException;
import org.priodp.aggregator.hpke.HpkeKeyPair;
import org.priodp.aggregator.hpke.HpkeSuite;
import org.priodp.aggregator.task.AuthToken;
import org.priodp.aggregator.task.DpBinding;
import org.priodp.field.PrimeField;
import org.priodp.vdaf.Prio3Variant;
import org.priodp.vdaf.dp.DpStrategy;
import org.priodp.vdaf.dp.SensitivityRule;

/**
 * A time-interval Prio3Histogram(length 8) Helper task with a collector key pair, batch buckets of
 * 20 reports each from DAP-18 time 10 (time_precision 100 s, so 1000 s after the epoch), and
 * matching aggregate-share requests; shared by the core, service and command tests.
 */
public final class Fixture {
  /** The Leader's bearer token. */
  public static final String TOKEN = "leader-token_0123456789";
  /** The time precision. */
  public static final long PRECISION = 100;
  /** Reports per bucket. */
  public static final long BUCKET_REPORTS = 20;

  public final HpkeKeyPair collectorKey;
  public final HpkeConfig collectorConfig;
  public final TaskId taskId;
  public final TaskDefinition task;
  public final Prio3Variant variant = new Prio3Variant.Histogram(8, 2);

  /** Creates the fixture with a task ID derived from {@code seed} and the given DP strategy. */
  public Fixture(int seed, DpStrategy strategy) {
    this(seed, strategy, PRECISION, null, false);
  }

  /**
   * Creates the fixture with the given time precision (seconds), task interval (time_precision
   * units, or null for none) and, if {@code bindDp}, the opt-in DP-binding extension.
   */
  public Fixture(int seed, DpStrategy strategy, long precision, Interval taskInterval,
      boolean bindDp) {
    this(seed, null, strategy, precision, taskInterval, bindDp);
  }

  /** Creates the fixture for a given task ID (null: derived from {@code seed}). */
  public Fixture(int seed, TaskId id, DpStrategy strategy, long precision, Interval taskInterval,
      boolean bindDp) {
    byte[] ikm = new byte[32];
    Arrays.fill(ikm, (byte) seed);
    this.collectorKey = new Hpke(HpkeSuite.DAP_MANDATORY).deriveKeyPair(ikm);
    this.collectorConfig = new HpkeConfig(new HpkeConfigId(7), HpkeSuite.DAP_MANDATORY.kem(),
        HpkeSuite.DAP_MANDATORY.kdf(), HpkeSuite.DAP_MANDATORY.aead(), collectorKey.publicKey());
    if (id == null) {
      byte[] b = new byte[32];
      Arrays.fill(b, (byte) (seed + 1));
      id = new TaskId(b);
    }
    this.taskId = id;
    List<TaskExtension> ext = new java.util.ArrayList<>();
    if (taskInterval != null) {
      ext.add(TaskExtension.taskInterval(taskInterval));
    }
    if (bindDp) {
      ext.add(DpBinding.extension(variant, strategy, SensitivityRule.PRIODP));
    }
    TaskConfiguration config = TaskDefinition.configurationFor(variant, "fixture".getBytes(),
        "https://leader.example/", "https://helper.example/", precision, 10,
        BatchMode.TIME_INTERVAL, ext);
    this.task = new TaskDefinition(taskId, Role.HELPER, config, variant, strategy,
        SensitivityRule.PRIODP, collectorConfig, AuthToken.of(TOKEN));
  }

  /** Returns the fixture with epsilon = 1 and the opt-in DP-binding extension. */
  public static Fixture laplaceBound(int seed) {
    return new Fixture(seed, DpStrategy.PureDpDiscreteLaplace.parse("1"), PRECISION, null, true);
  }

  /** Returns the fixture with epsilon = 1, a time precision and a task interval. */
  public static Fixture withTaskInterval(int seed, long precision, Interval taskInterval) {
    return new Fixture(seed, DpStrategy.PureDpDiscreteLaplace.parse("1"), precision,
        taskInterval, false);
  }

  /** Returns the fixture with epsilon = 1 and a random task ID (for databases that persist). */
  public static Fixture laplaceRandomTask(int seed, java.util.Random random) {
    byte[] b = new byte[32];
    random.nextBytes(b);
    return new Fixture(seed, new TaskId(b), DpStrategy.PureDpDiscreteLaplace.parse("1"),
        PRECISION, null, false);
  }

  /**
   * Returns the task file JSON (as {@code serve --config} reads it) of the fixtures' tasks, which
   * must all have epsilon = 1 and no extensions.
   */
  public static String taskFileJson(List<Fixture> fixtures) {
    java.util.Base64.Encoder b = java.util.Base64.getUrlEncoder().withoutPadding();
    StringBuilder sb = new StringBuilder("{\"tasks\": [");
    for (int i = 0; i < fixtures.size(); i++) {
      Fixture f = fixtures.get(i);
      sb.append(i == 0 ? "" : ", ").append("{\"task_id\": \"").append(f.taskId.toBase64Url())
          .append("\", \"task_info\": \"fixture\",")
          .append(" \"leader_aggregator_endpoint\": \"https://leader.example/\",")
          .append(" \"helper_aggregator_endpoint\": \"https://helper.example/\",")
          .append(" \"time_precision\": ").append(f.task.configuration().timePrecision())
          .append(", \"min_batch_size\": 10, \"batch_mode\": \"time_interval\",")
          .append(" \"vdaf\": {\"type\": \"Prio3Histogram\", \"length\": 8, \"chunk_length\": 2},")
          .append(" \"dp_strategy\": {\"dp_strategy\": \"PureDpDiscreteLaplace\", \"epsilon\": \"1\"},")
          .append(" \"collector_hpke_config\": {\"id\": 7, \"kem_id\": 32, \"kdf_id\": 1,")
          .append(" \"aead_id\": 1, \"public_key\": \"")
          .append(b.encodeToString(f.collectorKey.publicKey())).append("\"},")
          .append(" \"auth_token\": \"").append(TOKEN).append("\"}");
    }
    return sb.append("]}").toString();
  }

  /** Returns the fixture with epsilon = 1. */
  public static Fixture laplace(int seed) {
    return new Fixture(seed, DpStrategy.PureDpDiscreteLaplace.parse("1"));
  }

  /** Returns the encoded share whose coordinate i is {@code value + i}. */
  public byte[] share(int value) {
    PrimeField f = variant.field();
    long[] w = f.newArray(8);
    for (int i = 0; i < 8; i++) {
      f.set(w, i, java.math.BigInteger.valueOf(value + i));
    }
    byte[] out = new byte[8 * f.encodedSize()];
    f.encode(w, 8, out, 0);
    return out;
  }

  /** Returns the checksum of bucket k (a fixed pattern). */
  public static byte[] bucketChecksum(int k) {
    byte[] c = new byte[32];
    Arrays.fill(c, (byte) (0x11 * (k + 1)));
    return c;
  }

  /** The DAP-18 time (time_precision units) of bucket 0. */
  public static final long FIRST_BUCKET = 10;

  /** Writes buckets 0..n-1 (time 10 + k) with share(k), 20 reports and bucketChecksum(k). */
  public void writeBuckets(Datastore store, int n) {
    for (int k = 0; k < n; k++) {
      BatchAggregation bucket = new BatchAggregation(taskId,
          BatchBuckets.timeIntervalBucket(FIRST_BUCKET + k), ByteString.EMPTY,
          ByteString.copyOf(share(k)), BUCKET_REPORTS, ByteString.copyOf(bucketChecksum(k)));
      store.inTaskTransaction(taskId, tx -> {
        tx.batchBuckets().put(bucket);
        return null;
      });
    }
  }

  /** Returns the XOR of the checksums of buckets from..to-1. */
  public static byte[] checksum(int from, int to) {
    byte[] c = new byte[32];
    for (int k = from; k < to; k++) {
      byte[] b = bucketChecksum(k);
      for (int i = 0; i < 32; i++) {
        c[i] ^= b[i];
      }
    }
    return c;
  }

  /** Returns the request for buckets from..to-1 with the matching count and checksum. */
  public AggregateShareReq request(int from, int to) {
    return request(from, to, BUCKET_REPORTS * (to - from), checksum(from, to));
  }

  /** Returns the request for buckets from..to-1 with the given count and checksum. */
  public AggregateShareReq request(int from, int to, long reportCount, byte[] checksum) {
    Interval i = Interval.of(FIRST_BUCKET + from, to - from);
    return new AggregateShareReq(new CollectionJobReq(new Query.TimeInterval(i), new byte[0],
        List.of()), new BatchSelector.TimeInterval(i), reportCount, checksum);
  }

  /** Opens an encoded AggregateShare as the Collector with the task's configuration. */
  public byte[] open(byte[] aggregateShare, AggregateShareReq req) throws HpkeException {
    return open(aggregateShare, req, task.configuration());
  }

  /** Opens an encoded AggregateShare as the Collector with a given configuration in the AAD. */
  public byte[] open(byte[] aggregateShare, AggregateShareReq req, TaskConfiguration config)
      throws HpkeException {
    AggregateShare s = AggregateShare.decode(aggregateShare);
    return AggregateShareEncryption.open(task.dapVersion(), collectorConfig, collectorKey, Role.HELPER,
        new AggregateShareAad(taskId, config, req.collectionJobReq()),
        s.encryptedAggregateShare());
  }

  /** Returns the sum of share(from..to-1): the un-noised aggregate. */
  public byte[] unnoised(int from, int to) {
    PrimeField f = variant.field();
    long[] sum = f.newArray(8);
    for (int k = from; k < to; k++) {
      byte[] s = share(k);
      f.addVec(sum, f.decode(s, 0, s.length, 8), sum, 8);
    }
    byte[] out = new byte[8 * f.encodedSize()];
    f.encode(sum, 8, out, 0);
    return out;
  }

  /** Returns the configuration a Collector that binds these DP settings would use. */
  public TaskConfiguration boundWith(DpStrategy strategy) {
    TaskConfiguration c = unbound();
    return DpBinding.bind(c, variant, strategy, SensitivityRule.PRIODP);
  }

  /** Returns the task's configuration without the DP-binding extension. */
  public TaskConfiguration unbound() {
    TaskConfiguration c = task.configuration();
    return new TaskConfiguration(c.taskInfo(), c.leaderAggregatorEndpoint(),
        c.helperAggregatorEndpoint(), c.timePrecision(), c.minBatchSize(), c.batchMode(),
        c.batchConfig(), c.vdafType(), c.vdafConfiguration(), c.extensions().stream()
            .filter(e -> e.extensionType() != DpBinding.EXTENSION_TYPE).toList());
  }

  /**
   * Returns this fixture's task in {@code role} bound to a Collector by the collector_identity
   * task extension (draft-ietf-ppm-dap-attribution-00 section 6, the default code point) holding
   * {@code identity} as UTF-8.
   */
  public TaskDefinition withCollectorIdentity(Role role, java.net.URI identity) {
    TaskConfiguration c = task.configuration();
    List<TaskExtension> ext = new java.util.ArrayList<>(c.extensions());
    ext.add(new TaskExtension(
        org.priodp.aggregator.task.AttributionCodePoints.DEFAULTS.collectorIdentity(),
        identity.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    ext.sort(java.util.Comparator.comparingInt(TaskExtension::extensionType));
    TaskConfiguration bound = new TaskConfiguration(c.taskInfo(), c.leaderAggregatorEndpoint(),
        c.helperAggregatorEndpoint(), c.timePrecision(), c.minBatchSize(), c.batchMode(),
        c.batchConfig(), c.vdafType(), c.vdafConfiguration(), ext);
    return new TaskDefinition(taskId, role, bound, variant, task.dpStrategy(),
        SensitivityRule.PRIODP, collectorConfig, AuthToken.of(TOKEN));
  }

  /** Returns share(k) alone: the un-noised aggregate of one bucket. */
  public byte[] unnoisedOf(int k) {
    return share(k);
  }
}
