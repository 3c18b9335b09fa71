package org.priodp.aggregator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.core.HelperPeer;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.dap.AggregateShare;
import org.priodp.aggregator.dap.AggregateShareReq;
import org.priodp.aggregator.dap.AggregationJobInitReq;
import org.priodp.aggregator.dap.AggregationJobResp;
import org.priodp.aggregator.dap.DapMediaType;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import org.priodp.aggregator.testing.Fixture;
import org.priodp.aggregator.testing.LeaderFixture;
import org.priodp.noise.RandomSource;

/**
 * The one assembly of a running aggregator (DAP-18 "Roles"): what it builds for each role, that
 * clock, randomness and executors come from the configuration, that a failed start releases
 * everything, and that close stops every background thread.
 */
class AggregatorTest {
  private static final String AUTH = "Bearer " + Fixture.TOKEN;
  private static final String TYPE = DapMediaType.AGGREGATE_SHARE_REQ.contentType();

  @TempDir
  Path dir;

  /** A Helper peer that is never reached in these tests. */
  private static final HelperPeer UNREACHED = new HelperPeer() {
    @Override
    public AggregationJobResp initializeAggregationJob(TaskDefinition task,
        AggregationJobInitReq req) {
      throw new HelperException("unreached", null, true, null);
    }

    @Override
    public AggregateShare aggregateShare(TaskDefinition task, AggregateShareReq req) {
      throw new HelperException("unreached", null, true, null);
    }
  };

