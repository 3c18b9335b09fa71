package org.priodp.conformance.load;

import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import org.priodp.aggregator.cli.LogFormat;
import org.priodp.aggregator.dap.AggregateShareReq;
import org.priodp.aggregator.dap.BatchId;
import org.priodp.aggregator.dap.DapMediaType;
import org.priodp.aggregator.dap.Role;
import org.priodp.aggregator.datastore.Datastore;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import org.priodp.aggregator.provision.LoopbackTask;
import org.priodp.aggregator.server.Aggregator;
import org.priodp.aggregator.server.AggregatorConfig;
import org.priodp.aggregator.server.TaskRoutes;
import org.priodp.field.FieldVector;
import org.priodp.vdaf.Prio3Variant;
import org.priodp.vdaf.dp.DpStrategy;

/**
 * A bounded load generator for the helper's DAP-18 aggregate-share endpoint, on loopback only:
 * it starts the service in-process on 127.0.0.1 over an SQLite store (or the PostgreSQL or SQLite
 * database of a JDBC URL; each run uses a fresh random task, so runs never collide), then sends a
 * fixed number
 * of requests with a fixed number in flight, in two phases: new shares (each one draws noise,
 * seals with HPKE and writes durably) and repeats of an existing share, after an unmeasured
 * warm-up of repeats. Every answer is checked
 * (200, repeats byte-identical, a new share opens for the collector).
 */
public final class LoadGenerator {
  private static final Prio3Variant VARIANT = new Prio3Variant.Histogram(100, 10);
  private static final long REPORTS = 1000;

  private LoadGenerator() {}

  /**
   * The figures of one phase.
   *
   * @param phase "new shares" or "repeats"
   * @param requests requests sent
   * @param concurrency requests in flight
   * @param seconds wall time of the phase
   * @param latenciesMs sorted latencies in milliseconds
   */
  public record Phase(String phase, int requests, int concurrency, double seconds, double[] latenciesMs) {
    /** Returns requests per second. */
    public double perSecond() {
      return requests / seconds;
    }

    /** Returns the q-quantile latency in milliseconds. */
    public double quantileMs(double q) {
      return latenciesMs[(int) Math.min(latenciesMs.length - 1, Math.floor(q * latenciesMs.length))];
    }
  }

  /** Runs both phases against a fresh service whose SQLite file lives in {@code dir}. */
  public static List<Phase> run(int newShares, int repeats, int concurrency, Path dir, PrintWriter progress)
      throws Exception {
    return run(newShares, repeats, concurrency, "jdbc:sqlite:" + dir.resolve("load.sqlite").toAbsolutePath(),
        new Properties(), progress);
  }

