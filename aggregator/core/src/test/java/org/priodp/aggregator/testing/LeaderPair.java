package org.priodp.aggregator.testing;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.dap.BatchMode;
import org.priodp.aggregator.dap.HpkeConfig;
import org.priodp.aggregator.dap.HpkeConfigId;
import org.priodp.aggregator.dap.InputShareAad;
import org.priodp.aggregator.dap.InputShareEncryption;
import org.priodp.aggregator.dap.PlaintextInputShare;
import org.priodp.aggregator.dap.Report;
import org.priodp.aggregator.dap.ReportId;
import org.priodp.aggregator.dap.ReportMetadata;
import org.priodp.aggregator.dap.Role;
import org.priodp.aggregator.dap.TaskConfiguration;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.hpke.Hpke;
import org.priodp.aggregator.hpke.HpkeKeyPair;
import org.priodp.aggregator.hpke.HpkeSuite;
import org.priodp.aggregator.task.AuthToken;
import org.priodp.vdaf.Prio3;
import org.priodp.vdaf.Prio3Variant;
import org.priodp.vdaf.dp.DpStrategy;
import org.priodp.vdaf.dp.SensitivityRule;

/**
 * One time-interval task as both aggregators are provisioned with it (same ID, configuration,
 * VDAF verification key and Leader token; no DP), the Helper at {@code
 * http://127.0.0.1:PORT/dap/}, and Clients' reports made with Prio3 sharding and sealed to both
 * aggregators' HPKE keys; for the Leader aggregation tests.
 */
public final class LeaderPair {
  /** The Leader's bearer token to the Helper. */
  public static final String TOKEN = "leader-token_0123456789";
  /** The time precision in seconds. */
  public static final long PRECISION = 3600;

  public final Prio3Variant variant;
  public final TaskId taskId;
  public final byte[] verifyKey = new byte[32];
  public final HpkeKeyPair collectorKey;
  public final TaskDefinition leader;
  public final TaskDefinition helper;
  private final Random random;

  /** Creates the task with IDs and keys from {@code random}, the Helper on {@code helperPort}. */
  public LeaderPair(Prio3Variant variant, Random random, int helperPort) {
    this(variant, random, helperPort, BatchMode.TIME_INTERVAL, 1);
  }

  /** Creates the task in a batch mode with a min_batch_size. */
  public LeaderPair(Prio3Variant variant, Random random, int helperPort, BatchMode mode,
      long minBatchSize) {
    this.variant = variant;
    this.random = random;
    byte[] id = new byte[32];
    random.nextBytes(id);
    taskId = new TaskId(id);
    random.nextBytes(verifyKey);
    byte[] ikm = new byte[32];
    random.nextBytes(ikm);
    collectorKey = new Hpke(HpkeSuite.DAP_MANDATORY).deriveKeyPair(ikm);
    HpkeConfig collector = new HpkeConfig(new HpkeConfigId(7), HpkeSuite.DAP_MANDATORY.kem(),
        HpkeSuite.DAP_MANDATORY.kdf(), HpkeSuite.DAP_MANDATORY.aead(), collectorKey.publicKey());
    TaskConfiguration config = TaskDefinition.configurationFor(variant,
        "leader-pair".getBytes(StandardCharsets.US_ASCII), "http://127.0.0.1:1/leader/",
        "http://127.0.0.1:" + helperPort + "/dap/", PRECISION, minBatchSize, mode, List.of());
    leader = new TaskDefinition(taskId, Role.LEADER, config, variant,
        new DpStrategy.NoDifferentialPrivacy(), SensitivityRule.PRIODP, collector,
        AuthToken.of(TOKEN)).withVdafVerifyKeys(Map.of(0, verifyKey))
        .withCollectorAuthToken(AuthToken.of("collector-token_0123456789"));
    helper = new TaskDefinition(taskId, Role.HELPER, config, variant,
        new DpStrategy.NoDifferentialPrivacy(), SensitivityRule.PRIODP, collector,
        AuthToken.of(TOKEN)).withVdafVerifyKeys(Map.of(0, verifyKey));
  }

