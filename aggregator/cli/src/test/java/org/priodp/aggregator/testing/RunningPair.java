package org.priodp.aggregator.testing;

import java.math.BigInteger;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.priodp.aggregator.client.DapClient;
import org.priodp.aggregator.core.BatchBuckets;
import org.priodp.aggregator.datastore.BatchAggregation;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import org.priodp.aggregator.peer.HttpHelperPeer;
import org.priodp.aggregator.server.Aggregator;
import org.priodp.aggregator.server.AggregatorConfig;

/**
 * A Leader and a Helper {@link Aggregator} on 127.0.0.1 with SQLite stores in a directory and one
 * Prio3Count task of {@code task new} (its files in {@code dir/task}): Clients upload through
 * {@link #upload}; the Leader can be stopped and started again on the same port and store.
 */
public final class RunningPair implements AutoCloseable {
  public final Path dir;
  public final EndToEndTask task;
  public final int leaderPort;
  public final JdbcDatastore leaderStore;
  public final JdbcDatastore helperStore;
  private final Aggregator helper;
  private Aggregator leader;
  private final HttpClient http = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1).build();
  private final Random random;

  /** Starts both with a task of min_batch_size {@code minBatchSize}; the seed is printed. */
  public RunningPair(Path dir, long minBatchSize) throws Exception {
    this.dir = dir;
    long seed = System.nanoTime();
    System.out.println("RunningPair seed " + seed);
    random = new Random(seed);
    int helperPort = LeaderPair.freePort();
    leaderPort = LeaderPair.freePort();
    task = EndToEndTask.create(dir.resolve("task"), "http://127.0.0.1:" + leaderPort + "/leader/",
        "http://127.0.0.1:" + helperPort + "/helper/", "--vdaf", "Prio3Count",
        "--min-batch-size", String.valueOf(minBatchSize));
    helperStore = JdbcDatastore.openSqlite(dir.resolve("helper.db"));
    leaderStore = JdbcDatastore.openSqlite(leaderDb());
    helper = Aggregator.start(AggregatorConfig.builder(List.of(task.helper), helperStore)
        .port(helperPort).hpkeKeyAtStart(true).build());
    startLeader();
  }

  /** Returns the Leader's SQLite file. */
  public Path leaderDb() {
    return dir.resolve("leader.db");
  }

  /** Starts the Leader (again) on its port and store. */
  public void startLeader() {
    leader = Aggregator.start(AggregatorConfig.builder(List.of(task.leader), leaderStore)
        .port(leaderPort).hpkeKeyAtStart(true)
        .helperPeer(HttpHelperPeer.create(HttpHelperPeer.Options.defaults())).build());
  }

  /** Stops the Leader's server and background work; its store stays open. */
  public void stopLeader() {
    leader.close();
  }

  /** Uploads {@code n} reports of value 1 at hour {@code hour} (time_precision units). */
  public void upload(int n, long hour) throws Exception {
    List<List<BigInteger>> ms = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ms.add(List.of(BigInteger.ONE));
    }
    byte[] seed = new byte[32];
    random.nextBytes(seed);
    SecureRandom sr = SecureRandom.getInstance("SHA1PRNG");
    sr.setSeed(seed);
    DapClient client = new DapClient(task.client, http, sr,
        Clock.fixed(Instant.ofEpochSecond(hour * 3600 + 60), ZoneOffset.UTC));
    if (!client.upload(ms).status().isEmpty()) {
      throw new IllegalStateException("upload refused");
    }
  }

  /** Waits (up to 60 s) until the Leader's bucket of the hour holds {@code n} reports. */
  public void awaitAggregated(long hour, long n) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (leaderStore.inTaskTransaction(task.leader.taskId(),
        tx -> tx.batchBuckets().get(BatchBuckets.timeIntervalBucket(hour)))
        .map(BatchAggregation::reportCount).orElse(0L) < n) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("not aggregated after 60 s");
      }
      Thread.sleep(20);
    }
  }

  /** Returns the current hour in time_precision units (task new's default precision). */
  public static long hour() {
    return System.currentTimeMillis() / 1000 / 3600;
  }

  @Override
  public void close() {
    if (leader != null) {
      leader.close();
    }
    helper.close();
    leaderStore.close();
    helperStore.close();
  }
}
