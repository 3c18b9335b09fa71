package org.priodp.aggregator.service;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import org.priodp.aggregator.store.JdbcAggregateShareStore;
import org.priodp.aggregator.testing.Fixture;
import org.priodp.noise.RandomSource;

class AggregateShareHandlerTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final String TYPE = DapMediaType.AGGREGATE_SHARE_REQ.contentType();
  private static final String AUTH = "Bearer " + Fixture.TOKEN;

  @TempDir
  Path dir;

  private static AggregateShareHandler handler(Fixture f, JdbcAggregateShareStore store) {
    return new AggregateShareHandler(List.of(f.task), store,
        new NoisedShareService(store, RandomSource.seeded(new byte[] {2}), Clock.systemUTC()),
        AggregateShareHandler.DEFAULT_MAX_BODY);
  }

  private static String path(Fixture f) {
    return "/tasks/" + f.taskId.toBase64Url() + "/aggregate_shares";
  }

  /** Asserts a problem+json client error and returns its document. */
  static JsonNode assertProblem(HttpReply r, int status, String type) throws Exception {
    assertEquals(status, r.status());
    assertEquals("application/problem+json", r.contentType());
    JsonNode n = MAPPER.readTree(r.body());
    assertEquals(type, n.get("type").asText());
    assertEquals(status, n.get("status").asInt());
    assertTrue(n.hasNonNull("title") && n.hasNonNull("detail"), n.toString());
    return n;
  }

  @Test
  void postGetDeleteAndRepeat() throws Exception {
    Fixture f = Fixture.laplace(10);
    try (JdbcAggregateShareStore store = JdbcAggregateShareStore.openSqlite(dir.resolve("h.db"))) {
      f.writeBuckets(store, 3);
      AggregateShareHandler h = handler(f, store);
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
      assertEquals(1, h.service().noiseDraws());
    }
  }

  @Test
  void refusalsAreProblemDocuments() throws Exception {
    Fixture f = Fixture.laplace(11);
    try (JdbcAggregateShareStore store = JdbcAggregateShareStore.openSqlite(dir.resolve("r.db"))) {
      f.writeBuckets(store, 3);
      AggregateShareHandler h = handler(f, store);
      byte[] body = f.request(0, 2).encode();
      String tid = f.taskId.toBase64Url();
      JsonNode n = assertProblem(h.handle("POST", path(f), null, TYPE, body), 401, "about:blank");
      assertEquals(tid, n.get("taskid").asText());
      assertProblem(h.handle("POST", path(f), "Bearer wrong", TYPE, body), 401, "about:blank");
      assertProblem(h.handle("POST", path(f), Fixture.TOKEN, TYPE, body), 401, "about:blank");
      assertProblem(h.handle("POST", path(f), "Bearer " + Fixture.TOKEN + "x", TYPE, body), 401,
          "about:blank");
      assertProblem(h.handle("POST", "/tasks/" + "A".repeat(43) + "/aggregate_shares", AUTH, TYPE,
          body), 404, "urn:ietf:params:ppm:dap:error:unrecognizedTask");
      assertProblem(h.handle("POST", "/tasks/short/aggregate_shares", AUTH, TYPE, body), 404,
          "urn:ietf:params:ppm:dap:error:unrecognizedTask");
      assertProblem(h.handle("POST", path(f), AUTH, "application/octet-stream", body), 415,
          "about:blank");
      assertProblem(h.handle("PUT", path(f), AUTH, TYPE, body), 405, "about:blank");
      assertProblem(h.handle("GET", "/nope", AUTH, null, null), 404, "about:blank");
      assertProblem(h.handle("POST", path(f), AUTH, TYPE, new byte[70_000]), 413, "about:blank");
      n = assertProblem(h.handle("POST", path(f), AUTH, TYPE, new byte[3]), 400,
          "urn:ietf:params:ppm:dap:error:invalidMessage");
      assertEquals(tid, n.get("taskid").asText());
      assertProblem(h.handle("POST", path(f), AUTH, TYPE, f.request(0, 2, 7, new byte[32]).encode()),
          400, "urn:ietf:params:ppm:dap:error:batchMismatch");
      assertEquals(200, h.handle("GET", "/healthz", null, null, null).status());
      assertEquals(0, h.service().noiseDraws());
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
    System.out.println("AggregateShareHandlerTest.mutatedBodiesAlwaysGetAClientError seed=" + seed);
    Random rnd = new Random(seed);
    Fixture f = Fixture.laplace(12);
    try (JdbcAggregateShareStore store = JdbcAggregateShareStore.openSqlite(dir.resolve("f.db"))) {
      f.writeBuckets(store, 4);
      AggregateShareHandler h = handler(f, store);
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
      assertEquals(2, h.service().noiseDraws(), "no mutated request drew noise");
      assertFalse(statusCounts[400] == 0);
    }
  }
}