  /** Returns a free TCP port on 127.0.0.1 (closed again, so another server may take it). */
  public static int freePort() throws java.io.IOException {
    try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1,
        java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  /** Returns the current DAP-18 time in time_precision units. */
  public static long now() {
    return System.currentTimeMillis() / 1000 / PRECISION;
  }

  /** Returns the VDAF application context {@code "dap-NN" || task_id} of the task's version. */
  public byte[] ctx() {
    return leader.dapVersion().vdafContext(taskId);
  }

  /** A random valid measurement of the variant. */
  public List<BigInteger> measurement() {
    if (variant instanceof Prio3Variant.Count) {
      return List.of(BigInteger.valueOf(random.nextInt(2)));
    }
    if (variant instanceof Prio3Variant.Sum s) {
      return List.of(BigInteger.valueOf(random.nextInt(s.maxMeasurement().intValueExact() + 1)));
    }
    if (variant instanceof Prio3Variant.SumVec s) {
      List<BigInteger> m = new ArrayList<>();
      for (int i = 0; i < s.length(); i++) {
        m.add(BigInteger.valueOf(random.nextInt(s.maxMeasurement().intValueExact() + 1)));
      }
      return m;
    }
    if (variant instanceof Prio3Variant.Histogram h) {
      return List.of(BigInteger.valueOf(random.nextInt(h.length())));
    }
    if (variant instanceof Prio3Variant.L1BoundSum l) {
      // max_value split at random over the coordinates: the sum is at the bound
      List<BigInteger> m = new ArrayList<>();
      int left = l.maxValue().intValueExact();
      for (int i = 0; i < l.length(); i++) {
        int v = i == l.length() - 1 ? left : random.nextInt(left + 1);
        m.add(BigInteger.valueOf(v));
        left -= v;
      }
      return m;
    }
    Prio3Variant.MultihotCountVec mh = (Prio3Variant.MultihotCountVec) variant;
    List<BigInteger> m = new ArrayList<>();
    for (int i = 0; i < mh.length(); i++) {
      m.add(BigInteger.ZERO);
    }
    m.set(random.nextInt(mh.length()), BigInteger.ONE);
    return m;
  }

  /** Returns the true aggregate (one element per output coordinate). */
  public List<BigInteger> truth(List<List<BigInteger>> ms) {
    int n = new Prio3(variant).outputLength();
    BigInteger[] sum = new BigInteger[n];
    Arrays.fill(sum, BigInteger.ZERO);
    for (List<BigInteger> m : ms) {
      if (variant instanceof Prio3Variant.Histogram) {
        sum[m.get(0).intValue()] = sum[m.get(0).intValue()].add(BigInteger.ONE);
      } else {
        for (int i = 0; i < n; i++) {
          sum[i] = sum[i].add(m.get(i));
        }
      }
    }
    return List.of(sum);
  }

  /** Shards {@code m} at {@code time} and seals the input shares to both aggregators. */
  public Report report(HpkeConfig leaderKey, HpkeConfig helperKey, long time,
      List<BigInteger> m) {
    Prio3 prio3 = new Prio3(variant);
    byte[] id = new byte[16];
    random.nextBytes(id);
    byte[] rand = new byte[prio3.randSize()];
    random.nextBytes(rand);
    Prio3.ShardResult shard = prio3.shard(ctx(), m, id, rand);
    ReportMetadata metadata = ReportMetadata.of(new ReportId(id), time);
    byte[] publicShare = shard.publicShare().encode();
    InputShareAad aad = new InputShareAad(taskId, leader.configuration(), metadata, publicShare);
    try {
      return new Report(metadata, publicShare,
          InputShareEncryption.seal(leader.dapVersion(), leaderKey, Role.LEADER, aad,
              new PlaintextInputShare(List.of(), shard.inputShares().get(0).encode())),
          InputShareEncryption.seal(leader.dapVersion(), helperKey, Role.HELPER, aad,
              new PlaintextInputShare(List.of(), shard.inputShares().get(1).encode())));
    } catch (org.priodp.aggregator.hpke.HpkeException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Returns the XOR of SHA-256 of the report IDs (DAP-18 "Batch Buckets" checksum). */
  public static byte[] checksum(List<ReportId> ids) throws Exception {
    byte[] c = new byte[32];
    for (ReportId id : ids) {
      byte[] h = MessageDigest.getInstance("SHA-256").digest(id.bytes());
      for (int i = 0; i < 32; i++) {
        c[i] ^= h[i];
      }
    }
    return c;
  }

  /**
   * Asserts that the time-interval bucket of {@code time} counts every report of {@code ids}
   * exactly once on both sides (report count and checksum).
   */
  public void assertCountedOnce(org.priodp.aggregator.datastore.Datastore leaderStore,
      org.priodp.aggregator.datastore.Datastore helperStore, long time, List<ReportId> ids)
      throws Exception {
    org.priodp.aggregator.datastore.BatchIdentifier bucket =
        org.priodp.aggregator.core.BatchBuckets.timeIntervalBucket(time);
    for (org.priodp.aggregator.datastore.Datastore store : List.of(leaderStore, helperStore)) {
      String side = store == leaderStore ? "Leader" : "Helper";
      org.priodp.aggregator.datastore.BatchAggregation b = store.inTaskTransaction(taskId,
          tx -> tx.batchBuckets().get(bucket)).orElseThrow();
      org.junit.jupiter.api.Assertions.assertEquals(ids.size(), b.reportCount(),
          side + ": every report once");
      org.junit.jupiter.api.Assertions.assertArrayEquals(checksum(ids),
          b.checksum().toByteArray(), side + ": the checksum of every report");
    }
  }

  /** Returns the number the query gives for this pair's task ID as its only parameter. */
  public long count(String jdbcUrl, String sql) throws Exception {
    try (java.sql.Connection c = java.sql.DriverManager.getConnection(jdbcUrl);
        java.sql.PreparedStatement p = c.prepareStatement(sql)) {
      p.setBytes(1, taskId.bytes());
      try (java.sql.ResultSet rs = p.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  /**
   * Returns the Leader's task file (as {@code serve --config} reads it) for a Prio3Histogram
   * pair; the Helper endpoint is the one this pair was made with.
   */
  public String leaderTaskJson() {
    java.util.Base64.Encoder b = java.util.Base64.getUrlEncoder().withoutPadding();
    Prio3Variant.Histogram h = (Prio3Variant.Histogram) variant;
    return "{\"tasks\": [{\"task_id\": \"" + taskId.toBase64Url() + "\", \"role\": \"leader\","
        + " \"task_info\": \"leader-pair\","
        + " \"leader_aggregator_endpoint\": \"" + leader.configuration().leaderAggregatorEndpoint()
        + "\", \"helper_aggregator_endpoint\": \""
        + leader.configuration().helperAggregatorEndpoint() + "\","
        + " \"time_precision\": " + PRECISION + ", \"min_batch_size\": 1,"
        + " \"batch_mode\": \"time_interval\","
        + " \"vdaf\": {\"type\": \"Prio3Histogram\", \"length\": " + h.length()
        + ", \"chunk_length\": " + h.chunkLength() + "},"
        + " \"dp_strategy\": {\"dp_strategy\": \"NoDifferentialPrivacy\"},"
        + " \"collector_hpke_config\": {\"id\": 7, \"kem_id\": 32, \"kdf_id\": 1, \"aead_id\": 1,"
        + " \"public_key\": \"" + b.encodeToString(collectorKey.publicKey()) + "\"},"
        + " \"auth_token\": \"" + TOKEN + "\","
        + " \"collector_auth_token\": \"collector-token_0123456789\","
        + " \"vdaf_verify_key\": \"" + b.encodeToString(verifyKey) + "\"}]}";
  }
}