  /**
   * Runs both phases against a fresh service over the store at {@code jdbcUrl} ({@code
   * jdbc:sqlite:FILE} or {@code jdbc:postgresql://...}, opened with the driver {@code properties},
   * e.g. user and password).
   */
  public static List<Phase> run(int newShares, int repeats, int concurrency, String jdbcUrl,
      Properties properties, PrintWriter progress) throws Exception {
    if (newShares < 2 || repeats < 1 || concurrency < 1 || concurrency > 256) {
      throw new IllegalArgumentException("need new >= 2, repeats >= 1, 1 <= concurrency <= 256");
    }
    SecureRandom random = new SecureRandom();
    LoopbackTask task = new LoopbackTask(VARIANT, DpStrategy.PureDpDiscreteLaplace.parse("1"), 100, random);
    byte[] share = FieldVector.zeros(VARIANT.field(), VARIANT.outputLength()).encode();
    byte[] checksum = new byte[32];
    random.nextBytes(checksum);
    List<AggregateShareReq> requests = new ArrayList<>(newShares);
    try (Datastore store = JdbcDatastore.open(jdbcUrl, properties)) {
      for (int i = 0; i < newShares; i++) {
        BatchId batch = task.newBatchId();
        task.writeBatch(store, batch, share, REPORTS, checksum);
        requests.add(task.request(batch, REPORTS, checksum));
      }
      Aggregator server = Aggregator.start(AggregatorConfig.builder(List.of(task.helper()), store)
          .build());
      int port = server.port();
      // one INFO line per request would measure the console, not the service
      AutoCloseable quiet = LogFormat.quiet("org.priodp.aggregator.request");
      try {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
        URI uri = URI.create("http://127.0.0.1:" + port
            + TaskRoutes.aggregateSharesPath(task.helper()));
        String auth = task.helper().authToken().authorizationHeader();
        progress.printf("load: service on 127.0.0.1:%d, %d new shares then %d repeats, %d in flight, store %s%n",
            port, newShares, repeats, concurrency, jdbcUrl.replaceAll("(?i)(password=)[^&;]*", "$1***"));
        progress.flush();
        byte[][] bodies = new byte[newShares][];
        // warm up the JIT on the repeat path (the first share is released here, not measured)
        phase("warm-up", Math.min(repeats, 2000), concurrency, client,
            i -> post(uri, auth, requests.get(0)), (i, body) -> bodies[0] = body);
        Phase fresh = phase("new shares", newShares - 1, concurrency, client,
            i -> post(uri, auth, requests.get(i + 1)), (i, body) -> bodies[i + 1] = body);
        // the collector can open what was released
        task.open(Role.HELPER, requests.get(0), bodies[0]);
        Phase repeat = phase("repeats", repeats, concurrency, client,
            i -> post(uri, auth, requests.get(0)), (i, body) -> {
              if (!Arrays.equals(body, bodies[0])) {
                throw new IllegalStateException("a repeat returned different bytes");
              }
            });
        return List.of(fresh, repeat);
      } finally {
        closeQuietly(quiet);
        server.close();
      }
    }
  }

  private interface Check {
    void accept(int index, byte[] body);
  }

  private static Phase phase(String name, int n, int concurrency, HttpClient client,
      java.util.function.IntFunction<HttpRequest> request, Check check) throws Exception {
    Semaphore inFlight = new Semaphore(concurrency);
    double[] latencies = new double[n];
    AtomicInteger failures = new AtomicInteger();
    List<String> firstFailure = new ArrayList<>();
    CompletableFuture<?>[] all = new CompletableFuture<?>[n];
    long start = System.nanoTime();
    for (int i = 0; i < n; i++) {
      inFlight.acquire();
      int index = i;
      long t0 = System.nanoTime();
      all[i] = client.sendAsync(request.apply(i), HttpResponse.BodyHandlers.ofByteArray())
          .whenComplete((r, e) -> {
            latencies[index] = (System.nanoTime() - t0) / 1e6;
            inFlight.release();
            String problem = e != null ? e.toString()
                : r.statusCode() != 200 ? "status " + r.statusCode() : null;
            if (problem == null) {
              try {
                check.accept(index, r.body());
              } catch (RuntimeException c) {
                problem = c.getMessage();
              }
            }
            if (problem != null && failures.getAndIncrement() == 0) {
              synchronized (firstFailure) {
                firstFailure.add(problem);
              }
            }
          });
    }
    CompletableFuture.allOf(all).exceptionally(e -> null).get();
    double seconds = (System.nanoTime() - start) / 1e9;
    if (failures.get() > 0) {
      throw new IllegalStateException(name + ": " + failures.get() + " of " + n
          + " requests failed, first: " + firstFailure.get(0));
    }
    Arrays.sort(latencies);
    return new Phase(name, n, concurrency, seconds, latencies);
  }

  private static HttpRequest post(URI uri, String auth, AggregateShareReq req) {
    return HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
        .header("Authorization", auth)
        .header("Content-Type", DapMediaType.AGGREGATE_SHARE_REQ.contentType())
        .POST(HttpRequest.BodyPublishers.ofByteArray(req.encode())).build();
  }

  private static void closeQuietly(AutoCloseable c) {
    try {
      c.close();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
