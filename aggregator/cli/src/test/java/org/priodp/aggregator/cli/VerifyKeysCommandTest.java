package org.priodp.aggregator.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.dap.BatchMode;
import org.priodp.aggregator.dap.DapVersion;
import org.priodp.aggregator.provision.ProvisionedTask;
import org.priodp.vdaf.Prio3Variant;
import org.priodp.vdaf.dp.DpStrategy;
import org.priodp.vdaf.dp.SensitivityRule;

/** {@code ./prio-dp verify-keys list|add|retire} on a real SQLite store and a task file. */
class VerifyKeysCommandTest {
  @TempDir
  Path dir;

  @Test
  void addListAndRetireAKeyBesideTheTaskFilesKey() throws Exception {
    Prio3Variant v = new Prio3Variant.Count();
    ProvisionedTask task = ProvisionedTask.generate(DapVersion.DAP_19,
        TaskDefinition.configurationFor(v, new byte[0], "https://l.example/", "https://h.example/",
            60, 1, BatchMode.TIME_INTERVAL, List.of()), v, new DpStrategy.NoDifferentialPrivacy(),
        SensitivityRule.PRIODP, new SecureRandom());
    Path leader = dir.resolve("leader.json");
    Files.writeString(leader, task.render().get("leader.json"), StandardCharsets.UTF_8);
    String db = "jdbc:sqlite:" + dir.resolve("v.db");
    String[] base = {"verify-keys", "--config", leader.toString(), "--db", db};

    CliRun list = CliRun.of(concat(base, "list"));
    assertEquals(0, list.code(), list.err());
    assertTrue(list.out().startsWith("0 active created="), "the task file's key: " + list.out());
    CliRun add = CliRun.of(concat(base, "add", "--id", "1"));
    assertEquals(0, add.code(), add.err());
    assertTrue(add.out().startsWith("added 1 key="), add.out());
    String key = add.out().strip().substring("added 1 key=".length());
    assertEquals(43, key.length(), "32 bytes in base64url");
    CliRun twice = CliRun.of(concat(base, "add", "--id", "1", "--key", key));
    assertTrue(twice.failedWithOneLine("already has a key with id 1"), twice.err());
    CliRun retire = CliRun.of(concat(base, "retire", "0"));
    assertEquals(0, retire.code(), retire.err());
    assertEquals("retired 0", retire.out().strip());
    List<String> lines = CliRun.of(concat(base, "list")).out().lines().toList();
    assertEquals(2, lines.size(), lines.toString());
    assertTrue(lines.get(0).startsWith("0 retired "), lines.toString());
    assertTrue(lines.get(1).startsWith("1 active "), lines.toString());
    assertTrue(lines.stream().noneMatch(l -> l.contains(key)), "list never shows a key");

    assertTrue(CliRun.of(concat(base, "retire", "7")).failedWithOneLine("no key with id 7"));
    assertTrue(CliRun.of(concat(base, "add", "--id", "2", "--key", "abc"))
        .failedWithOneLine("--key: 2 bytes, Prio3 needs 32"));
    assertTrue(CliRun.of(concat(base, "add", "--id", "300")).failedWithOneLine("--id: 300"));
    CliRun help = CliRun.of("verify-keys", "--help");
    assertEquals(0, help.code());
    assertTrue(help.out().contains("Example:"), help.out());
  }

  private static String[] concat(String[] a, String... b) {
    String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
