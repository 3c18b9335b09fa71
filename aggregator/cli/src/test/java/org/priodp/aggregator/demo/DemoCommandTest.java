package org.priodp.aggregator.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.cli.CliRun;

class DemoCommandTest {
  private static final Pattern ROW =
      Pattern.compile("\\s+(\\d+)\\s+(\\d+)\\s+(-?\\d+)\\s+\\[(-?\\d+), (-?\\d+)\\].*");
  private static final Pattern STORES =
      Pattern.compile("(?m)^  stores: leader (\\S+), helper (\\S+)$");

  /** One table row: bucket, true count, noisy count, interval. */
  private record Row(long truth, long noisy, long lo, long hi) {
  }

  private static List<Row> rows(String out, int length) {
    List<Row> rows = out.lines().map(ROW::matcher).filter(Matcher::matches)
        .map(m -> new Row(Long.parseLong(m.group(2)), Long.parseLong(m.group(3)),
            Long.parseLong(m.group(4)), Long.parseLong(m.group(5))))
        .toList();
    assertEquals(length, rows.size(), out);
    return rows;
  }

  @Test
  void withoutNoiseTheCountsAreExactAndTheTemporaryStoresAreDeleted() {
    CliRun r = CliRun.of("demo", "--clients", "300", "--length", "6", "--epsilon", "none");
    assertEquals(0, r.code(), r.out() + r.err());
    String out = r.out();
    assertTrue(out.contains("no differential privacy"), out);
    assertTrue(out.contains("300 clients uploaded their reports to the leader (0 refused)"), out);
    assertTrue(out.contains("collector: 300 reports in the batch interval"), out);
    assertTrue(out.contains("leader at http://127.0.0.1:"), out);
    long total = 0;
    for (Row row : rows(out, 6)) {
      assertEquals(row.truth(), row.noisy(), out);
      assertEquals(row.truth(), row.lo(), out);
      assertEquals(row.truth(), row.hi(), out);
      total += row.truth();
    }
    assertEquals(300, total, "every client's measurement is counted once");
    assertTrue(out.contains("6 of 6 intervals contain the true count"), out);
    Matcher stores = STORES.matcher(out);
    assertTrue(stores.find(), out);
    Path leader = Path.of(stores.group(1));
    assertTrue(leader.toString().endsWith("leader.sqlite"), out);
    assertFalse(Files.exists(leader.getParent()), "the temporary folder is deleted: " + out);
    // the progress bars go to stderr
    assertTrue(r.err().contains("uploading"), r.err());
    assertTrue(r.err().contains("aggregating"), r.err());
    assertTrue(r.err().contains("collecting"), r.err());
  }

  @Test
  void runsAtDap19ByDefaultAndAtDap18WhenAsked() {
    CliRun d19 = CliRun.of("demo", "--clients", "60", "--length", "3", "--epsilon", "none");
    assertEquals(0, d19.code(), d19.out() + d19.err());
    assertTrue(d19.out().lines().findFirst().orElseThrow().endsWith(", DAP-19"), d19.out());
    CliRun d18 = CliRun.of("demo", "--clients", "60", "--length", "3", "--epsilon", "none",
        "--dap-version", "dap-18");
    assertEquals(0, d18.code(), d18.out() + d18.err());
    assertTrue(d18.out().lines().findFirst().orElseThrow().endsWith(", DAP-18"), d18.out());
    assertTrue(d18.out().contains("collector: 60 reports in the batch interval"), d18.out());
    for (Row row : rows(d18.out(), 3)) {
      assertEquals(row.truth(), row.noisy(), d18.out());
    }
    CliRun bad = CliRun.of("demo", "--dap-version", "dap-17");
    assertTrue(bad.failedWithOneLine("--dap-version"), bad.err());
  }

