package org.priodp.aggregator.provision;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import org.priodp.aggregator.core.BatchBuckets;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.dap.AggregateShare;
import org.priodp.aggregator.dap.AggregateShareAad;
import org.priodp.aggregator.dap.AggregateShareEncryption;
import org.priodp.aggregator.dap.AggregateShareReq;
import org.priodp.aggregator.dap.BatchId;
import org.priodp.aggregator.dap.BatchMode;
import org.priodp.aggregator.dap.BatchSelector;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.CollectionJobReq;
import org.priodp.aggregator.dap.HpkeConfig;
import org.priodp.aggregator.dap.HpkeConfigId;
import org.priodp.aggregator.dap.Query;
import org.priodp.aggregator.dap.Role;
import org.priodp.aggregator.dap.TaskConfiguration;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.BatchAggregation;
import org.priodp.aggregator.datastore.Datastore;
import org.priodp.aggregator.hpke.Hpke;
import org.priodp.aggregator.hpke.HpkeException;
import org.priodp.aggregator.hpke.HpkeKeyPair;
import org.priodp.aggregator.hpke.HpkeSuite;
import org.priodp.aggregator.task.AuthToken;
import org.priodp.vdaf.Prio3Variant;
import org.priodp.vdaf.dp.DpStrategy;
import org.priodp.vdaf.dp.SensitivityRule;

/**
 * A self-contained leader-selected DAP-18 task for runs on one machine (the load
 * generator): a fresh collector key pair, a random task id and bearer token, the leader's and
 * the helper's task definitions (plain DAP-18: no DP-binding extension), and helpers
 * to write a batch, build its AggregateShareReq and open what an aggregator released.
 */
public final class LoopbackTask {
  private final HpkeKeyPair collectorKey;
  private final TaskDefinition helper;
  private final TaskDefinition leader;
  private final SecureRandom random;

  /** Creates the task for the variant and strategy; {@code minBatchSize} is the task's. */
  public LoopbackTask(Prio3Variant variant, DpStrategy strategy, long minBatchSize, SecureRandom random) {
    this.random = random;
    collectorKey = new Hpke(HpkeSuite.DAP_MANDATORY).generateKeyPair();
    HpkeConfig collectorConfig = new HpkeConfig(new HpkeConfigId(1), HpkeSuite.DAP_MANDATORY.kem(),
        HpkeSuite.DAP_MANDATORY.kdf(), HpkeSuite.DAP_MANDATORY.aead(), collectorKey.publicKey());
    TaskId taskId = new TaskId(bytes(32));
    TaskConfiguration config = TaskDefinition.configurationFor(variant,
        "prio-dp loopback".getBytes(StandardCharsets.US_ASCII), "http://127.0.0.1/",
        "http://127.0.0.1/", 3600, minBatchSize, BatchMode.LEADER_SELECTED, List.of());
    AuthToken token = AuthToken.of(HexFormat.of().formatHex(bytes(16)));
    helper = new TaskDefinition(taskId, Role.HELPER, config, variant, strategy,
        SensitivityRule.PRIODP, collectorConfig, token);
    leader = new TaskDefinition(taskId, Role.LEADER, config, variant, strategy,
        SensitivityRule.PRIODP, collectorConfig, token);
  }

  /** Returns the helper's task definition. */
  public TaskDefinition helper() {
    return helper;
  }

  /** Returns the leader's task definition. */
  public TaskDefinition leader() {
    return leader;
  }

  /** Returns a fresh batch id. */
  public BatchId newBatchId() {
    return new BatchId(bytes(32));
  }

  /** Writes a batch aggregation (un-noised share, report count, checksum) for one batch. */
  public void writeBatch(Datastore store, BatchId batch, byte[] share, long reportCount,
      byte[] checksum) {
    BatchAggregation bucket = new BatchAggregation(helper.taskId(),
        BatchBuckets.leaderSelectedBucket(batch), ByteString.EMPTY, ByteString.copyOf(share),
        reportCount, ByteString.copyOf(checksum));
    store.inTaskTransaction(helper.taskId(), tx -> {
      tx.batchBuckets().put(bucket);
      return null;
    });
  }

  /** Returns the AggregateShareReq for one leader-selected batch. */
  public AggregateShareReq request(BatchId batch, long reportCount, byte[] checksum) {
    return new AggregateShareReq(
        new CollectionJobReq(new Query.LeaderSelected(), new byte[0], List.of()),
        new BatchSelector.LeaderSelected(batch), reportCount, checksum);
  }

  /**
   * Opens, as the collector, an encoded AggregateShare released by {@code server} for
   * {@code req}, with the DP-bound task configuration in the AAD.
   *
   * @throws IllegalStateException if it does not open (wrong key, AAD or DP settings)
   */
  public byte[] open(Role server, AggregateShareReq req, byte[] aggregateShare) {
    AggregateShareAad aad = new AggregateShareAad(helper.taskId(), helper.configuration(),
        req.collectionJobReq());
    try {
      return AggregateShareEncryption.open(helper.dapVersion(), helper.collectorHpkeConfig(), collectorKey, server, aad,
          AggregateShare.decode(aggregateShare).encryptedAggregateShare());
    } catch (HpkeException e) {
      throw new IllegalStateException("the collector cannot open the " + server + "'s share", e);
    }
  }

  private byte[] bytes(int n) {
    byte[] b = new byte[n];
    random.nextBytes(b);
    return b;
  }
}
