package org.priodp.aggregator.peer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.random.RandomGenerator;
import org.priodp.aggregator.core.HelperPeer;
import org.priodp.aggregator.core.PipelineObserver;
import org.priodp.aggregator.core.ProblemType;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.dap.AggregateShare;
import org.priodp.aggregator.dap.AggregateShareReq;
import org.priodp.aggregator.dap.AggregationJobInitReq;
import org.priodp.aggregator.dap.AggregationJobResp;
import org.priodp.aggregator.dap.DapError;
import org.priodp.aggregator.dap.DapMediaType;

/**
 * The Leader's HTTP client of a task's Helper (DAP-18 "Leader Initialization", "Obtaining
 * Aggregate Shares", "Asynchronous Request Handling", "Errors"): POSTs the encoded request to
 * {@code {helper}tasks/{task-id}/aggregation_jobs} or {@code .../aggregate_shares} under the
 * path of the task's helper_aggregator_endpoint, with the DAP media type and {@code
 * Authorization: Bearer} the task's auth token. A 2xx answer with a body is the resource; a 2xx
 * answer with an empty body means "not ready": the client GETs the Location after the
 * Retry-After delay (capped at {@link Options#maxRetryAfter}) until the body arrives. Transport
 * errors, per-request timeouts, 429 and 5xx are retried with exponential backoff and full
 * jitter, always with the identical request bytes, until {@link Options#totalTime} has passed;
 * then the call fails with a retryable {@link HelperPeer.HelperException}. A 4xx answer fails at
 * once, not retryable, with the DAP error type of its problem document if it names one; so does
 * an undecodable resource. Thread-safe.
 */
public final class HttpHelperPeer implements HelperPeer {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final org.slf4j.Logger LOG =
      org.slf4j.LoggerFactory.getLogger(HttpHelperPeer.class);

  /**
   * The timing of requests: {@code requestTimeout} per HTTP exchange, {@code totalTime} for one
   * call including retries and polling, the first backoff {@code initialBackoff} doubling up to
   * {@code maxBackoff}, and {@code maxRetryAfter} the longest Retry-After honoured.
   */
  public record Options(Duration requestTimeout, Duration totalTime, Duration initialBackoff,
      Duration maxBackoff, Duration maxRetryAfter) {
    /** Validates the durations (all positive). */
    public Options {
      for (Duration d : new Duration[] {requestTimeout, totalTime, initialBackoff, maxBackoff,
          maxRetryAfter}) {
        if (Objects.requireNonNull(d, "duration").isNegative() || d.isZero()) {
          throw new IllegalArgumentException("durations must be positive: " + d);
        }
      }
    }

    /**
     * The defaults: 60 s per exchange, 5 minutes per call, backoff from 500 ms to 30 s, a
     * Retry-After of at most 30 s.
     */
    public static Options defaults() {
      return new Options(Duration.ofSeconds(60), Duration.ofMinutes(5), Duration.ofMillis(500),
          Duration.ofSeconds(30), Duration.ofSeconds(30));
    }
  }

  /** Sleeps; replaceable in tests. */
  @FunctionalInterface
  public interface Sleeper {
    /** Sleeps for {@code d}. */
    void sleep(Duration d) throws InterruptedException;
  }

  private final HttpClient http;
  private final Options options;
  private final RandomGenerator jitter;
  private final Sleeper sleeper;
  private final PipelineObserver observer;
  private final java.util.List<ClockListener> clockListeners =
      new java.util.concurrent.CopyOnWriteArrayList<>();
  /** Helper endpoints whose last exchange failed below DAP (down, 5xx), with when it began. */
  private final java.util.Map<String, Long> outages = new java.util.concurrent.ConcurrentHashMap<>();

  /** Creates a client over {@code http} with the options, jitter source and sleeper. */
  public HttpHelperPeer(HttpClient http, Options options, RandomGenerator jitter,
      Sleeper sleeper) {
    this(http, options, jitter, sleeper, PipelineObserver.NONE);
  }

