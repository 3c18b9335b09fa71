package org.priodp.aggregator.datastore.jdbc;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Assumptions;
import org.priodp.aggregator.dap.AggregationJobId;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.Interval;
import org.priodp.aggregator.dap.ReportId;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.BatchIdentifier;
import org.priodp.aggregator.datastore.CollectedInterval;
import org.priodp.aggregator.datastore.Datastore;
import org.priodp.aggregator.datastore.NoisedAggregateShare;

/**
 * What the JDBC datastore tests share: a datastore on a named backend ({@code sqlite} in a
 * temporary directory, {@code postgresql} at PRIODP_PG_URL, else the test is skipped) and the
 * values they store.
 */
final class Stores {
  static final String PG_ENV = "PRIODP_PG_URL";
  static final SecureRandom RANDOM = new SecureRandom();

  private Stores() {
  }

  /** Opens a datastore on the named backend; PostgreSQL only when PRIODP_PG_URL is set. */
  static JdbcDatastore open(String backend, Path dir) {
    if (backend.equals("postgresql")) {
      String url = System.getenv(PG_ENV);
      if (url == null || url.isBlank()) {
        System.out.println("SKIPPED PostgreSQL store test: " + PG_ENV + " is not set");
      }
      Assumptions.assumeTrue(url != null && !url.isBlank(),
          "PostgreSQL tests skipped: set " + PG_ENV + " (e.g. jdbc:postgresql://localhost/priodp?user=..&password=..)");
      return JdbcDatastore.open(url);
    }
    return JdbcDatastore.openSqlite(dir.resolve("store.db"));
  }

  static TaskId randomTask() {
    byte[] b = new byte[32];
    RANDOM.nextBytes(b);
    return new TaskId(b);
  }

  static byte[] bytes(int n, int fill) {
    byte[] b = new byte[n];
    Arrays.fill(b, (byte) fill);
    return b;
  }

  static BatchIdentifier id(long start, long duration) {
    return BatchIdentifier.of(Interval.of(start, duration).encode());
  }

  static ByteString bs(int n, int fill) {
    return ByteString.copyOf(bytes(n, fill));
  }

  static NoisedAggregateShare noised(TaskId task, BatchIdentifier batch, int value) {
    return new NoisedAggregateShare(task, batch, ByteString.EMPTY, 1000, bs(32, 7), bs(32, value),
        bs(40, value), Instant.ofEpochMilli(1_700_000_000_000L + value));
  }

  /** Inserts a noised share (and its range) in a task transaction if the batch has none. */
  static boolean insertIfAbsent(JdbcDatastore store, NoisedAggregateShare n,
      CollectedInterval range) {
    return store.inTaskTransaction(n.taskId(), tx -> {
      if (tx.releases().noisedShare(n.batch()).isPresent()
          || (range != null && tx.releases().collectedIntervalOverlaps(range))) {
        return false;
      }
      tx.releases().insertNoisedShare(n, Optional.ofNullable(range));
      return true;
    });
  }

  /** Returns what a boolean read or write of a task transaction returned. */
  static boolean holds(JdbcDatastore store, TaskId task, Datastore.TaskWork<Boolean> work) {
    return store.inTaskTransaction(task, work);
  }

  /**
   * Starts {@code n} calls on {@code threads} threads, lets them all go at once and returns their
   * results in call order (each waited for up to a minute).
   */
  static <T> List<T> atOnce(int threads, int n, IntFunction<Callable<T>> call) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      CountDownLatch go = new CountDownLatch(1);
      List<Future<T>> futures = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        Callable<T> c = call.apply(i);
        futures.add(pool.submit(() -> {
          go.await();
          return c.call();
        }));
      }
      go.countDown();
      List<T> out = new ArrayList<>();
      for (Future<T> f : futures) {
        out.add(f.get(60, TimeUnit.SECONDS));
      }
      return out;
    } finally {
      pool.shutdownNow();
    }
  }

  static ByteString token(int fill) {
    return bs(16, fill);
  }

  static AggregationJobId jobId(int fill) {
    return new AggregationJobId(bytes(16, fill));
  }

  static ReportId reportId() {
    byte[] b = new byte[16];
    RANDOM.nextBytes(b);
    return new ReportId(b);
  }
}
