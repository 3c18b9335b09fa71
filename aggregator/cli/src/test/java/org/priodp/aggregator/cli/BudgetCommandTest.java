package org.priodp.aggregator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.core.PrivacyBudget;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.dap.BatchMode;
import org.priodp.aggregator.dap.DapVersion;
import org.priodp.aggregator.datastore.BatchIdentifier;
import org.priodp.aggregator.datastore.LedgerRecord;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import org.priodp.aggregator.provision.ProvisionedTask;
import org.priodp.aggregator.taskfile.TaskFile;
import org.priodp.noise.ledger.LedgerEntry;
import org.priodp.noise.ledger.PrivacyUnit;
import org.priodp.noise.ledger.ReleaseGuarantee;
import org.priodp.noise.ledger.Span;
import org.priodp.vdaf.Prio3Variant;
import org.priodp.vdaf.dp.DpStrategy;
import org.priodp.vdaf.dp.SensitivityRule;

/**
 * {@code ./prio-dp budget} and the budget in {@code status}, on a real SQLite store holding a
 * Leader's ledger: text, JSON, a task without noise, and the help.
 */
class BudgetCommandTest {
  @TempDir
  Path dir;

  private Path leaderJson(DpStrategy strategy, BatchMode mode) throws Exception {
    Prio3Variant v = new Prio3Variant.Histogram(4, 2);
    ProvisionedTask task = ProvisionedTask.generate(DapVersion.DAP_19,
        TaskDefinition.configurationFor(v, new byte[0], "https://l.example/",
            "https://h.example/", 3600, 1, mode, List.of()), v, strategy,
        SensitivityRule.PRIODP, new SecureRandom());
    Path leader = dir.resolve("leader-" + System.nanoTime() + ".json");
    Files.writeString(leader, task.render().get("leader.json"), StandardCharsets.UTF_8);
    return leader;
  }

  /** Writes the ledger record of a release of {@code batch} over {@code span}, as serve would. */
  private static void release(JdbcDatastore store, TaskDefinition t, byte tag, String batch,
      Span span, long drawnAt) {
    ReleaseGuarantee perReport = PrivacyBudget.perReport(t).orElseThrow();
    store.inTaskTransaction(t.taskId(), tx -> tx.ledger().insert(new LedgerRecord(
        BatchIdentifier.of(new byte[] {1, tag}), LedgerEntry.of(batch, span,
            t.privacy().unit(), perReport, drawnAt), t.mechanism().describeNoise(),
        t.dpSettingsText())));
  }

  @Test
  void printsEachReleaseSpentAndTheGuaranteeAsTextAndJsonAndStatusSumsItUp() throws Exception {
    Path leader = leaderJson(DpStrategy.PureDpDiscreteLaplace.parse("1/2"),
        BatchMode.TIME_INTERVAL);
    TaskDefinition t = TaskFile.read(leader).get(0);
    String db = "jdbc:sqlite:" + dir.resolve("s.db");
    try (JdbcDatastore store = JdbcDatastore.open(db)) {
      release(store, t, (byte) 1, "2026-01-01T00:00:00Z/3600",
          new Span(1767225600, 1767229200), 1767229300);
      release(store, t, (byte) 2, "batch AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
          new Span(1767229200, 1767236400), 1767236500);
    }
    CliRun r = CliRun.of("budget", "--config", leader.toString(), "--db", db);
    assertEquals(0, r.code(), r.err());
    String tv = org.priodp.vdaf.dp.StatedGuarantee.powerOfTwo(
        PrivacyBudget.perReport(t).orElseThrow().totalVariation());
    assertEquals("task " + t.taskId().toBase64Url() + " (leader)\n"
        + "  privacy unit: report\n"
        + "  cap: no cap (the ledger records, nothing is refused)\n"
        + "  release: interval 2026-01-01T00:00:00Z/3600: "
        + t.mechanism().describeNoise() + "; epsilon 1/2 per report, epsilon 1/2 per unit"
        + " (1 report of one unit can be in the batch), total variation " + tv
        + "; drawn 2026-01-01T01:01:40Z\n"
        + "  release: leader-selected batch AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA (reports"
        + " from 2026-01-01T01:00:00Z to 2026-01-01T03:00:00Z): "
        + t.mechanism().describeNoise() + "; epsilon 1/2 per report, epsilon 1/2 per unit"
        + " (1 report of one unit can be in the batch), total variation " + tv
        + "; drawn 2026-01-01T03:01:40Z\n"
        + "  spent: epsilon 1 in 2 releases; no cap\n", r.out().substring(0,
            r.out().indexOf("  guarantee of the spend")));
    // (1, (1 + e) * 2 * 4 * delta_draw)-DP: delta about 1.6e-18
    assertTrue(r.out().matches("(?s).*  guarantee of the spend for one privacy unit: \\(epsilon at"
        + " most 1, delta at most 1\\.6[0-9]*e-18\\)-DP\n"), r.out());

    JsonNode b = new ObjectMapper().readTree(CliRun.of("budget", "--config", leader.toString(),
        "--db", db, "--json").out()).get("tasks").get(0).get("privacy_budget");
    assertEquals("1", b.get("spent").asText());
    assertEquals("report", b.get("unit").asText());
    assertTrue(b.get("cap").isNull());
    assertEquals(2, b.get("releases").size());
    assertEquals("1/2", b.get("releases").get(1).get("per_unit").asText());
    assertEquals("2026-01-01T01:00:00Z", b.get("releases").get(1).get("span_start").asText());

    CliRun status = CliRun.of("status", "--config", leader.toString(), "--db", db);
    assertTrue(status.out().contains("\n  privacy budget: no cap (the ledger records, nothing is"
        + " refused) (unit: report; prio-dp budget lists the releases)\n"
        + "    spent: epsilon 1 in 2 releases; no cap\n"), status.out());
    JsonNode sj = new ObjectMapper().readTree(CliRun.of("status", "--config", leader.toString(),
        "--db", db, "--json").out()).get("tasks").get(0).get("privacy_budget");
    assertEquals("1", sj.get("spent").asText(), "GET /admin/status has the same object");
  }

  @Test
  void aTaskWithoutNoiseHasNoLedgerAndTheHelpHasAnExample() throws Exception {
    Path leader = leaderJson(new DpStrategy.NoDifferentialPrivacy(), BatchMode.TIME_INTERVAL);
    String db = "jdbc:sqlite:" + dir.resolve("n.db");
    CliRun r = CliRun.of("budget", "--config", leader.toString(), "--db", db);
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().endsWith("  no differential privacy: the task adds no noise, there is no"
        + " ledger\n"), r.out());
    JsonNode j = new ObjectMapper().readTree(CliRun.of("budget", "--config", leader.toString(),
        "--db", db, "--json").out());
    assertTrue(j.get("tasks").get(0).get("privacy_budget").isNull());
    CliRun help = CliRun.of("budget", "--help");
    assertTrue(help.out().contains("Example:") && help.out().contains("prio-dp budget --config"),
        help.out());
    assertTrue(CliRun.of("budget", "--db", db).err().contains("--config"));
  }
}
