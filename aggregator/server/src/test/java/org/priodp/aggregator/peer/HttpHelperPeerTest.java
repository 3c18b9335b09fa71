package org.priodp.aggregator.peer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.core.HelperPeer.HelperException;
import org.priodp.aggregator.dap.AggregateShare;
import org.priodp.aggregator.dap.AggregateShareReq;
import org.priodp.aggregator.dap.AggregationJobInitReq;
import org.priodp.aggregator.dap.AggregationJobResp;
import org.priodp.aggregator.dap.BatchSelector;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.CollectionJobReq;
import org.priodp.aggregator.dap.DapError;
import org.priodp.aggregator.dap.HpkeCiphertext;
import org.priodp.aggregator.dap.HpkeConfigId;
import org.priodp.aggregator.dap.Interval;
import org.priodp.aggregator.dap.Query;
import org.priodp.aggregator.dap.ReportError;
import org.priodp.aggregator.dap.ReportId;
import org.priodp.aggregator.dap.VerifyResp;
import org.priodp.aggregator.testing.LeaderPair;
import org.priodp.aggregator.testing.UntrustedTlsServer;
import org.priodp.vdaf.Prio3Variant;

/**
 * The Leader's HTTP client of the Helper against a scripted HTTP/1.1 server on a raw socket that
 * records every request: synchronous and asynchronous (Retry-After, capped) answers, retries
 * after 503 and after a dropped connection with identical bytes, a problem document's DAP error
 * type, giving up within the total time. The sleeper records waits instead of sleeping, except
 * where the deadline matters. Seeds are printed.
 */
class HttpHelperPeerTest {
  /** A request as the fake Helper received it. */
  record Received(String method, String target, Map<String, String> headers, byte[] body) {}

  /** What the fake Helper does with the next connection: answer or drop it. */
  record Action(int status, Map<String, String> headers, byte[] body, boolean drop) {
    static Action answer(int status, Map<String, String> headers, byte[] body) {
      return new Action(status, headers, body, false);
    }

    static Action dropConnection() {
      return new Action(0, Map.of(), new byte[0], true);
    }
  }

  private ServerSocket server;
  private Thread acceptor;
  private final List<Received> received = Collections.synchronizedList(new ArrayList<>());
  private final ConcurrentLinkedQueue<Action> script = new ConcurrentLinkedQueue<>();
  private final List<Duration> waits = Collections.synchronizedList(new ArrayList<>());
  private LeaderPair pair;
  private long seed;

  @BeforeEach
  void start() throws IOException {
    seed = System.nanoTime();
    System.out.println("HttpHelperPeerTest seed " + seed);
    server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    pair = new LeaderPair(new Prio3Variant.Count(), new Random(seed), server.getLocalPort());
    acceptor = new Thread(() -> {
      while (!server.isClosed()) {
        try (Socket s = server.accept()) {
          serve(s);
        } catch (IOException e) {
          // closed
        }
      }
    }, "fake-helper");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  @AfterEach
  void stop() throws Exception {
    server.close();
    acceptor.join(5000);
  }

  private void serve(Socket s) throws IOException {
    InputStream in = s.getInputStream();
    String requestLine = line(in);
    Map<String, String> headers = new LinkedHashMap<>();
    for (String l = line(in); !l.isEmpty(); l = line(in)) {
      int c = l.indexOf(':');
      headers.put(l.substring(0, c).strip().toLowerCase(Locale.ROOT), l.substring(c + 1).strip());
    }
    int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
    byte[] body = in.readNBytes(length);
    String[] parts = requestLine.split(" ");
    received.add(new Received(parts[0], parts[1], headers, body));
    Action a = script.poll();
    if (a == null) {
      a = Action.answer(503, Map.of(), new byte[0]);
    }
    if (a.drop()) {
      return; // closes the socket without a response
    }
    OutputStream out = s.getOutputStream();
    StringBuilder h = new StringBuilder("HTTP/1.1 " + a.status() + " X\r\n");
    for (Map.Entry<String, String> e : a.headers().entrySet()) {
      h.append(e.getKey()).append(": ").append(e.getValue()).append("\r\n");
    }
    h.append("Content-Length: ").append(a.body().length).append("\r\nConnection: close\r\n\r\n");
    out.write(h.toString().getBytes(StandardCharsets.US_ASCII));
    out.write(a.body());
    out.flush();
  }

  private static String line(InputStream in) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    for (int c = in.read(); c != -1 && c != '\n'; c = in.read()) {
      if (c != '\r') {
        b.write(c);
      }
    }
    return b.toString(StandardCharsets.US_ASCII);
  }

