package org.priodp.aggregator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.core.CollectionJobService;
import org.priodp.aggregator.core.HelperPeer;
import org.priodp.aggregator.core.NoisedShareService;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.dap.AggregateShare;
import org.priodp.aggregator.dap.AggregateShareReq;
import org.priodp.aggregator.dap.AggregationJobInitReq;
import org.priodp.aggregator.dap.AggregationJobResp;
import org.priodp.aggregator.dap.CollectionJobReq;
import org.priodp.aggregator.datastore.CollectionJobRecord;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import org.priodp.aggregator.testing.CollectionFixture;
import org.priodp.aggregator.testing.Fixture;
import org.priodp.aggregator.testing.InProcessHelperPeer;
import org.priodp.aggregator.testing.SpecCollector;
import org.priodp.noise.RandomSource;
import org.priodp.vdaf.dp.DpStrategy;

/**
 * The background stepping of collection jobs: a Leader {@link Aggregator} with a Helper peer
 * starts the driver, and a Collector written from DAP-18's structs collects over HTTP on loopback
 * (POST, GET with Retry-After until ready) with nothing stepping the job but the driver; a step
 * that throws is logged and leaves its job pending; a closed driver steps nothing.
 */
class CollectionJobDriverTest {
  @TempDir
  Path dir;

  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @Test
  void theServersDriverCompletesJobsACollectorPollsOverHttp() throws Exception {
    Fixture f = new Fixture(95, new DpStrategy.NoDifferentialPrivacy());
    CollectionFixture lf = new CollectionFixture(f);
    try (JdbcDatastore leaderStore = JdbcDatastore.openSqlite(
            dir.resolve("leader.db"));
        JdbcDatastore helperStore = JdbcDatastore.openSqlite(
            dir.resolve("helper.db"))) {
      lf.writeLeaderBuckets(leaderStore, 3);
      f.writeBuckets(helperStore, 3);
      // an asynchronous Helper whose background work runs on the thread that hands it over
      DapRouter helper = DapRouter.builder(List.of(f.task), helperStore).aggregateShares(
          new NoisedShareService(helperStore, RandomSource.secure(), Clock.systemUTC()),
          new AggregateSharesRoute.AsyncShares(Runnable::run, 1)).build();
      InProcessHelperPeer peer = new InProcessHelperPeer(helper, 3);
      Aggregator server = Aggregator.start(AggregatorConfig.builder(List.of(lf.leader), leaderStore)
          .helperPeer(peer).build());
      assertTrue(server.collectionJobs().isPresent());
      int port = server.port();
      try {
        byte[] cjr = SpecCollector.collectionJobReq(10, 3);
        String base = "http://127.0.0.1:" + port;
        HttpResponse<byte[]> r = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/tasks/"
            + f.taskId.toBase64Url() + "/collection_jobs"))
            .header("Content-Type", "application/ppm-dap;message=collection-job-req")
            .header("Authorization", "Bearer " + CollectionFixture.COLLECTOR_TOKEN)
            .timeout(Duration.ofSeconds(30))
            .POST(HttpRequest.BodyPublishers.ofByteArray(cjr)).build(),
            HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, r.statusCode());
        String location = r.headers().firstValue("Location").orElseThrow();
        byte[] body = r.body();
        int polls = 0;
        while (body.length == 0) {
          assertTrue(polls++ < 300, "the job never became ready");
          long retry = Long.parseLong(r.headers().firstValue("Retry-After").orElse("1"));
          assertTrue(retry >= 0 && retry <= 1, "Retry-After " + retry);
          Thread.sleep(100);
          r = HTTP.send(HttpRequest.newBuilder(URI.create(base + location))
              .header("Authorization", "Bearer " + CollectionFixture.COLLECTOR_TOKEN)
              .timeout(Duration.ofSeconds(30)).GET().build(),
              HttpResponse.BodyHandlers.ofByteArray());
          assertEquals(200, r.statusCode());
          body = r.body();
        }
        assertEquals("application/ppm-dap;message=collection-job-resp",
            r.headers().firstValue("Content-Type").orElseThrow());
        SpecCollector.Resp resp = SpecCollector.Resp.decode(body);
        byte[] aad = SpecCollector.aad(f.taskId.bytes(), SpecCollector.histogramTaskConfiguration(
            8, 2, Fixture.PRECISION, 10, new byte[0]), cjr);
        BigInteger[] result = SpecCollector.unshard(
            SpecCollector.open(f.collectorKey, SpecCollector.LEADER, resp.leader(), aad),
            SpecCollector.open(f.collectorKey, SpecCollector.HELPER, resp.helper(), aad));
        long[] truth = CollectionFixture.truth(0, 3);
        for (int i = 0; i < 8; i++) {
          assertEquals(BigInteger.valueOf(truth[i]), result[i], "coordinate " + i);
        }
        assertEquals(60, resp.reportCount());
        System.out.println("CollectionJobDriverTest: ready after " + polls + " polls, Helper "
            + peer.seen);
      } finally {
        server.close();
      }
    }
  }

  @Test
  void aStepThatThrowsIsLoggedAndAClosedDriverStepsNothing() throws Exception {
    Fixture f = new Fixture(96, new DpStrategy.NoDifferentialPrivacy());
    CollectionFixture lf = new CollectionFixture(f);
    try (JdbcDatastore store = JdbcDatastore.openSqlite(
        dir.resolve("l.db"))) {
      lf.writeLeaderBuckets(store, 3);
      HelperPeer broken = new HelperPeer() {
        @Override
        public AggregationJobResp initializeAggregationJob(TaskDefinition task,
            AggregationJobInitReq req) {
          throw new UnsupportedOperationException();
        }

        @Override
        public AggregateShare aggregateShare(TaskDefinition task, AggregateShareReq req) {
          throw new IllegalStateException("a bug in the peer");
        }
      };
      CollectionJobService service = new CollectionJobService(store,
          new NoisedShareService(store, RandomSource.secure(), Clock.systemUTC()), broken,
          Clock.systemUTC(), Duration.ofMinutes(5), Duration.ofSeconds(5), "test");
      CollectionJobRecord job = service.create(lf.leader, CollectionJobReq.decode(
          SpecCollector.collectionJobReq(10, 3)));
      CollectionJobDriver driver = new CollectionJobDriver(service, List.of(lf.leader), 1,
          Duration.ofSeconds(1));
      assertEquals(0, driver.runOnce());
      assertEquals(CollectionJobRecord.State.PENDING,
          service.job(f.taskId, job.jobId()).orElseThrow().state());
      assertEquals(0, driver.runOnce(), "leased until the lease expires");
      driver.start();
      driver.close();
      assertEquals(0, driver.runOnce());
    }
  }
}