  @Test
  void withNoiseTheTruthLiesInTheIntervalsAndDataDirIsKept(@TempDir Path dir) {
    CliRun r = CliRun.of("demo", "--clients", "300", "--length", "6", "--epsilon", "1/2",
        "--data-dir", dir.toString());
    assertEquals(0, r.code(), r.out() + r.err());
    String out = r.out();
    assertTrue(out.contains("epsilon = 1/2"), out);
    // issue 25: the header names the sampler the servers use, and the guarantee is exact
    assertTrue(out.contains("\n  noise: fixed-work discrete Laplace with scale 4 (total variation"
        + " <= 2^-64 from the exact distribution), per aggregator\n"), out);
    assertTrue(out.contains("\n  guarantee of this release: (1/2, 2^-60)-DP per report: epsilon"
        + " = 1/2 with the fixed-work discrete Laplace sampler, the 6 draws of each aggregator"
        + " within total variation 2^-61.4 of the exact noise\n"), out);
    assertTrue(out.contains("\n  cost to a privacy unit: each simulated client sent 1 report, so"
        + " this release cost each client (1/2, 2^-60)-DP"), out);
    assertTrue(Files.isRegularFile(dir.resolve("helper.sqlite")), "the helper's SQLite store");
    assertTrue(Files.isRegularFile(dir.resolve("leader.sqlite")), "the leader's SQLite store");
    assertTrue(out.contains("the stores were left in " + dir), out);
    long total = 0;
    int covered = 0;
    for (Row row : rows(out, 6)) {
      total += row.truth();
      // the interval is centred on the noisy count: scale 4 per aggregator at epsilon 1/2
      assertEquals(row.noisy(), (row.lo() + row.hi()) / 2, out);
      assertTrue(row.hi() - row.lo() > 0 && row.hi() - row.lo() < 100, out);
      covered += row.lo() <= row.truth() && row.truth() <= row.hi() ? 1 : 0;
    }
    assertEquals(300, total, "every client's measurement is counted once");
    // each interval covers with probability >= 0.95; 4 or more of 6 fail with probability < 1e-4
    assertTrue(covered >= 4, out);
    assertTrue(out.contains(covered + " of 6 intervals contain the true count"), out);
  }

