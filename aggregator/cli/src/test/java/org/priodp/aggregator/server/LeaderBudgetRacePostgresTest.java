package org.priodp.aggregator.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.client.DapCollector;
import org.priodp.aggregator.client.DapProblemException;
import org.priodp.aggregator.core.BatchBuckets;
import org.priodp.aggregator.core.ProblemType;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.Interval;
import org.priodp.aggregator.dap.Query;
import org.priodp.aggregator.datastore.BatchAggregation;
import org.priodp.aggregator.datastore.Datastore;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import org.priodp.aggregator.testing.EndToEndTask;
import org.priodp.aggregator.testing.LeaderPair;
import org.priodp.aggregator.testing.ServeProcess;
import org.priodp.field.PrimeField;

/**
 * The budget race of issue 25 through the Leader: two Leader {@code serve} processes (replicas)
 * on one PostgreSQL database (PRIODP_PG_URL; skipped without it) and a Helper {@code serve}
 * process. Twenty tasks made by {@code task new --epsilon 1 --budget-epsilon 3} (a round each,
 * all at once), each with 16 one-hour batches already aggregated on both sides; the Collector
 * collects the 16 batches of every task concurrently. In every round exactly 3 collections
 * succeed and 13 are refused with privacyBudgetExhausted (at creation or as the failed job), and
 * both aggregators' ledgers hold exactly 3 releases per task.
 */
class LeaderBudgetRacePostgresTest {
  private static final int ROUNDS = 20;
  private static final int BATCHES = 16;
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path dir;

  @Test
  void exactlyThreeCollectionsPerTaskAcrossTwoLeaderReplicas() throws Exception {
    String url = System.getenv("PRIODP_PG_URL");
    if (url == null || url.isBlank()) {
      System.out.println("SKIPPED LeaderBudgetRacePostgresTest: PRIODP_PG_URL is not set");
    }
    Assumptions.assumeTrue(url != null && !url.isBlank(), "PRIODP_PG_URL is not set");
    int portA = LeaderPair.freePort();
    int portB = LeaderPair.freePort();
    int portH = LeaderPair.freePort();
    String leaderUrl = "http://127.0.0.1:" + portA + "/leader/";
    String helperUrl = "http://127.0.0.1:" + portH + "/helper/";
    List<EndToEndTask> tasks = new ArrayList<>();
    for (int r = 0; r < ROUNDS; r++) {
      tasks.add(EndToEndTask.create(dir.resolve("t" + r), leaderUrl, helperUrl, "--vdaf", "Prio3Count",
          "--epsilon", "1", "--budget-epsilon", "3", "--min-batch-size", "1"));
    }
    Path leaderJson = merge(dir.resolve("leader.json"), tasks, "leader.json");
    Path helperJson = merge(dir.resolve("helper.json"), tasks, "helper.json");
    long first = System.currentTimeMillis() / 1000 / 3600 - BATCHES - 2;
    String helperDb = "jdbc:sqlite:" + dir.resolve("helper.db");
    try (JdbcDatastore leader = JdbcDatastore.open(url); JdbcDatastore helper = JdbcDatastore.open(helperDb)) {
      SecureRandom random = new SecureRandom();
      for (EndToEndTask t : tasks) {
        for (int k = 0; k < BATCHES; k++) {
          byte[] checksum = new byte[32];
          random.nextBytes(checksum);
          put(leader, t, first + k, 1, checksum);
          put(helper, t, first + k, 0, checksum);
        }
      }
    }
    String[] opts = {"--lease-duration", "10"};
    Process h = null;
    Process a = null;
    Process b = null;
    ExecutorService pool = Executors.newFixedThreadPool(32);
    try {
      h = ServeProcess.start(helperJson, helperDb, dir.resolve("h.log"), portH, List.of());
      a = ServeProcess.start(leaderJson, url, dir.resolve("a.log"), portA, List.of(),
          withReplica(opts, "budget-a-" + System.nanoTime()));
      b = ServeProcess.start(leaderJson, url, dir.resolve("b.log"), portB, List.of(),
          withReplica(opts, "budget-b-" + System.nanoTime()));
      ServeProcess.awaitPort(h);
      ServeProcess.awaitPort(a);
      ServeProcess.awaitPort(b);
      HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
      List<List<Future<String>>> outcomes = new ArrayList<>();
      for (EndToEndTask t : tasks) {
        DapCollector c = new DapCollector(t.collector.parameters(), t.collector.collectorAuthToken(),
            t.collector.hpkeConfig(), t.collector.hpkeKey(), http, d -> Thread.sleep(d.toMillis()),
            Duration.ofSeconds(240), 1 - 1e-6);
        List<Future<String>> round = new ArrayList<>();
        for (int k = 0; k < BATCHES; k++) {
          long start = first + k;
          round.add(pool.submit(() -> {
            try {
              c.collect(new Query.TimeInterval(Interval.of(start, 1)), (poll, wait, waited) -> { });
              return "released";
            } catch (DapProblemException e) {
              return e.type();
            }
          }));
        }
        outcomes.add(round);
      }
      try (JdbcDatastore leader = JdbcDatastore.open(url)) {
        for (int r = 0; r < ROUNDS; r++) {
          int released = 0;
          int refused = 0;
          List<String> other = new ArrayList<>();
          for (Future<String> f : outcomes.get(r)) {
            String o = f.get(300, TimeUnit.SECONDS);
            if (o.equals("released")) {
              released++;
            } else if (o.equals(ProblemType.PRIVACY_BUDGET_EXHAUSTED.urn())) {
              refused++;
            } else {
              other.add(o);
            }
          }
          assertEquals(List.of(), other, "round " + r);
          assertEquals(3, released, "round " + r);
          assertEquals(13, refused, "round " + r);
          EndToEndTask t = tasks.get(r);
          assertEquals(3, leader.inTaskTransaction(t.leader.taskId(), tx -> tx.ledger().entries()).size(),
              "round " + r + ": the Leader's ledger");
        }
      }
    } finally {
      pool.shutdownNow();
      for (Process p : new Process[] {a, b, h}) {
        if (p != null) {
          ServeProcess.stop(p);
        }
      }
    }
    try (JdbcDatastore helper = JdbcDatastore.open(helperDb)) {
      for (EndToEndTask t : tasks) {
        assertEquals(3, helper.inTaskTransaction(t.helper.taskId(), tx -> tx.ledger().entries()).size(),
            "the Helper's ledger");
      }
    }
  }

