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
import org.priodp.aggregator.core.PipelineCounters;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.dap.BatchMode;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.DapVersion;
import org.priodp.aggregator.dap.ReportId;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import org.priodp.aggregator.provision.ProvisionedTask;
import org.priodp.aggregator.taskfile.TaskFile;
import org.priodp.vdaf.Prio3Variant;
import org.priodp.vdaf.dp.DpStrategy;
import org.priodp.vdaf.dp.SensitivityRule;

/** {@code ./prio-dp status} on a store a Leader wrote: text, JSON and the errors. */
class StatusCommandTest {
  @TempDir
  Path dir;

  @Test
  void printsTheStoresCountsAsTextAndAsJson() throws Exception {
    Prio3Variant v = new Prio3Variant.Count();
    ProvisionedTask task = ProvisionedTask.generate(DapVersion.DAP_19,
        TaskDefinition.configurationFor(v, new byte[0], "https://l.example/", "https://h.example/",
            60, 1, BatchMode.TIME_INTERVAL, List.of()), v, new DpStrategy.NoDifferentialPrivacy(),
        SensitivityRule.PRIODP, new SecureRandom());
    Path leader = dir.resolve("leader.json");
    Files.writeString(leader, task.render().get("leader.json"), StandardCharsets.UTF_8);
    TaskDefinition t = TaskFile.read(leader).get(0);
    String db = "jdbc:sqlite:" + dir.resolve("s.db");
    try (JdbcDatastore store = JdbcDatastore.open(db)) {
      store.inTaskTransaction(t.taskId(), tx -> {
        tx.counters().add(PipelineCounters.UPLOAD_ACCEPTED, "", 7);
        tx.counters().add(PipelineCounters.UPLOAD_REJECTED, "report_too_early", 3);
        tx.counters().add(PipelineCounters.LEADER_REJECTED, "report_too_early", 2);
        tx.clientReports().insertIfAbsent(new ReportId(new byte[16]), 28_000_000L,
            ByteString.copyOf(new byte[] {1}));
        return null;
      });
    }
    CliRun text = CliRun.of("status", "--config", leader.toString(), "--db", db);
    assertEquals(0, text.code(), text.err());
    assertTrue(text.out().startsWith("task " + t.taskId().toBase64Url() + " (leader, dap-19)\n"
        + "  uploads: 7 accepted, rejected: 3 report_too_early\n"
        + "  leader aggregation: 0 counted, rejected: 2 report_too_early\n"), text.out());
    assertTrue(text.out().contains("  backlog: 1 unaggregated report(s), oldest from"
        + " 2023-03-28T10:40:00Z\n"), text.out());
    assertTrue(text.out().contains("  released: 0 batch(es)\n"), text.out());

    CliRun json = CliRun.of("status", "--config", leader.toString(), "--db", db, "--task",
        t.taskId().toBase64Url(), "--json");
    assertEquals(0, json.code(), json.err());
    JsonNode task0 = new ObjectMapper().readTree(json.out()).get("tasks").get(0);
    assertEquals(7, task0.get("uploads").get("accepted").asLong());
    assertEquals(3, task0.get("uploads").get("rejected").get("report_too_early").asLong());
    assertEquals(1, task0.get("backlog").get("unclaimed_reports").asLong());
    assertEquals("2023-03-28T10:40:00Z", task0.get("backlog").get("oldest_report").asText());

    CliRun badTask = CliRun.of("status", "--config", leader.toString(), "--db", db, "--task",
        "AAAA");
    assertTrue(badTask.failedWithOneLine("--task"), badTask.err());
    CliRun noConfig = CliRun.of("status", "--db", db);
    assertTrue(noConfig.code() != 0 && noConfig.err().contains("--config"), noConfig.err());
    CliRun help = CliRun.of("status", "--help");
    assertTrue(help.out().contains("Example:"), help.out());
  }
}
