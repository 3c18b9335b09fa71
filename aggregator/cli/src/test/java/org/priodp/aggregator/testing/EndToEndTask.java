package org.priodp.aggregator.testing;

import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.priodp.aggregator.cli.CliRun;
import org.priodp.aggregator.client.CollectorTask;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.task.TaskParameters;
import org.priodp.aggregator.taskfile.ClientTaskFile;
import org.priodp.aggregator.taskfile.CollectorTaskFile;
import org.priodp.aggregator.taskfile.TaskFile;
import org.priodp.vdaf.Prio3;
import org.priodp.vdaf.Prio3Variant;

/**
 * One task provisioned the way a user does it, by {@code ./prio-dp task new} (in-process) into a
 * directory: the Leader's and Helper's task files, the Collector's file and the Clients' public
 * parameters, read back with their parties' readers; plus random valid measurements of its VDAF
 * and their true aggregate, for the end-to-end tests (issue 17).
 */
public final class EndToEndTask {
  public final Path dir;
  public final TaskDefinition leader;
  public final TaskDefinition helper;
  public final CollectorTask collector;
  public final TaskParameters client;
  public final Prio3Variant variant;

  private EndToEndTask(Path dir) throws java.io.IOException {
    this.dir = dir;
    this.leader = only(TaskFile.read(dir.resolve("leader.json")));
    this.helper = only(TaskFile.read(dir.resolve("helper.json")));
    this.collector = CollectorTaskFile.read(dir.resolve("collector.json"));
    this.client = ClientTaskFile.read(dir.resolve("client.json"));
    this.variant = client.variant();
  }

  private static TaskDefinition only(List<TaskDefinition> tasks) {
    if (tasks.size() != 1) {
      throw new IllegalStateException("expected one task, got " + tasks.size());
    }
    return tasks.get(0);
  }

  /**
   * Runs {@code task new --leader-url LEADER --helper-url HELPER --out DIR ARGS} (ARGS: the VDAF
   * and DP options, e.g. {@code --vdaf Prio3Count --epsilon 1}) and reads the four files.
   */
  public static EndToEndTask create(Path dir, String leaderUrl, String helperUrl, String... args)
      throws java.io.IOException {
    Files.createDirectories(dir);
    List<String> a = new ArrayList<>(List.of("task", "new", "--leader-url", leaderUrl,
        "--helper-url", helperUrl, "--out", dir.toString()));
    a.addAll(List.of(args));
    CliRun r = CliRun.of(a.toArray(String[]::new));
    if (r.code() != 0) {
      throw new IllegalStateException("task new " + String.join(" ", args) + ": " + r.err());
    }
    return new EndToEndTask(dir);
  }

  /** Returns the VDAF options of {@code task new} for the six Prio3 types of the tests. */
  public static List<List<String>> everyPrio3Type() {
    return List.of(
        List.of("--vdaf", "Prio3Count"),
        List.of("--vdaf", "Prio3Sum", "--max-measurement", "100"),
        List.of("--vdaf", "Prio3SumVec", "--length", "4", "--max-measurement", "7",
            "--chunk-length", "2"),
        List.of("--vdaf", "Prio3Histogram", "--length", "5", "--chunk-length", "2"),
        List.of("--vdaf", "Prio3MultihotCountVec", "--length", "6", "--max-weight", "2",
            "--chunk-length", "2"),
        List.of("--vdaf", "Prio3L1BoundSum", "--length", "4", "--max-value", "9",
            "--chunk-length", "3"));
  }

  /** Returns a random valid measurement of the task's VDAF, as {@code DapClient} takes it. */
  public List<BigInteger> measurement(Random random) {
    return measurement(variant, random);
  }

  /** Returns a random valid measurement of {@code variant}. */
  public static List<BigInteger> measurement(Prio3Variant variant, Random random) {
    if (variant instanceof Prio3Variant.Count) {
      return List.of(BigInteger.valueOf(random.nextInt(2)));
    }
    if (variant instanceof Prio3Variant.Sum s) {
      return List.of(BigInteger.valueOf(random.nextInt(s.maxMeasurement().intValueExact() + 1)));
    }
    if (variant instanceof Prio3Variant.SumVec s) {
      List<BigInteger> m = new ArrayList<>();
      for (int i = 0; i < s.length(); i++) {
        m.add(BigInteger.valueOf(random.nextInt(s.maxMeasurement().intValueExact() + 1)));
      }
      return m;
    }
    if (variant instanceof Prio3Variant.Histogram h) {
      return List.of(BigInteger.valueOf(random.nextInt(h.length())));
    }
    if (variant instanceof Prio3Variant.L1BoundSum l) {
      // a random split of a random weight in [0, max_value]: the bound itself is often reached
      int left = random.nextInt(l.maxValue().intValueExact() + 1);
      BigInteger[] m = new BigInteger[l.length()];
      for (int i = 0; i < m.length; i++) {
        int v = i == m.length - 1 ? left : random.nextInt(left + 1);
        m[i] = BigInteger.valueOf(v);
        left -= v;
      }
      return List.of(m);
    }
    Prio3Variant.MultihotCountVec mh = (Prio3Variant.MultihotCountVec) variant;
    BigInteger[] m = new BigInteger[mh.length()];
    Arrays.fill(m, BigInteger.ZERO);
    int ones = random.nextInt(mh.maxWeight() + 1);
    for (int k = 0; k < ones; k++) {
      m[random.nextInt(mh.length())] = BigInteger.ONE;
    }
    return List.of(m);
  }

  /** Returns the true aggregate of the measurements (one element per output coordinate). */
  public static List<BigInteger> truth(Prio3Variant variant, List<List<BigInteger>> ms) {
    int n = new Prio3(variant).outputLength();
    BigInteger[] sum = new BigInteger[n];
    Arrays.fill(sum, BigInteger.ZERO);
    for (List<BigInteger> m : ms) {
      if (variant instanceof Prio3Variant.Histogram) {
        sum[m.get(0).intValueExact()] = sum[m.get(0).intValueExact()].add(BigInteger.ONE);
      } else {
        for (int i = 0; i < n; i++) {
          sum[i] = sum[i].add(m.get(i));
        }
      }
    }
    return List.of(sum);
  }

  /**
   * Returns the smallest c such that P(X > c) <= alpha for X ~ Binomial(n, p): the largest
   * number of misses a one-sided test at false-alarm probability alpha accepts.
   */
  public static int binomialCritical(int n, double p, double alpha) {
    double tail = 1.0;
    for (int c = 0; c <= n; c++) {
      // P(X = c)
      double logPmf = logChoose(n, c) + c * Math.log(p) + (n - c) * Math.log1p(-p);
      tail -= Math.exp(logPmf);
      if (tail <= alpha) {
        return c;
      }
    }
    return n;
  }

  private static double logChoose(int n, int k) {
    double s = 0;
    for (int i = 1; i <= k; i++) {
      s += Math.log(n - k + i) - Math.log(i);
    }
    return s;
  }
}