  /** The live threads whose name starts with {@code prefix}. */
  private static java.util.Set<Thread> threads(String prefix) {
    java.util.Set<Thread> s = new java.util.HashSet<>();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.isAlive() && t.getName().startsWith(prefix)) {
        s.add(t);
      }
    }
    return s;
  }

  /** Whether, within 5 s, every thread named {@code prefix...} not among {@code before} ends. */
  private static boolean newThreadsEnd(String prefix, java.util.Set<Thread> before)
      throws InterruptedException {
    for (int i = 0; i < 100 && newThread(prefix, before); i++) {
      Thread.sleep(50);
    }
    return !newThread(prefix, before);
  }

  /** Whether a thread named {@code prefix...} runs that is not among {@code before}. */
  private static boolean newThread(String prefix, java.util.Set<Thread> before) {
    java.util.Set<Thread> now = threads(prefix);
    now.removeAll(before);
    return !now.isEmpty();
  }

  @Test
  void aLeaderWithAHelperPeerRunsItsDriversAndTheCollectionJobs() throws Exception {
    TaskDefinition helper = Fixture.laplace(90).task;
    TaskDefinition leader = LeaderFixture.task(120);
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("l.db"));
        Aggregator a = Aggregator.start(AggregatorConfig.builder(List.of(helper, leader), store)
            .helperPeer(UNREACHED).reportRetention(Duration.ofDays(30)).build())) {
      java.util.Set<Thread> none = java.util.Set.of();
      assertTrue(a.leaderAggregation().isPresent());
      assertTrue(a.collectionJobs().isPresent());
      assertTrue(a.retention().isPresent());
      assertTrue(a.router().aggregationJobs().isPresent());
      assertTrue(a.router().reports().isPresent());
      assertTrue(a.router().collectionJobs().isPresent());
      assertTrue(newThread("priodp-leader-aggregation-", none));
      assertTrue(a.metrics().scrape().contains("priodp_retention_deleted_total"));
      assertEquals(a.router().metrics(), a.metrics());
    }
  }

  @Test
  void withoutAHelperPeerLeaderTasksTakeUploadsOnly() throws Exception {
    TaskDefinition leader = LeaderFixture.task(92);
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("u.db"));
        Aggregator a = Aggregator.start(AggregatorConfig.builder(List.of(leader), store)
            .build())) {
      assertTrue(a.leaderAggregation().isEmpty());
      assertTrue(a.collectionJobs().isEmpty());
      assertTrue(a.retention().isEmpty());
      assertTrue(a.router().reports().isPresent());
      assertTrue(a.router().collectionJobs().isEmpty());
      assertEquals(404, a.router().handle("POST", "/tasks/" + leader.taskId().toBase64Url()
          + "/collection_jobs", "Bearer " + LeaderFixture.COLLECTOR_TOKEN, null, null).status());
    }
  }

  @Test
  void clockRandomnessAndExecutorsComeFromTheConfiguration() throws Exception {
    Fixture f = Fixture.laplace(93);
    Instant now = Instant.parse("2026-03-01T12:00:00Z");
    RandomSource noise = RandomSource.seeded(new byte[] {9});
    SecureRandom keys = new SecureRandom() {
      @Override
      public int nextInt(int bound) {
        return 5;
      }
    };
    List<Runnable> queue = new ArrayList<>();
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("c.db"))) {
      f.writeBuckets(store, 2);
      try (Aggregator a = Aggregator.start(AggregatorConfig.builder(List.of(f.task), store)
          .clock(Clock.fixed(now, ZoneOffset.UTC)).noise(noise).random(keys)
          .hpkeKeyAtStart(true).asyncAggregation(true).aggregateShareExecutor(queue::add)
          .build())) {
        assertEquals(1, store.hpkeKeys().all().size(), "generated at start");
        assertEquals(5, store.hpkeKeys().all().get(0).config().id().value());
        assertEquals(now, store.hpkeKeys().all().get(0).createdAt());
        String path = "/tasks/" + f.taskId.toBase64Url() + "/aggregate_shares";
        HttpReply pending = a.router().handle("POST", path, AUTH, TYPE, f.request(0, 2).encode());
        assertEquals(0, pending.body().length);
        assertEquals(1, queue.size(), "released on the configured executor");
        assertEquals(0, noise.bitsConsumed());
        queue.remove(0).run();
        assertTrue(noise.bitsConsumed() > 0, "noise from the configured source");
        assertEquals(1, a.noisedShares().noiseDraws());
        HttpReply ready = a.router().handle("GET", pending.headers().get("Location"), AUTH, null,
            null);
        assertEquals(200, ready.status());
        assertTrue(ready.body().length > 0);
      }
    }
  }

  @Test
  void aPortInUseFailsNamingTheAddressAndStartsNothing() throws Exception {
    TaskDefinition leader = LeaderFixture.task(94);
    java.util.Set<Thread> before = threads("priodp-");
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("p.db"));
        java.net.ServerSocket taken = new java.net.ServerSocket(0, 1,
            java.net.InetAddress.getByName("127.0.0.1"))) {
      IllegalStateException e = assertThrows(IllegalStateException.class,
          () -> Aggregator.start(AggregatorConfig.builder(List.of(leader), store)
              .port(taken.getLocalPort()).helperPeer(UNREACHED).build()));
      assertTrue(e.getMessage().startsWith("cannot listen on 127.0.0.1:" + taken.getLocalPort()),
          e.getMessage());
      assertTrue(newThreadsEnd("priodp-", before), threads("priodp-").toString());
    }
  }

  @Test
  void closeStopsEveryBackgroundThreadOnce() throws Exception {
    TaskDefinition leader = LeaderFixture.task(95);
    java.util.Set<Thread> before = threads("priodp-");
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("s.db"))) {
      Aggregator a = Aggregator.start(AggregatorConfig.builder(List.of(leader), store)
          .helperPeer(UNREACHED).asyncAggregation(true).build());
      int port = a.port();
      assertTrue(port > 0);
      assertTrue(newThread("priodp-leader-aggregation-", before));
      assertTrue(newThread("priodp-collection-job", before));
      a.close();
      assertTrue(newThreadsEnd("priodp-", before), threads("priodp-").toString());
      assertThrows(IllegalStateException.class, a::port, "no longer listening");
      a.close();
    }
  }
}
