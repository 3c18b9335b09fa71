package org.priodp.aggregator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.lang.reflect.Field;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.dap.AggregationJobInitReq;
import org.priodp.aggregator.dap.DapDecodeException;
import org.priodp.aggregator.datastore.Datastore;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;

/**
 * Issue 16: seeded mutations of valid AggregationJobInitReq bodies (built by the spec Leader of
 * {@link AggregationJobsRouteTest}) through the Helper's handler in-process and over HTTP. Every
 * answer is a 4xx problem+json or a 200 AggregationJobResp that decodes and has one VerifyResp
 * per VerifyInit of the (still decodable) request; never a 5xx, never an exception, never a hang.
 * Mutation seed: {@code -Dpriodp.seed}; cases: {@code -Dpriodp.fuzz.jobCases} (in-process,
 * default 100,000) and {@code -Dpriodp.fuzz.jobHttpCases} (HTTP, default 2,000). The base bodies
 * are sealed with fresh HPKE randomness, so a seed reproduces the mutations, not the ciphertexts.
 */
class AggregationJobFuzzTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final String TYPE = "application/ppm-dap;message=aggregation-job-init-req";
  private static final String RESP_TYPE = "application/ppm-dap;message=aggregation-job-resp";
  private static final String AUTH = "Bearer leader-token_0123456789";

  @TempDir
  Path dir;

  /** The spec Leader of AggregationJobsRouteTest, seeded. */
  static AggregationJobsRouteTest leader(Path dir, long seed) throws Exception {
    AggregationJobsRouteTest l = new AggregationJobsRouteTest();
    l.dir = dir;
    Field f = AggregationJobsRouteTest.class.getDeclaredField("random");
    f.setAccessible(true);
    f.set(l, new Random(seed));
    return l;
  }

  /** Mutator's mutations plus length-prefix corruption and random garbage. */
  static byte[] mutate(byte[] base, Random rnd) {
    switch (rnd.nextInt(10)) {
      case 0 -> {
        // overwrite a u8/u16/u32 at a random offset with an extreme or off-by-one length
        byte[] b = base.clone();
        int width = new int[] {1, 2, 4}[rnd.nextInt(3)];
        if (b.length < width) {
          return b;
        }
        int at = rnd.nextInt(b.length - width + 1);
        long old = 0;
        for (int i = 0; i < width; i++) {
          old = (old << 8) | (b[at + i] & 0xff);
        }
        long v = switch (rnd.nextInt(6)) {
          case 0 -> 0;
          case 1 -> old + 1;
          case 2 -> old - 1;
          case 3 -> (1L << (8 * width)) - 1;
          case 4 -> 1L << (8 * width - 1);
          default -> rnd.nextInt(b.length + 2);
        };
        for (int i = width - 1; i >= 0; i--) {
          b[at + i] = (byte) v;
          v >>>= 8;
        }
        return b;
      }
      case 1 -> {
        // random garbage, sometimes with a valid-looking header
        byte[] g = new byte[rnd.nextInt(3) == 0 ? rnd.nextInt(4) : rnd.nextInt(600)];
        rnd.nextBytes(g);
        if (rnd.nextBoolean() && g.length > 7) {
          System.arraycopy(base, 0, g, 0, Math.min(7, base.length));
        }
        return g;
      }
      default -> {
        return Mutator.mutate(base, rnd);
      }
    }
  }

  /** Returns null if the answer is acceptable, else what is wrong with it. */
  static String check(int status, String contentType, byte[] body, byte[] request) {
    if (status == 200) {
      if (!RESP_TYPE.equals(contentType)) {
        return "200 with Content-Type " + contentType;
      }
      List<AggregationJobsRouteTest.Resp> resps;
      try {
        resps = AggregationJobsRouteTest.decodeResp(body);
      } catch (RuntimeException | AssertionError e) {
        return "200 whose AggregationJobResp does not decode: " + e;
      }
      int inits;
      try {
        inits = AggregationJobInitReq.decode(request).reportIds().size();
      } catch (DapDecodeException e) {
        return "200 for a request that does not decode: " + e.getMessage();
      }
      if (resps.size() != inits) {
        return "200 with " + resps.size() + " VerifyResps for " + inits + " VerifyInits";
      }
      return null;
    }
    if (status < 400 || status >= 500) {
      return "status " + status;
    }
    if (!"application/problem+json".equals(contentType)) {
      return status + " with Content-Type " + contentType;
    }
    try {
      JsonNode n = MAPPER.readTree(body);
      if (n.get("status").asInt() != status || !n.hasNonNull("type")) {
        return status + " with problem " + n;
      }
    } catch (Exception e) {
      return status + " with a problem document that does not parse: " + e;
    }
    return null;
  }

  /** The base bodies: a clean 3-report job, a job with a replay and an undecryptable report. */
  static List<byte[]> bases(AggregationJobsRouteTest l, AggregationJobsRouteTest.Task t,
      AggregationJobsRouteTest.Advertised helper) throws Exception {
    long now = AggregationJobsRouteTest.now();
    List<AggregationJobsRouteTest.Report> a = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      a.add(l.report(t, helper, now, List.of(BigInteger.valueOf(i))));
    }
    AggregationJobsRouteTest.Advertised unknown = new AggregationJobsRouteTest.Advertised(
        (helper.id() + 1) % 256, helper.publicKey());
    List<AggregationJobsRouteTest.Report> b = List.of(
        l.report(t, helper, now, List.of(BigInteger.ONE)),
        l.report(t, unknown, now, List.of(BigInteger.TWO)), a.get(0),
        l.report(t, helper, now, List.of(BigInteger.ONE), true, false));
    return List.of(AggregationJobsRouteTest.initReq(0, a),
        AggregationJobsRouteTest.initReq(0, b));
  }

  @Test
  void mutatedInitRequestsInProcessAreClientErrorsOrPerReportErrors() throws Exception {
    long seed = Long.getLong("priodp.seed", System.nanoTime());
    System.out.println("AggregationJobFuzzTest.inProcess seed=" + seed);
    Random rnd = new Random(seed);
    AggregationJobsRouteTest l = leader(dir, seed);
    AggregationJobsRouteTest.Task t = l.new Task(
        (AggregationJobsRouteTest.Vdaf) AggregationJobsRouteTest.vdafs().toList().get(3).get()[0],
        null);
    try (Datastore store = JdbcDatastore.openSqlite(dir.resolve("f.db"))) {
      Aggregator server = AggregationJobsRouteTest.server(List.of(t.definition), store);
      int port = server.port();
      try {
        AggregationJobsRouteTest.Advertised helper = AggregationJobsRouteTest.hpkeConfig(port,
            "/dap/hpke_config");
        List<byte[]> bases = bases(l, t, helper);
        DapRouter h = server.router();
        String path = "/dap/tasks/" + AggregationJobsRouteTest.b64(t.taskId)
            + "/aggregation_jobs";
        for (byte[] b : bases) {
          HttpReply r = h.handle("POST", path, null, AUTH, TYPE, b);
          assertEquals(200, r.status(), new String(r.body()));
        }
        int cases = Integer.getInteger("priodp.fuzz.jobCases", 100_000);
        int[] statuses = new int[600];
        long start = System.nanoTime();
        for (int i = 0; i < cases; i++) {
          byte[] base = bases.get(rnd.nextInt(bases.size()));
          byte[] body = mutate(base, rnd);
          HttpReply r;
          try {
            r = h.handle("POST", path, null, AUTH, TYPE, body);
          } catch (Throwable e) {
            throw new AssertionError("seed " + seed + " case " + i + ": " + e + " for body "
                + HexFormat.of().formatHex(body), e);
          }
          String wrong = check(r.status(), r.contentType(), r.body(), body);
          if (wrong != null) {
            throw new AssertionError("seed " + seed + " case " + i + ": " + wrong
                + " for body " + HexFormat.of().formatHex(body));
          }
          statuses[r.status()]++;
        }
        System.out.printf("AggregationJobFuzzTest.inProcess seed=%d cases=%d 200=%d 400=%d"
            + " other4xx=%d in %.1f s%n", seed, cases, statuses[200], statuses[400],
            cases - statuses[200] - statuses[400], (System.nanoTime() - start) / 1e9);
        assertTrue(statuses[400] > 0 && statuses[200] > 0, "both outcomes were exercised");
      } finally {
        server.close();
      }
    }
  }

  @Test
  void mutatedInitRequestsOverHttpAreClientErrorsOrPerReportErrors() throws Exception {
    long seed = Long.getLong("priodp.seed", System.nanoTime());
    System.out.println("AggregationJobFuzzTest.overHttp seed=" + seed);
    Random rnd = new Random(seed);
    AggregationJobsRouteTest l = leader(dir, seed);
    AggregationJobsRouteTest.Task t = l.new Task(
        (AggregationJobsRouteTest.Vdaf) AggregationJobsRouteTest.vdafs().toList().get(3).get()[0],
        null);
    HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    try (Datastore store = JdbcDatastore.openSqlite(dir.resolve("h.db"))) {
      Aggregator server = AggregationJobsRouteTest.server(List.of(t.definition), store);
      int port = server.port();
      try {
        AggregationJobsRouteTest.Advertised helper = AggregationJobsRouteTest.hpkeConfig(port,
            "/dap/hpke_config");
        List<byte[]> bases = bases(l, t, helper);
        URI uri = URI.create(t.jobsUrl(port));
        int cases = Integer.getInteger("priodp.fuzz.jobHttpCases", 2_000);
        Semaphore inFlight = new Semaphore(16);
        List<String> failures = Collections.synchronizedList(new ArrayList<>());
        List<CompletableFuture<?>> all = new ArrayList<>();
        long start = System.nanoTime();
        for (int i = 0; i < cases; i++) {
          byte[] body = mutate(bases.get(rnd.nextInt(bases.size())), rnd);
          inFlight.acquire();
          int n = i;
          HttpRequest req = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
              .header("Content-Type", TYPE).header("Authorization", AUTH)
              .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
          all.add(client.sendAsync(req, HttpResponse.BodyHandlers.ofByteArray())
              .whenComplete((r, e) -> {
                inFlight.release();
                String wrong = e != null ? e.toString() : check(r.statusCode(),
                    r.headers().firstValue("Content-Type").orElse(null), r.body(), body);
                if (wrong != null) {
                  failures.add("case " + n + ": " + wrong + " for body "
                      + HexFormat.of().formatHex(body));
                }
              }));
        }
        CompletableFuture.allOf(all.toArray(new CompletableFuture<?>[0]))
            .exceptionally(e -> null).get();
        System.out.printf("AggregationJobFuzzTest.overHttp seed=%d cases=%d in %.1f s%n", seed,
            cases, (System.nanoTime() - start) / 1e9);
        assertTrue(failures.isEmpty(), "seed " + seed + ": " + failures.size() + " failures, "
            + failures.subList(0, Math.min(3, failures.size())));
      } finally {
        server.close();
      }
    }
  }
}
