package org.priodp.aggregator.taskfile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.priodp.aggregator.core.PrivacySettings;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.noise.Budget;
import org.priodp.noise.ledger.BudgetCap;
import org.priodp.noise.ledger.PrivacyUnit;

/** The privacy unit and budget of a task file (issue 25; docs/DAP.md "Task file"). */
class DpSettingsJsonTest {
  private static final Map<String, String> ENV = Map.of("PRIODP_EXAMPLE_TOKEN", "env-token.1");

  /** The example file with fields added to its first task (a PureDpDiscreteLaplace task). */
  private static String withFields(String fields) throws IOException {
    String ex;
    try (InputStream in = DpSettingsJsonTest.class.getResourceAsStream("/tasks.example.json")) {
      ex = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    int i = ex.indexOf('{', ex.indexOf("\"tasks\""));
    return ex.substring(0, i + 1) + fields + ", " + ex.substring(i + 1);
  }

  private static TaskDefinition first(String fields) throws IOException {
    return TaskFile.parse(withFields(fields), ENV::get).get(0);
  }

  private static String refusal(String fields) throws IOException {
    String json = withFields(fields);
    return assertThrows(IllegalArgumentException.class, () -> TaskFile.parse(json, ENV::get)).getMessage();
  }

  @Test
  void theDefaultIsOneReportWithoutABudget() throws IOException {
    TaskDefinition t = first("\"noise_sampler\": \"hardened\"");
    assertEquals(PrivacySettings.DEFAULT, t.privacy());
  }

  @Test
  void readsAClientBoundAndAWindowedBudget() throws IOException {
    TaskDefinition t = first("\"privacy_unit\": {\"type\": \"client\", \"max_reports\": 1, \"period\": \"1d\"},"
        + " \"privacy_budget\": {\"epsilon\": \"1\", \"window\": \"30d\"}");
    assertEquals(new PrivacySettings(new PrivacyUnit.ClientBound(1, 86400),
        Optional.of(BudgetCap.window(Budget.PureDp.parse("1"), 30 * 86400L))), t.privacy());
    TaskDefinition r = first("\"privacy_unit\": {\"type\": \"report\"}, \"privacy_budget\": {\"rho\": \"1/2\"}");
    assertEquals(new PrivacySettings(new PrivacyUnit.Report(),
        Optional.of(BudgetCap.life(Budget.ZCdp.parse("1/2")))), r.privacy(), "a rho cap on a Laplace task");
    TaskDefinition s = first("\"privacy_unit\": {\"type\": \"client\", \"max_reports\": 3, \"period\": 3600}");
    assertEquals(new PrivacyUnit.ClientBound(3, 3600), s.privacy().unit());
  }

  @Test
  void refusesBadSettingsNamingTheField() throws IOException {
    assertTrue(refusal("\"privacy_unit\": {\"type\": \"person\"}")
        .startsWith("tasks[0].privacy_unit.type: expected report or client"), refusal("\"privacy_unit\": {\"type\": \"person\"}"));
    assertTrue(refusal("\"privacy_unit\": {\"type\": \"client\", \"max_reports\": 0, \"period\": \"1d\"}")
        .startsWith("tasks[0].privacy_unit.max_reports: expected a whole number >= 1"));
    assertTrue(refusal("\"privacy_unit\": {\"type\": \"client\", \"max_reports\": 1}")
        .startsWith("tasks[0].privacy_unit.period: missing"));
    assertTrue(refusal("\"privacy_unit\": {\"type\": \"client\", \"max_reports\": 1, \"period\": \"1w\"}")
        .startsWith("tasks[0].privacy_unit.period: '1w' is not a duration"));
    assertTrue(refusal("\"privacy_budget\": {\"epsilon\": 1}")
        .startsWith("tasks[0].privacy_budget.epsilon: expected a string"));
    assertTrue(refusal("\"privacy_budget\": {\"epsilon\": \"1\", \"rho\": \"1\"}")
        .startsWith("tasks[0].privacy_budget: give exactly one of"));
    assertTrue(refusal("\"privacy_budget\": {\"epsilon\": \"-1\"}")
        .startsWith("tasks[0].privacy_budget.epsilon: epsilon must be > 0"), refusal("\"privacy_budget\": {\"epsilon\": \"-1\"}"));
    assertTrue(refusal("\"privacy_budget\": {\"epsilon\": \"1\", \"window\": \"0d\"}")
        .startsWith("tasks[0].privacy_budget.window"));
    assertTrue(refusal("\"privacy_budget\": {\"epsilon\": \"1\", \"days\": 3}")
        .startsWith("tasks[0].privacy_budget.days: unknown field"));
  }
}