  private HttpHelperPeer peer(Duration total, boolean reallySleep) {
    return new HttpHelperPeer(java.net.http.HttpClient.newBuilder()
        .version(java.net.http.HttpClient.Version.HTTP_1_1).build(),
        new HttpHelperPeer.Options(Duration.ofSeconds(10), total, Duration.ofMillis(100),
            Duration.ofSeconds(1), Duration.ofSeconds(5)),
        new Random(seed), d -> {
          waits.add(d);
          if (reallySleep) {
            Thread.sleep(d.toMillis());
          }
        });
  }

  private static final byte[] ID = new byte[16];

  private static AggregationJobInitReq initReq() {
    return new AggregationJobInitReq(0, new byte[0], List.of(), List.of());
  }

  private static AggregationJobResp resp() {
    return new AggregationJobResp(List.of(VerifyResp.reject(new ReportId(ID),
        ReportError.VDAF_VERIFY_ERROR)));
  }

  private static Map<String, String> respHeaders() {
    return Map.of("Content-Type", "application/ppm-dap;message=aggregation-job-resp");
  }

  private String jobsPath() {
    return "/dap/tasks/" + pair.taskId.toBase64Url() + "/aggregation_jobs";
  }

  @Test
  void synchronousAnswer() {
    script.add(Action.answer(200, respHeaders(), resp().encode(pair.leader.dapVersion())));
    AggregationJobResp r = peer(Duration.ofSeconds(30), false)
        .initializeAggregationJob(pair.leader, initReq());
    assertEquals(resp(), r);
    assertEquals(1, received.size());
    Received q = received.get(0);
    assertEquals("POST", q.method());
    assertEquals(jobsPath(), q.target(), "under the helper endpoint's base path /dap/");
    assertEquals("application/ppm-dap;message=aggregation-job-init-req",
        q.headers().get("content-type"));
    assertEquals("Bearer " + LeaderPair.TOKEN, q.headers().get("authorization"));
    assertArrayEquals(initReq().encode(), q.body());
  }

  @Test
  void asynchronousAnswerIsPolledHonouringRetryAfterCapped() {
    String location = jobsPath() + "/AAAAAAAAAAAAAAAAAAAAAA?step=0";
    script.add(Action.answer(200, Map.of("Location", location, "Retry-After", "3"), new byte[0]));
    script.add(Action.answer(200, Map.of("Location", location, "Retry-After", "100"),
        new byte[0]));
    script.add(Action.answer(200, respHeaders(), resp().encode(pair.leader.dapVersion())));
    AggregationJobResp r = peer(Duration.ofMinutes(10), false)
        .initializeAggregationJob(pair.leader, initReq());
    assertEquals(resp(), r);
    assertEquals(List.of(Duration.ofSeconds(3), Duration.ofSeconds(5)), waits,
        "Retry-After 3 s, then 100 s capped at 5 s");
    assertEquals(3, received.size());
    for (Received q : received.subList(1, 3)) {
      assertEquals("GET", q.method());
      assertEquals(location, q.target());
      assertEquals("Bearer " + LeaderPair.TOKEN, q.headers().get("authorization"));
    }
  }

  @Test
  void retriesAfter503AndADroppedConnectionWithIdenticalBytes() {
    script.add(Action.answer(503, Map.of(), new byte[0]));
    script.add(Action.dropConnection());
    script.add(Action.answer(500, Map.of("Content-Type", "application/problem+json"),
        "{\"type\":\"about:blank\",\"status\":500}".getBytes(StandardCharsets.UTF_8)));
    script.add(Action.answer(200, respHeaders(), resp().encode(pair.leader.dapVersion())));
    assertEquals(resp(), peer(Duration.ofSeconds(60), false)
        .initializeAggregationJob(pair.leader, initReq()));
    assertEquals(4, received.size());
    for (Received q : received) {
      assertEquals("POST", q.method());
      assertArrayEquals(initReq().encode(), q.body(), "identical bytes on every attempt");
    }
    // exponential backoff with jitter in [d/2, d]: d = 100, 200, 400 ms
    assertEquals(3, waits.size());
    for (int i = 0; i < 3; i++) {
      long d = 100L << i;
      long w = waits.get(i).toMillis();
      assertTrue(w >= d / 2 && w <= d, "wait " + i + ": " + w + " ms");
    }
  }