  @Test
  void onPostgresqlEachAggregatorHasItsOwnSchema() throws Exception {
    String url = System.getenv("PRIODP_PG_URL");
    assumeTrue(url != null && !url.isBlank(), "PRIODP_PG_URL not set");
    String suffix = Long.toString(System.nanoTime(), 36);
    String leader = "demo_leader_" + suffix;
    String helper = "demo_helper_" + suffix;
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
      s.execute("CREATE SCHEMA " + leader);
      s.execute("CREATE SCHEMA " + helper);
    }
    String sep = url.contains("?") ? "&" : "?";
    try {
      CliRun r = CliRun.of("demo", "--clients", "300", "--length", "4", "--epsilon", "none",
          "--db-leader", url + sep + "currentSchema=" + leader,
          "--db-helper", url + sep + "currentSchema=" + helper);
      assertEquals(0, r.code(), r.out() + r.err());
      long total = 0;
      for (Row row : rows(r.out(), 4)) {
        assertEquals(row.truth(), row.noisy(), r.out());
        total += row.truth();
      }
      assertEquals(300, total, r.out());
      try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
        for (String schema : List.of(leader, helper)) {
          try (var rs = s.executeQuery("SELECT COUNT(*) FROM " + schema + ".aggregated_reports")) {
            rs.next();
            assertEquals(300, rs.getLong(1), schema);
          }
        }
      }
    } finally {
      try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
        s.execute("DROP SCHEMA IF EXISTS " + leader + " CASCADE");
        s.execute("DROP SCHEMA IF EXISTS " + helper + " CASCADE");
      }
    }
  }

  @Test
  void aStoreThatDoesNotAnswerIsOneLineAndTheFolderIsNamed() throws Exception {
    // nothing listens on port 1 of the loopback address: the Leader's store cannot open
    CliRun r = CliRun.of("demo", "--clients", "10", "--epsilon", "none",
        "--db-leader", "jdbc:postgresql://127.0.0.1:1/none");
    assertEquals(1, r.code(), r.out() + r.err());
    Matcher m = Pattern.compile("the stores were left in (\\S+)").matcher(r.err());
    assertTrue(m.find(), r.err());
    Path left = Path.of(m.group(1));
    assertTrue(Files.isDirectory(left), r.err());
    try (var files = Files.walk(left)) {
      for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
    List<String> lines = r.err().lines().filter(l -> l.startsWith("demo: ")).toList();
    assertEquals(1, lines.size(), r.err());
    assertTrue(lines.get(0).contains("cannot open store jdbc:postgresql://127.0.0.1:1/none"),
        r.err());
    assertFalse(r.err().contains("\tat "), "no stack trace: " + r.err());
  }

  @Test
  void badOptionsFailWithOneLine() {
    for (String[] args : new String[][] {
        {"demo", "--clients", "0"}, {"demo", "--length", "1"}, {"demo", "--epsilon", "-1"},
        {"demo", "--db-leader", "jdbc:sqlite:x.db"},
        {"demo", "--db-leader", "jdbc:postgresql://h/db", "--db-helper", "jdbc:postgresql://h/db"}}) {
      CliRun r = CliRun.of(args);
      assertEquals(2, r.code(), String.join(" ", args));
      assertEquals(1, r.err().lines().count(), r.err());
    }
  }

  /**
   * demo --attribution (issue 26): the Leader takes exactly the reports that stated at least the
   * minimum into the job's batch and drops the rest, and the table's true values are those
   * reports' sums.
   */
  @Test
  void theAttributionFlowCountsExactlyTheReportsAtOrAboveTheMinimum() {
    CliRun r = CliRun.of("demo", "--attribution", "--clients", "150", "--length", "4",
        "--max-value", "10", "--min-dp-budget", "0.5");
    assertEquals(0, r.code(), r.out() + r.err());
    String out = r.out();
    List<AttributionFlow.Conversion> all = AttributionFlow.conversions(150, 4, 10,
        AttributionDemo.EPOCH_BUDGET, AttributionDemo.LEGACY_EVERY, 1);
    org.priodp.aggregator.task.MicroEpsilon min =
        org.priodp.aggregator.task.MicroEpsilon.parseEpsilon("0.5");
    List<AttributionFlow.Conversion> counted = all.stream()
        .filter(c -> c.statesBudget() && c.spent().compareTo(min) >= 0).toList();
    assertTrue(counted.size() > 0 && counted.size() < all.size(), "the flow has both kinds");
    assertTrue(out.contains("the Leader took " + counted.size() + " reports into the job's batch"
        + " and refused " + (all.size() - counted.size()) + " (" + (all.size() - counted.size())
        + " report_dropped"), out);
    assertTrue(out.contains("collector: " + counted.size() + " reports in the batch"), out);
    List<Row> rows = rows(out, 4);
    for (int k = 0; k < 4; k++) {
      final int coordinate = k;
      long truth = counted.stream().mapToLong(c -> c.histogram().get(coordinate).longValueExact())
          .sum();
      assertEquals(truth, rows.get(k).truth(), out);
      assertTrue(rows.get(k).lo() <= rows.get(k).noisy() && rows.get(k).noisy() <= rows.get(k).hi(),
          out);
    }
    assertTrue(out.contains("collector_selected, budget_source shop.example, DAP-19"), out);
    // the exact guarantee of the fixed-work sampler the servers draw with: epsilon and delta
    assertTrue(out.contains("guarantee of this release: (1/2, 2^-"), out);
    assertTrue(CliRun.of("demo", "--attribution", "--min-dp-budget", "0")
        .failedWithOneLine("--min-dp-budget: must be positive"));
  }
}