  private HttpHelperPeer(HttpClient http, Options options, RandomGenerator jitter,
      Sleeper sleeper, PipelineObserver observer) {
    this.observer = Objects.requireNonNull(observer, "observer");
    this.http = Objects.requireNonNull(http, "http");
    this.options = Objects.requireNonNull(options, "options");
    this.jitter = Objects.requireNonNull(jitter, "jitter");
    this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
  }

  /** Creates a client with a new HttpClient (HTTP/1.1, 10 s connect timeout) and the options. */
  public static HttpHelperPeer create(Options options) {
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(10)).followRedirects(HttpClient.Redirect.NEVER)
        .build();
    return new HttpHelperPeer(http, options, new java.security.SecureRandom(),
        d -> Thread.sleep(d.toMillis()));
  }

  /**
   * Returns this client telling {@code observer} of each HTTP exchange: the task, the resource,
   * the outcome (2xx, 4xx, 5xx, timeout, connection) and its latency.
   */
  @Override
  public HttpHelperPeer observedBy(PipelineObserver observer) {
    return new HttpHelperPeer(http, options, jitter, sleeper, observer);
  }

  /** Returns {@code {helper endpoint with a trailing slash}tasks/{task-id}/{collection}}. */
  static URI resourceUri(TaskDefinition task, String collection) {
    String base = task.configuration().helperAggregatorEndpoint();
    if (!base.endsWith("/")) {
      base = base + "/";
    }
    return URI.create(base + "tasks/" + task.taskId().toBase64Url() + "/" + collection);
  }

  @Override
  public AggregationJobResp initializeAggregationJob(TaskDefinition task,
      AggregationJobInitReq req) {
    return call(task, PipelineObserver.HelperResource.AGGREGATION_JOBS,
        resourceUri(task, "aggregation_jobs"),
        DapMediaType.AGGREGATION_JOB_INIT_REQ, req.encode(), DapMediaType.AGGREGATION_JOB_RESP,
        b -> AggregationJobResp.decode(b, task.dapVersion()));
  }

  @Override
  public AggregateShare aggregateShare(TaskDefinition task, AggregateShareReq req) {
    return call(task, PipelineObserver.HelperResource.AGGREGATE_SHARES,
        resourceUri(task, "aggregate_shares"), DapMediaType.AGGREGATE_SHARE_REQ,
        req.encode(), DapMediaType.AGGREGATE_SHARE, AggregateShare::decode);
  }

  private <T> T call(TaskDefinition task, PipelineObserver.HelperResource resource, URI uri, DapMediaType requestType, byte[] body,
      DapMediaType responseType, Function<byte[], T> decode) {
    long deadline = System.nanoTime() + options.totalTime().toNanos();
    String auth = task.authToken().authorizationHeader();
    HttpRequest post = HttpRequest.newBuilder(uri).timeout(options.requestTimeout())
        .header("Content-Type", requestType.contentType())
        .header("Authorization", auth)
        .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
    HttpRequest next = post;
    int failures = 0;
    String lastProblem = "no answer";
    while (true) {
      Duration wait;
      HttpResponse<byte[]> r = null;
      long sent = System.nanoTime();
      try {
        r = http.send(next, HttpResponse.BodyHandlers.ofByteArray());
        observer.helperCall(task.taskId(), resource,
            PipelineObserver.CallOutcome.ofStatus(r.statusCode()), since(sent));
      } catch (IOException e) { // includes HttpTimeoutException and a dropped connection
        lastProblem = transportFailure(e, next.uri());
        observer.helperCall(task.taskId(), resource,
            e instanceof java.net.http.HttpTimeoutException
                && !(e instanceof java.net.http.HttpConnectTimeoutException)
                ? PipelineObserver.CallOutcome.TIMEOUT : PipelineObserver.CallOutcome.CONNECTION,
            since(sent));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new HelperException("interrupted while talking to the Helper", null, true, e);
      }
      if (r != null) {
        tellClock(task, r);
      }
      boolean down = r == null || r.statusCode() == 429 || r.statusCode() / 100 == 5;
      if (down) {
        outageBegins(task, r == null ? lastProblem : "HTTP " + r.statusCode());
      } else {
        outageEnds(task);
      }
      if (r != null && r.statusCode() / 100 == 2) {
        if (r.body().length > 0) {
          return decodeResource(r, responseType, decode);
        }
        Optional<String> location = r.headers().firstValue("Location");
        if (location.isEmpty()) {
          throw new HelperException("the Helper answered " + r.statusCode() + " with neither a"
              + " body nor a Location", null, false, null);
        }
        // DAP-18 "Asynchronous Request Handling": poll the Location after Retry-After
        next = HttpRequest.newBuilder(uri.resolve(location.get()))
            .timeout(options.requestTimeout()).header("Authorization", auth).GET().build();
        failures = 0;
        wait = retryAfter(r).orElse(options.initialBackoff());
        lastProblem = "the resource was not ready";
      } else if (r != null && r.statusCode() != 429 && r.statusCode() / 100 == 4) {
        throw problem(r);
      } else {
        if (r != null) {
          lastProblem = "HTTP " + r.statusCode();
        }
        wait = backoff(failures++);
        if (r != null) {
          Optional<Duration> ra = retryAfter(r);
          if (ra.isPresent() && ra.get().compareTo(wait) > 0) {
            wait = ra.get();
          }
        }
        LOG.debug("Helper {} for {}; retrying in {} ms", lastProblem, next.uri(), wait.toMillis());
      }
      long left = deadline - System.nanoTime();
      if (left <= wait.toNanos()) {
        throw new HelperException("the Helper did not answer within " + options.totalTime()
            + " (" + lastProblem + ")", null, true, null);
      }
      try {
        sleeper.sleep(wait);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new HelperException("interrupted while waiting for the Helper", null, true, e);
      }
    }
  }

  /**
   * Logs one WARN when exchanges with a task's Helper start failing (unreachable, 5xx, 429), not
   * one per retry: the calls go on retrying with backoff, each for up to the total time.
   */
  private void outageBegins(TaskDefinition task, String problem) {
    String endpoint = task.configuration().helperAggregatorEndpoint();
    if (outages.putIfAbsent(endpoint, System.nanoTime()) == null) {
      LOG.warn("the Helper {} does not answer: {}; the Leader retries with backoff (each call for"
          + " up to {}) and logs when it answers again", endpoint, problem, options.totalTime());
    }
  }

  /** Logs one INFO when a Helper that did not answer answers again, with how long it was out. */
  private void outageEnds(TaskDefinition task) {
    String endpoint = task.configuration().helperAggregatorEndpoint();
    Long since = outages.remove(endpoint);
    if (since != null) {
      LOG.info("the Helper {} answers again, after {} s", endpoint,
          Duration.ofNanos(System.nanoTime() - since).toSeconds());
    }
  }

  private static Duration since(long nanos) {
    return Duration.ofNanos(System.nanoTime() - nanos);
  }

  @Override
  public void addClockListener(ClockListener listener) {
    clockListeners.add(Objects.requireNonNull(listener, "listener"));
  }

  /** Tells the clock listeners the Helper's clock if the answer has a valid Date header. */
  private void tellClock(TaskDefinition task, HttpResponse<?> r) {
    Optional<String> date = r.headers().firstValue("Date");
    if (date.isEmpty() || clockListeners.isEmpty()) {
      return;
    }
    java.time.Instant at;
    try {
      at = java.time.ZonedDateTime.parse(date.get().strip(),
          java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
    } catch (java.time.format.DateTimeParseException e) {
      return; // not an HTTP date: no clock stated
    }
    for (ClockListener l : clockListeners) {
      l.helperClock(task, at);
    }
  }

  /**
   * Returns what went wrong below HTTP with the Helper (DAP-18 "HTTP Usage"), naming the URL and
   * the fix: an untrusted certificate names the trust store, a refused connection asks whether
   * the Helper runs.
   */
  static String transportFailure(IOException e, URI uri) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof java.security.cert.CertificateException
          || t instanceof java.security.cert.CertPathBuilderException) {
        return "TLS to " + uri.getScheme() + "://" + uri.getRawAuthority() + "/ failed: the"
            + " Helper's certificate is not trusted; give the Leader's JVM a trust store with its"
            + " CA (JAVA_OPTS=-Djavax.net.ssl.trustStore=FILE, docs/DEPLOY.md section 4)";
      }
    }
    if (e instanceof java.net.http.HttpTimeoutException) {
      return "no answer to " + uri + " within the request timeout";
    }
    if (e instanceof java.net.ConnectException) {
      return "cannot connect to " + uri + ": connection refused; is the Helper running?";
    }
    return uri + ": " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
  }

  /** Returns the backoff before retry {@code n + 1}: full jitter in [d/2, d], d doubling. */
  private Duration backoff(int n) {
    long base = options.initialBackoff().toMillis();
    long cap = options.maxBackoff().toMillis();
    long d = n >= 30 ? cap : Math.min(cap, base << n);
    long half = d / 2;
    return Duration.ofMillis(half + (d - half <= 0 ? 0 : jitter.nextLong(d - half + 1)));
  }

  /** Returns the Retry-After delay in seconds (RFC 9110), capped; empty if absent or a date. */
  private Optional<Duration> retryAfter(HttpResponse<?> r) {
    Optional<String> v = r.headers().firstValue("Retry-After");
    if (v.isEmpty() || !v.get().strip().matches("[0-9]{1,9}")) {
      return Optional.empty();
    }
    Duration d = Duration.ofSeconds(Long.parseLong(v.get().strip()));
    if (d.compareTo(options.maxRetryAfter()) > 0) {
      d = options.maxRetryAfter();
    }
    return Optional.of(d.isZero() ? Duration.ofMillis(50) : d);
  }

  private static <T> T decodeResource(HttpResponse<byte[]> r, DapMediaType type,
      Function<byte[], T> decode) {
    String ct = r.headers().firstValue("Content-Type").orElse("");
    if (!ct.isEmpty() && !ct.replace(" ", "").equalsIgnoreCase(type.contentType())) {
      LOG.debug("the Helper answered with Content-Type {}, expected {}", ct, type.contentType());
    }
    try {
      return decode.apply(r.body());
    } catch (IllegalArgumentException e) { // DapDecodeException included
      throw new HelperException("the Helper's " + type.message() + " does not decode: "
          + e.getMessage(), DapError.INVALID_MESSAGE, false, e);
    }
  }

  /** Turns a 4xx answer into a non-retryable exception with the problem's DAP error type. */
  private static HelperException problem(HttpResponse<byte[]> r) {
    DapError error = null;
    ProblemType.PrioDp prioDp = null;
    String detail = "";
    String ct = r.headers().firstValue("Content-Type").orElse("");
    if (ct.toLowerCase(java.util.Locale.ROOT).startsWith("application/problem+json")) {
      try {
        JsonNode n = MAPPER.readTree(r.body());
        String type = n.path("type").asText("");
        if (type.startsWith(ProblemType.PRIODP_URN_PREFIX)) {
          prioDp = ProblemType.PRIODP_TYPES.stream().filter(p -> p.urn().equals(type)).findFirst()
              .orElse(null); // a prio-dp type this version does not know: the detail says it
        } else if (type.startsWith(DapError.URN_PREFIX)) {
          try {
            error = DapError.fromType(type);
          } catch (IllegalArgumentException unknown) {
            // a DAP error type this version does not know: no type, the detail says it
          }
        }
        detail = n.path("detail").asText("");
      } catch (IOException e) {
        detail = "unparsable problem document";
      }
    }
    String body = detail.isEmpty()
        ? new String(r.body(), 0, Math.min(r.body().length, 200), StandardCharsets.UTF_8)
        : detail;
    return new HelperException("the Helper refused with HTTP " + r.statusCode()
        + (error == null ? prioDp == null ? "" : " (" + prioDp.name() + ")" : " (" + error.type() + ")")
        + ": " + body, error, prioDp, false, r.statusCode(), null);
  }
}
