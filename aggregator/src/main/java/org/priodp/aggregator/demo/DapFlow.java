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
import java.util.List;
import org.priodp.aggregator.core.NoisedShareService;
import org.priodp.aggregator.dap.AggregateShareReq;
import org.priodp.aggregator.dap.BatchId;
import org.priodp.aggregator.dap.DapMediaType;
import org.priodp.aggregator.dap.Role;
import org.priodp.aggregator.service.HelperServer;
import org.priodp.aggregator.service.TaskRoutes;
import org.priodp.aggregator.store.AggregateShareStore;
import org.priodp.aggregator.store.JdbcAggregateShareStore;
import org.priodp.aggregator.provision.LoopbackTask;
import org.priodp.field.FieldVector;
import org.priodp.noise.RandomSource;
import org.priodp.vdaf.Prio3Variant;
import org.priodp.vdaf.dp.DpStrategy;

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
    LoopbackTask task = new LoopbackTask(variant, strategy, Math.min(agg.accepted(), 100), random);
    BatchId batchId = task.newBatchId();
    AggregateShareReq req = task.request(batchId, agg.accepted(), agg.checksum());

    Path helperDb = dataDir.resolve("helper.sqlite");
    try (AggregateShareStore helperStore = JdbcAggregateShareStore.openSqlite(helperDb);
        AggregateShareStore leaderStore = JdbcAggregateShareStore.openSqlite(dataDir.resolve("leader.sqlite"))) {
      // each host writes its un-noised batch aggregation through the store interface
      task.writeBatch(helperStore, batchId, encode(agg.helperShare()), agg.accepted(), agg.checksum());
      task.writeBatch(leaderStore, batchId, encode(agg.leaderShare()), agg.accepted(), agg.checksum());

      HelperServer helper = new HelperServer(List.of(task.helper()), helperStore, RandomSource.secure());
      int port = helper.start(0);
      String url = "http://127.0.0.1:" + port;
      byte[] helperSealed;
      try {
        HttpRequest post = HttpRequest.newBuilder(
                URI.create(url + TaskRoutes.aggregateSharesPath(task.helper())))
            .header("Authorization", task.helper().authToken().authorizationHeader())
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
          .release(task.leader(), req).aggregateShare().toByteArray();

      // the collector knows the task's DP settings: the AAD carries their digest
      return new DapFlow(task.open(Role.LEADER, req, leaderSealed),
          task.open(Role.HELPER, req, helperSealed), url, helperDb);
    }
  }

  private static byte[] encode(FieldVector v) {
    return v.encode();
  }
}