  @Test
  void aProblemDocumentIsItsDapErrorTypeAndNotRetried() {
    script.add(Action.answer(400, Map.of("Content-Type", "application/problem+json"),
        ("{\"type\":\"urn:ietf:params:ppm:dap:error:batchMismatch\",\"title\":\"x\","
            + "\"status\":400,\"detail\":\"checksums differ\"}").getBytes(StandardCharsets.UTF_8)));
    AggregateShareReq req = new AggregateShareReq(new CollectionJobReq(new Query.TimeInterval(
        Interval.of(10, 1)), new byte[0], List.of()),
        new BatchSelector.TimeInterval(Interval.of(10, 1)), 3, new byte[32]);
    HelperException e = assertThrows(HelperException.class,
        () -> peer(Duration.ofSeconds(30), false).aggregateShare(pair.leader, req));
    assertEquals(DapError.BATCH_MISMATCH, e.error().orElseThrow());
    assertFalse(e.retryable());
    assertFalse(e.fixable(), "a problem with the request itself is not retried later");
    assertTrue(e.getMessage().contains("checksums differ"), e.getMessage());
    assertEquals(1, received.size());
    assertEquals("/dap/tasks/" + pair.taskId.toBase64Url() + "/aggregate_shares",
        received.get(0).target());
    assertEquals("application/ppm-dap;message=aggregate-share-req",
        received.get(0).headers().get("content-type"));
  }

  /**
   * The Helper's budget refusal (issue 25) keeps its prio-dp type, so the Leader's failed
   * collection job names it; it is not a token problem and not retried.
   */
  @Test
  void aPrioDpProblemTypeIsKeptAndNotTakenForATokenProblem() {
    script.add(Action.answer(403, Map.of("Content-Type", "application/problem+json"),
        ("{\"type\":\"urn:priodp:problem:privacyBudgetExhausted\",\"title\":\"x\","
            + "\"status\":403,\"detail\":\"privacy budget exhausted: epsilon 1\"}").getBytes(StandardCharsets.UTF_8)));
    AggregateShareReq req = new AggregateShareReq(new CollectionJobReq(new Query.TimeInterval(
        Interval.of(10, 1)), new byte[0], List.of()),
        new BatchSelector.TimeInterval(Interval.of(10, 1)), 3, new byte[32]);
    HelperException e = assertThrows(HelperException.class,
        () -> peer(Duration.ofSeconds(30), false).aggregateShare(pair.leader, req));
    assertEquals(org.priodp.aggregator.core.ProblemType.PRIVACY_BUDGET_EXHAUSTED, e.prioDpType().orElseThrow());
    assertTrue(e.error().isEmpty());
    assertFalse(e.retryable());
    assertFalse(e.fixable(), "a spent budget is not the token");
    assertTrue(e.getMessage().contains("privacy budget exhausted"), e.getMessage());
  }

  @Test
  void aggregateShareSynchronous() {
    AggregateShare share = new AggregateShare(new HpkeCiphertext(new HpkeConfigId(7),
        ByteString.copyOf(new byte[32]), ByteString.copyOf(new byte[40])));
    script.add(Action.answer(200, Map.of("Content-Type",
        "application/ppm-dap;message=aggregate-share"), share.encode()));
    AggregateShareReq req = new AggregateShareReq(new CollectionJobReq(new Query.TimeInterval(
        Interval.of(10, 1)), new byte[0], List.of()),
        new BatchSelector.TimeInterval(Interval.of(10, 1)), 3, new byte[32]);
    assertEquals(share, peer(Duration.ofSeconds(30), false).aggregateShare(pair.leader, req));
    assertArrayEquals(req.encode(), received.get(0).body());
  }

  @Test
  void unauthorizedIsNotRetriedAndNamesNoDapError() {
    script.add(Action.answer(401, Map.of("Content-Type", "application/problem+json"),
        "{\"type\":\"about:blank\",\"status\":401}".getBytes(StandardCharsets.UTF_8)));
    HelperException e = assertThrows(HelperException.class,
        () -> peer(Duration.ofSeconds(30), false).initializeAggregationJob(pair.leader,
            initReq()));
    assertTrue(e.error().isEmpty());
    assertFalse(e.retryable());
    assertEquals(401, e.status());
    assertTrue(e.fixable(), "a wrong token is the operator's to fix: retried later");
    assertTrue(e.fix().contains("auth token"), e.fix());
    assertEquals(1, received.size());
  }

  /** The Helper's HTTP Date header reaches the clock listeners (RFC 9110 "Date"). */
  @Test
  void theHelpersDateHeaderIsToldToClockListeners() {
    script.add(Action.answer(200, Map.of("Content-Type",
        "application/ppm-dap;message=aggregation-job-resp", "Date",
        "Thu, 05 Nov 2026 10:00:03 GMT"), resp().encode(pair.leader.dapVersion())));
    HttpHelperPeer peer = peer(Duration.ofSeconds(30), false);
    List<java.time.Instant> told = Collections.synchronizedList(new ArrayList<>());
    peer.addClockListener((task, at) -> told.add(at));
    peer.initializeAggregationJob(pair.leader, initReq());
    assertEquals(List.of(java.time.Instant.parse("2026-11-05T10:00:03Z")), told);
  }