  /** Writes one aggregated report (measurement 1) of the hour {@code time} into the bucket. */
  private static void put(Datastore store, EndToEndTask t, long time, long share, byte[] checksum) {
    PrimeField field = t.leader.variant().field();
    int n = t.leader.variant().outputLength();
    long[] words = field.newArray(n);
    field.set(words, 0, java.math.BigInteger.valueOf(share));
    byte[] encoded = new byte[n * field.encodedSize()];
    field.encode(words, n, encoded, 0);
    BatchAggregation bucket = new BatchAggregation(t.leader.taskId(), BatchBuckets.timeIntervalBucket(time),
        ByteString.EMPTY, ByteString.copyOf(encoded), 1, ByteString.copyOf(checksum));
    store.inTaskTransaction(t.leader.taskId(), tx -> {
      tx.batchBuckets().put(bucket);
      return null;
    });
  }

  private static Path merge(Path out, List<EndToEndTask> tasks, String file) throws Exception {
    ObjectNode root = JSON.createObjectNode();
    ArrayNode all = root.putArray("tasks");
    for (EndToEndTask t : tasks) {
      JSON.readTree(t.dir.resolve(file).toFile()).get("tasks").forEach(all::add);
    }
    Files.writeString(out, JSON.writeValueAsString(root));
    return out;
  }

  private static String[] withReplica(String[] opts, String replica) {
    String[] all = java.util.Arrays.copyOf(opts, opts.length + 2);
    all[opts.length] = "--replica-id";
    all[opts.length + 1] = replica;
    return all;
  }
}
