package org.priodp.aggregator.demo;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.HexFormat;
import java.util.List;
import org.priodp.aggregator.core.BatchBuckets;
import org.priodp.aggregator.core.NoisedShareService;
import org.priodp.aggregator.dap.AggregateShare;
import org.priodp.aggregator.dap.AggregateShareAad;
import org.priodp.aggregator.dap.AggregateShareEncryption;
import org.priodp.aggregator.dap.AggregateShareReq;
import org.priodp.aggregator.dap.BatchId;
import org.priodp.aggregator.dap.BatchMode;
import org.priodp.aggregator.dap.BatchSelector;
import org.priodp.aggregator.dap.CollectionJobReq;
import org.priodp.aggregator.dap.DapMediaType;
import org.priodp.aggregator.dap.HpkeConfig;
import org.priodp.aggregator.dap.HpkeConfigId;
import org.priodp.aggregator.dap.Query;
import org.priodp.aggregator.dap.Role;
import org.priodp.aggregator.dap.TaskConfiguration;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.hpke.Hpke;
import org.priodp.aggregator.hpke.HpkeException;
import org.priodp.aggregator.hpke.HpkeKeyPair;
import org.priodp.aggregator.hpke.HpkeSuite;
import org.priodp.aggregator.service.HelperServer;
import org.priodp.aggregator.store.AggregateShareStore;
import org.priodp.aggregator.store.BatchAggregation;
import org.priodp.aggregator.store.JdbcAggregateShareStore;
import org.priodp.aggregator.task.AuthToken;
import org.priodp.aggregator.task.TaskDefinition;
import org.priodp.field.FieldVector;
import org.priodp.noise.RandomSource;
import org.priodp.vdaf.DpStrategy;
import org.priodp.vdaf.Prio3Variant;
import org.priodp.vdaf.SensitivityRule;

/**
 * The DAP-18 part of the demo: one leader-selected batch of a Prio3 task whose DP settings are
 * bound into the task configuration. The helper writes its batch aggregation to its SQLite
 * store and serves the aggregate-share endpoint on loopback; the leader releases its own share
 * through the same once-per-batch core and collects the helper's share with an
 * AggregateShareReq over HTTP; the collector opens both HPKE ciphertexts.
 *
 * @param leaderShare the leader's noised aggregate share, as the collector decrypted it
 * @param helperShare the helper's noised aggregate share, as the collector decrypted it
 * @param helperUrl the URL the helper served on
 * @param helperDatabase the helper's SQLite file
 */
record DapFlow(byte[] leaderShare, byte[] helperShare, String helperUrl, Path helperDatabase) {

  /** Runs the flow for one batch and returns what the collector decrypted. */
  static DapFlow run(Prio3Variant variant, DpStrategy strategy, ClientsAndAggregators agg,
      Path dataDir, SecureRandom random) throws IOException, InterruptedException {
    Hpke hpke = new Hpke(HpkeSuite.DAP_MANDATORY);
    HpkeKeyPair collectorKey = hpke.generateKeyPair();
    HpkeConfig collectorConfig = new HpkeConfig(new HpkeConfigId(1), HpkeSuite.DAP_MANDATORY.kem(),
        HpkeSuite.DAP_MANDATORY.kdf(), HpkeSuite.DAP_MANDATORY.aead(), collectorKey.publicKey());
    TaskId taskId = new TaskId(bytes(random, 32));
    long minBatchSize = Math.min(agg.accepted(), 100);
    TaskConfiguration config = TaskDefinition.configurationFor(variant,
        "prio-dp demo".getBytes(StandardCharsets.US_ASCII), "http://127.0.0.1/leader/",
        "http://127.0.0.1/helper/", 3600, minBatchSize, BatchMode.LEADER_SELECTED, List.of());
    AuthToken token = AuthToken.of(HexFormat.of().formatHex(bytes(random, 16)));
    TaskDefinition helperTask = new TaskDefinition(taskId, Role.HELPER, config, variant, strategy,
        SensitivityRule.PRIODP, collectorConfig, token);
    TaskDefinition leaderTask = new TaskDefinition(taskId, Role.LEADER, config, variant, strategy,
        SensitivityRule.PRIODP, collectorConfig, token);

    BatchId batchId = new BatchId(bytes(random, 32));
    byte[] bucket = BatchBuckets.leaderSelectedBucket(batchId);
    AggregateShareReq req = new AggregateShareReq(
        new CollectionJobReq(new Query.LeaderSelected(), new byte[0], List.of()),
        new BatchSelector.LeaderSelected(batchId), agg.accepted(), agg.checksum());

    Path helperDb = dataDir.resolve("helper.sqlite");
    try (AggregateShareStore helperStore = JdbcAggregateShareStore.openSqlite(helperDb);
        AggregateShareStore leaderStore = JdbcAggregateShareStore.openSqlite(dataDir.resolve("leader.sqlite"))) {
      // each host writes its un-noised batch aggregation through the store interface
      helperStore.putBatchAggregation(new BatchAggregation(taskId, bucket, new byte[0],
          encode(agg.helperShare()), agg.accepted(), agg.checksum()));
      leaderStore.putBatchAggregation(new BatchAggregation(taskId, bucket, new byte[0],
          encode(agg.leaderShare()), agg.accepted(), agg.checksum()));

      HelperServer helper = new HelperServer(List.of(helperTask), helperStore, RandomSource.secure());
      int port = helper.start(0);
      String url = "http://127.0.0.1:" + port;
      byte[] helperSealed;
      try {
        HttpRequest post = HttpRequest.newBuilder(
                URI.create(url + "/tasks/" + taskId.toBase64Url() + "/aggregate_shares"))
            .header("Authorization", token.authorizationHeader())
            .header("Content-Type", DapMediaType.AGGREGATE_SHARE_REQ.contentType())
            .POST(HttpRequest.BodyPublishers.ofByteArray(req.encode()))
            .build();
        HttpResponse<byte[]> response =
            HttpClient.newHttpClient().send(post, HttpResponse.BodyHandlers.ofByteArray());
        if (response.statusCode() != 200) {
          throw new IllegalStateException("the helper answered " + response.statusCode() + ": "
              + new String(response.body(), StandardCharsets.UTF_8));
        }
        helperSealed = response.body();
      } finally {
        helper.stop();
      }
      byte[] leaderSealed = new NoisedShareService(leaderStore, RandomSource.secure(), Clock.systemUTC())
          .release(leaderTask, req).aggregateShare();

      // the collector knows the task's DP settings: the AAD carries their digest
      AggregateShareAad aad = new AggregateShareAad(taskId, helperTask.boundConfiguration(),
          req.collectionJobReq());
      return new DapFlow(open(collectorConfig, collectorKey, Role.LEADER, aad, leaderSealed),
          open(collectorConfig, collectorKey, Role.HELPER, aad, helperSealed), url, helperDb);
    }
  }

  private static byte[] open(HpkeConfig config, HpkeKeyPair key, Role server, AggregateShareAad aad,
      byte[] sealed) {
    try {
      return AggregateShareEncryption.open(config, key, server, aad,
          AggregateShare.decode(sealed).encryptedAggregateShare());
    } catch (HpkeException e) {
      throw new IllegalStateException("the collector cannot open the " + server + "'s share", e);
    }
  }

  private static byte[] encode(FieldVector v) {
    return v.encode();
  }

  private static byte[] bytes(SecureRandom random, int n) {
    byte[] b = new byte[n];
    random.nextBytes(b);
    return b;
  }
}