  @Test
  void givesUpRetryablyWithinTheTotalTime() {
    long started = System.nanoTime();
    HelperException e = assertThrows(HelperException.class,
        () -> peer(Duration.ofMillis(800), true).initializeAggregationJob(pair.leader,
            initReq()));
    long ms = (System.nanoTime() - started) / 1_000_000;
    assertTrue(e.retryable());
    assertTrue(received.size() >= 2, "retried: " + received.size());
    System.out.println("gave up after " + received.size() + " attempts, " + ms + " ms");
  }

  /**
   * An outage is logged once, not once per retry or per call: one WARN naming the problem when
   * the exchanges start failing, one INFO when the Helper answers again (issue 24: a Helper down
   * for 40 s left the Leader's log empty).
   */
  @Test
  void anOutageIsOneWarnAndItsEndOneInfo() {
    ch.qos.logback.classic.Logger log = (ch.qos.logback.classic.Logger)
        org.slf4j.LoggerFactory.getLogger(HttpHelperPeer.class);
    ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> captured =
        new ch.qos.logback.core.read.ListAppender<>();
    captured.start();
    log.addAppender(captured);
    ch.qos.logback.classic.Level level = log.getLevel();
    log.setLevel(ch.qos.logback.classic.Level.INFO);
    try {
      HttpHelperPeer peer = peer(Duration.ofSeconds(60), false);
      script.add(Action.answer(503, Map.of(), new byte[0]));
      script.add(Action.dropConnection());
      script.add(Action.answer(503, Map.of(), new byte[0]));
      script.add(Action.answer(200, respHeaders(), resp().encode(pair.leader.dapVersion())));
      peer.initializeAggregationJob(pair.leader, initReq());
      script.add(Action.answer(503, Map.of(), new byte[0]));
      script.add(Action.answer(200, respHeaders(), resp().encode(pair.leader.dapVersion())));
      peer.initializeAggregationJob(pair.leader, initReq());
      List<String> lines = captured.list.stream()
          .filter(e -> e.getLevel().isGreaterOrEqual(ch.qos.logback.classic.Level.INFO))
          .map(e -> e.getLevel() + " " + e.getFormattedMessage()).toList();
      assertEquals(4, lines.size(), lines.toString());
      for (int i = 0; i < 4; i += 2) {
        assertTrue(lines.get(i).startsWith("WARN the Helper " + pair.leader.configuration()
            .helperAggregatorEndpoint() + " does not answer: HTTP 503"), lines.get(i));
        assertTrue(lines.get(i + 1).startsWith("INFO the Helper ")
            && lines.get(i + 1).contains(" answers again"), lines.get(i + 1));
      }
    } finally {
      log.detachAppender(captured);
      log.setLevel(level);
    }
  }

  /** A Helper that is down: the URL and "is the Helper running?", not ConnectException: null. */
  @Test
  void aHelperThatIsDownIsNamedWithItsUrl() throws Exception {
    server.close();
    HelperException e = assertThrows(HelperException.class,
        () -> peer(Duration.ofMillis(300), true).initializeAggregationJob(pair.leader,
            initReq()));
    assertTrue(e.retryable());
    assertTrue(e.getMessage().contains("(cannot connect to http://127.0.0.1:"
        + server.getLocalPort() + jobsPath() + ": connection refused; is the Helper running?)"),
        e.getMessage());
  }

  /** An untrusted certificate names the Helper's origin and the trust store. */
  @Test
  void anUntrustedHelperCertificateNamesTheTrustStore(@TempDir Path dir) throws Exception {
    try (UntrustedTlsServer tls = UntrustedTlsServer.start(dir)) {
      URI uri = URI.create(tls.url() + "dap/tasks/x/aggregation_jobs");
      IOException failure = assertThrows(IOException.class, () -> java.net.http.HttpClient
          .newHttpClient().send(java.net.http.HttpRequest.newBuilder(uri).build(),
              java.net.http.HttpResponse.BodyHandlers.discarding()));
      String m = HttpHelperPeer.transportFailure(failure, uri);
      assertTrue(m.startsWith("TLS to " + tls.url() + " failed: the Helper's certificate is not"
          + " trusted; give the Leader's JVM a trust store"), m);
    }
  }

  @Test
  void anUndecodableAnswerIsNotRetried() {
    script.add(Action.answer(200, respHeaders(), new byte[] {1, 2, 3}));
    HelperException e = assertThrows(HelperException.class,
        () -> peer(Duration.ofSeconds(30), false).initializeAggregationJob(pair.leader,
            initReq()));
    assertFalse(e.retryable());
    assertEquals(DapError.INVALID_MESSAGE, e.error().orElseThrow());
  }
}
