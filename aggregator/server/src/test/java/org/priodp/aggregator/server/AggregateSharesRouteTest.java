package org.priodp.aggregator.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.priodp.aggregator.server.DapRouterTest.assertProblem;
import static org.priodp.aggregator.server.DapRouterTest.handler;
import static org.priodp.aggregator.server.DapRouterTest.path;

import java.nio.file.Path;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.core.NoisedShareService;
import org.priodp.aggregator.dap.AggregateShareReq;
import org.priodp.aggregator.dap.DapMediaType;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import org.priodp.aggregator.testing.Fixture;
import org.priodp.noise.RandomSource;

/**
 * The Helper's aggregate shares (DAP-18 "Obtaining Aggregate Shares", "Aggregate Share
 * Deletion", "Asynchronous Request Handling") through {@link DapRouter}: a repeated POST finds the
 * same resource and share, noise is drawn once, content types are parsed, mutated bodies are
 * client errors, and the asynchronous mode answers Retry-After until the share is released.
 */
class AggregateSharesRouteTest {
  private static final String TYPE = DapMediaType.AGGREGATE_SHARE_REQ.contentType();
  private static final String AUTH = "Bearer " + Fixture.TOKEN;

  @TempDir
  Path dir;

  @Test
  void postGetDeleteAndRepeat() throws Exception {
    Fixture f = Fixture.laplace(10);
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("h.db"))) {
      f.writeBuckets(store, 3);
      DapRouter h = handler(f, store);
      AggregateShareReq req = f.request(0, 3);
      HttpReply r = h.handle("POST", path(f), AUTH, TYPE, req.encode());
      assertEquals(200, r.status());
      assertEquals(DapMediaType.AGGREGATE_SHARE.contentType(), r.contentType());
      String location = r.headers().get("Location");
      assertTrue(location.startsWith(path(f) + "/"), location);
      f.open(r.body(), req);
      HttpReply again = h.handle("POST", path(f), AUTH, TYPE, req.encode());
      assertEquals(location, again.headers().get("Location"));
      assertArrayEquals(r.body(), again.body());
      HttpReply got = h.handle("GET", location, AUTH, null, null);
      assertEquals(200, got.status());
      assertArrayEquals(r.body(), got.body());
      assertEquals(200, h.handle("DELETE", location, AUTH, null, null).status());
      assertProblem(h.handle("GET", location, AUTH, null, null), 404, "about:blank");
      assertProblem(h.handle("DELETE", location, AUTH, null, null), 404, "about:blank");
      HttpReply after = h.handle("POST", path(f), AUTH, TYPE, req.encode());
      assertArrayEquals(r.body(), after.body(), "deletion keeps the noised share");
      assertEquals(1, h.aggregateShares().service().noiseDraws());
    }
  }
  /**
   * Seeded mutation fuzzer: 100,000 mutated AggregateShareReq bodies through the request handler;
   * every one must be answered with a 4xx problem+json (the valid request was collected first, so
   * a mutation that still decodes is another request for a collected or empty batch).
   */
  @Test
  void mutatedBodiesAlwaysGetAClientError() throws Exception {
    long seed = Long.getLong("priodp.seed", System.nanoTime());
    System.out.println("AggregateSharesRouteTest.mutatedBodiesAlwaysGetAClientError seed=" + seed);
    Random rnd = new Random(seed);
    Fixture f = Fixture.laplace(12);
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("f.db"))) {
      f.writeBuckets(store, 4);
      DapRouter h = handler(f, store);
      byte[][] seeds = {f.request(0, 2).encode(), f.request(2, 4).encode()};
      for (byte[] s : seeds) {
        assertEquals(200, h.handle("POST", path(f), AUTH, TYPE, s).status());
      }
      int cases = Integer.getInteger("priodp.fuzz.cases", 100_000);
      int[] statusCounts = new int[600];
      for (int i = 0; i < cases; i++) {
        byte[] base = seeds[rnd.nextInt(seeds.length)];
        byte[] body = Mutator.mutate(base, rnd);
        if (Arrays.equals(body, base)) {
          continue;
        }
        HttpReply r = h.handle("POST", path(f), AUTH, TYPE, body);
        if (r.status() < 400 || r.status() >= 500
            || !"application/problem+json".equals(r.contentType())) {
          fail("seed " + seed + " case " + i + ": status " + r.status() + " for body "
              + java.util.HexFormat.of().formatHex(body));
        }
        statusCounts[r.status()]++;
      }
      assertEquals(2, h.aggregateShares().service().noiseDraws(), "no mutated request drew noise");
      assertFalse(statusCounts[400] == 0);
    }
  }
  @Test
  void contentTypesAreParsedNotCompared() throws Exception {
    Fixture f = Fixture.laplace(68);
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("c.db"))) {
      f.writeBuckets(store, 2);
      DapRouter h = handler(f, store);
      byte[] body = f.request(0, 2).encode();
      for (String t : new String[] {"Application/PPM-DAP ; Message=\"aggregate-share-req\"",
          "application/ppm-dap;version=18;message=aggregate-share-req"}) {
        assertEquals(200, h.handle("POST", path(f), AUTH, t, body).status(), t);
      }
      for (String t : new String[] {"application/ppm-dap;message=aggregate-share",
          "application/ppm-dap;message=\"aggregate-share-req", "application/ppm-dap", null}) {
        assertProblem(h.handle("POST", path(f), AUTH, t, body), 415, "about:blank");
      }
    }
  }
  @Test
  void asynchronousSharesAnswerRetryAfterThenTheShareAndDrawOnce() throws Exception {
    Fixture f = Fixture.laplace(70);
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("a.db"))) {
      f.writeBuckets(store, 4);
      List<Runnable> queue = new java.util.ArrayList<>();
      NoisedShareService service = new NoisedShareService(store,
          RandomSource.seeded(new byte[] {6}), Clock.systemUTC());
      DapRouter h = DapRouter.builder(List.of(f.task), store)
          .aggregateShares(service, new AggregateSharesRoute.AsyncShares(queue::add, 3)).build();
      assertTrue(h.aggregateShares().isAsynchronous());
      AggregateShareReq req = f.request(0, 2);
      HttpReply r = h.handle("POST", path(f), AUTH, TYPE, req.encode());
      assertEquals(200, r.status());
      assertEquals(0, r.body().length);
      assertEquals("3", r.headers().get("Retry-After"));
      String location = r.headers().get("Location");
      assertTrue(location.startsWith(path(f) + "/"), location);
      // a repeat and a GET while pending: the same answer, one background release queued
      HttpReply again = h.handle("POST", path(f), AUTH, TYPE, req.encode());
      assertEquals(location, again.headers().get("Location"));
      assertEquals(0, again.body().length);
      HttpReply pending = h.handle("GET", location, AUTH, null, null);
      assertEquals(200, pending.status());
      assertEquals(0, pending.body().length);
      assertEquals("3", pending.headers().get("Retry-After"));
      assertEquals(1, queue.size());
      assertEquals(0, service.noiseDraws());
      queue.remove(0).run();
      assertEquals(1, service.noiseDraws());
      HttpReply ready = h.handle("GET", location, AUTH, null, null);
      assertEquals(200, ready.status());
      assertEquals(DapMediaType.AGGREGATE_SHARE.contentType(), ready.contentType());
      assertArrayEquals(store.inTaskTransaction(f.taskId, tx -> tx.releases().noisedShare(
          org.priodp.aggregator.core.BatchBuckets.batchIdentifier(req.batchSelector())))
          .orElseThrow().noisedShare().toByteArray(),
          f.open(ready.body(), req));
      assertArrayEquals(ready.body(), h.handle("POST", path(f), AUTH, TYPE, req.encode()).body());
      // a second release of the same request (another process's, say) draws nothing
      service.release(f.task, req);
      assertEquals(1, service.noiseDraws());
      assertTrue(queue.isEmpty());

      // refusals found in the background are the resource's answer from then on
      AggregateShareReq overlap = f.request(1, 3);
      HttpReply o = h.handle("POST", path(f), AUTH, TYPE, overlap.encode());
      assertEquals(0, o.body().length);
      queue.remove(0).run();
      assertProblem(h.handle("GET", o.headers().get("Location"), AUTH, null, null), 400,
          "urn:ietf:params:ppm:dap:error:batchOverlap");
      assertProblem(h.handle("POST", path(f), AUTH, TYPE, overlap.encode()), 400,
          "urn:ietf:params:ppm:dap:error:batchOverlap");
      AggregateShareReq mismatch = f.request(2, 4, 7, new byte[32]);
      HttpReply m = h.handle("POST", path(f), AUTH, TYPE, mismatch.encode());
      queue.remove(0).run();
      assertProblem(h.handle("GET", m.headers().get("Location"), AUTH, null, null), 400,
          "urn:ietf:params:ppm:dap:error:batchMismatch");
      // malformed requests are still refused at once
      assertProblem(h.handle("POST", path(f), AUTH, TYPE, new byte[3]), 400,
          "urn:ietf:params:ppm:dap:error:invalidMessage");
      assertEquals(1, service.noiseDraws());
      // after a restart (a new handler, nothing in flight) a GET starts a pending release again
      AggregateShareReq later = f.request(2, 4);
      HttpReply l = h.handle("POST", path(f), AUTH, TYPE, later.encode());
      queue.clear();
      DapRouter restarted = DapRouter.builder(List.of(f.task), store)
          .aggregateShares(service, new AggregateSharesRoute.AsyncShares(queue::add, 3)).build();
      assertEquals(0, restarted.handle("GET", l.headers().get("Location"), AUTH, null, null)
          .body().length);
      queue.remove(0).run();
      assertEquals(200, restarted.handle("GET", l.headers().get("Location"), AUTH, null, null)
          .status());
      assertEquals(2, service.noiseDraws());
    }
  }

  /**
   * An asynchronous release whose collector identity (attribution-00 section 6.1) cannot be asked
   * answers the next GET with collectorIdentityUnavailable (503, which the Leader retries) without
   * failing the request for good: once the identity confirms the key the same resource releases.
   */
  @Test
  void anAsynchronousReleaseWhoseCollectorIdentityIsDownIsRetriedNotFailed() throws Exception {
    Fixture f = Fixture.laplace(71);
    org.priodp.aggregator.core.TaskDefinition task = f.withCollectorIdentity(
        org.priodp.aggregator.dap.Role.HELPER, java.net.URI.create("https://collector.example/"));
    java.util.concurrent.atomic.AtomicBoolean up = new java.util.concurrent.atomic.AtomicBoolean();
    try (JdbcDatastore store = JdbcDatastore.openSqlite(dir.resolve("cid.db"))) {
      f.writeBuckets(store, 4);
      List<Runnable> queue = new java.util.ArrayList<>();
      NoisedShareService service = new NoisedShareService(store,
          RandomSource.seeded(new byte[] {7}), Clock.systemUTC(),
          org.priodp.aggregator.core.ReleaseObserver.NONE,
          org.priodp.aggregator.core.PipelineObserver.NONE,
          new org.priodp.aggregator.core.CollectorIdentityCheck((u, c) -> up.get()
              ? new org.priodp.aggregator.core.CollectorAuthorization.Confirmed()
              : new org.priodp.aggregator.core.CollectorAuthorization.Unconfirmed(
                  "cannot connect to https://collector.example/hpke_config")));
      DapRouter h = DapRouter.builder(List.of(task), store)
          .aggregateShares(service, new AggregateSharesRoute.AsyncShares(queue::add, 3)).build();
      AggregateShareReq req = f.request(0, 2);
      String location = h.handle("POST", path(f), AUTH, TYPE, req.encode()).headers()
          .get("Location");
      queue.remove(0).run();
      assertProblem(h.handle("GET", location, AUTH, null, null), 503,
          "urn:priodp:problem:collectorIdentityUnavailable");
      assertEquals(0, service.noiseDraws());
      up.set(true);
      HttpReply pending = h.handle("GET", location, AUTH, null, null);
      assertEquals(0, pending.body().length, "started again, not failed for good");
      queue.remove(0).run();
      HttpReply ready = h.handle("GET", location, AUTH, null, null);
      assertEquals(DapMediaType.AGGREGATE_SHARE.contentType(), ready.contentType());
      assertEquals(1, service.noiseDraws());
    }
  }
}
