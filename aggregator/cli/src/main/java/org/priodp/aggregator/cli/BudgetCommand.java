package org.priodp.aggregator.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.priodp.aggregator.core.BudgetStatus;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.datastore.DatastoreException;
import org.priodp.aggregator.datastore.LedgerRecord;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import org.priodp.aggregator.server.StatusJson;
import org.priodp.noise.Budget;
import org.priodp.noise.ledger.LedgerEntry;
import org.priodp.vdaf.dp.StatedGuarantee;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Prints each task's privacy ledger from the aggregator's store (issue 25, item 3; docs/PRIVACY.md
 * "Privacy over time"): the privacy unit, the cap, every release (batch, mechanism, sampler,
 * epsilon or rho per report and per unit, total variation, when drawn), the spend of the worst
 * window, what the cap leaves and what a batch starting now could still spend, and the stated
 * guarantee with its delta ({@link BudgetStatus}). Reads only, like {@code status}: beside a
 * running {@code serve}, on any replica's database, or offline.
 */
@Command(
    name = "budget",
    mixinStandardHelpOptions = true,
    description = {
      "Shows each task's privacy ledger: releases, spend and what is left.",
      "Per task of --config: the privacy unit and the budget cap; each release with its batch,"
          + " mechanism and sampler, epsilon (or rho) per report and per privacy unit, total"
          + " variation and when it was drawn; what is spent (worst window), what the cap"
          + " leaves, what a batch starting now could still spend, and the guarantee this"
          + " spend amounts to. Amounts are exact fractions.",
      "Reads only: run it beside serve, on any replica's database, or offline."},
    footer = {"%nExample:",
      "  prio-dp budget --config leader.json",
      "  prio-dp budget --config leader.json --db jdbc:postgresql://db/priodp --json"})
public final class BudgetCommand extends StoreCommand {
  private static final ObjectMapper MAPPER = new ObjectMapper()
      .enable(SerializationFeature.INDENT_OUTPUT);

  @Option(names = "--json", description = "Print JSON (the privacy_budget object of GET"
      + " /admin/status per task) instead of text.")
  boolean json;

  @Override
  public Integer call() throws IOException {
    List<TaskDefinition> chosen = tasks.select();
    Clock clock = Clock.systemUTC();
    Instant now = clock.instant();
    List<Optional<BudgetStatus>> budgets = new ArrayList<>();
    try (JdbcDatastore s = store.forTasks(tasks.file()).open("budget")) {
      for (TaskDefinition t : chosen) {
        budgets.add(BudgetStatus.read(s, t, now));
      }
    } catch (DatastoreException e) {
      throw new CliIo.Failure("budget: the store failed", e);
    }
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      List<Object> list = new ArrayList<>();
      for (int i = 0; i < chosen.size(); i++) {
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("task_id", chosen.get(i).taskId().toBase64Url());
        t.put("privacy_budget", budgets.get(i).map(StatusJson::budget).orElse(null));
        list.add(t);
      }
      Map<String, Object> doc = new LinkedHashMap<>();
      doc.put("at", now.toString());
      doc.put("tasks", list);
      try {
        out.println(MAPPER.writeValueAsString(doc));
      } catch (JsonProcessingException e) {
        throw new IllegalStateException("budget JSON", e);
      }
    } else {
      for (int i = 0; i < chosen.size(); i++) {
        print(chosen.get(i), budgets.get(i), out);
      }
    }
    out.flush();
    return 0;
  }

  /** Prints one task's ledger as indented lines. */
  static void print(TaskDefinition task, Optional<BudgetStatus> budget, PrintWriter out) {
    out.println("task " + task.taskId().toBase64Url() + " ("
        + task.role().name().toLowerCase(java.util.Locale.ROOT) + ")");
    if (budget.isEmpty()) {
      out.println("  no differential privacy: the task adds no noise, there is no ledger");
      return;
    }
    BudgetStatus b = budget.get();
    out.println("  privacy unit: " + b.unit().describe());
    out.println("  cap: " + b.capText());
    if (b.releases().isEmpty()) {
      out.println("  releases: none");
    }
    for (LedgerRecord r : b.releases()) {
      out.println("  release: " + release(r, b));
    }
    for (String line : summary(b)) {
      out.println("  " + line);
    }
  }

  /**
   * Returns one release as text: its batch (an interval as collect takes it, or a leader-selected
   * batch ID with the span of its reports), mechanism, sampler, epsilon or rho per report and per
   * unit, total variation, cost in the ledger's currency and when it was drawn.
   */
  static String release(LedgerRecord r, BudgetStatus b) {
    LedgerEntry e = r.entry();
    Budget perReport = e.perReport().perRelease();
    String name = perReport instanceof Budget.PureDp ? "epsilon" : "rho";
    String batch = e.batch().startsWith("batch ")
        ? "leader-selected " + e.batch() + " (reports from "
            + Instant.ofEpochSecond(e.span().start()) + " to "
            + Instant.ofEpochSecond(e.span().end()) + ")"
        : "interval " + e.batch();
    String tv = e.perUnit().totalVariation().signum() == 0 ? ""
        : ", total variation " + StatedGuarantee.powerOfTwo(e.perUnit().totalVariation());
    // the sampler's text names the mechanism: "fixed-work discrete Laplace with scale 4 (...)"
    return batch + ": " + r.sampler() + "; " + name + " "
        + perReport.parameter() + " per report, " + name + " "
        + e.perUnit().perRelease().parameter() + " per unit (" + e.groupSize()
        + (e.groupSize() == 1 ? " report" : " reports") + " of one unit can be in the batch)"
        + tv + (name.equals(b.measure()) ? "" : ", " + b.measure() + " " + b.cost(r))
        + "; drawn " + Instant.ofEpochSecond(e.drawnAt());
  }

  /**
   * Returns the lines that sum a ledger up: spent (worst window) and what the cap leaves, what a
   * batch starting now could still spend, and the guarantee the spend amounts to.
   */
  public static List<String> summary(BudgetStatus b) {
    List<String> lines = new ArrayList<>();
    String window = b.cap().flatMap(c -> c.windowSeconds()).isPresent() ? " (worst window)" : "";
    lines.add("spent: " + b.measure() + " " + b.spent() + window + " in "
        + b.releases().size() + (b.releases().size() == 1 ? " release" : " releases")
        + b.remaining().map(r -> "; remaining: " + r + " of " + b.cap().orElseThrow().total()
            .parameter()).orElse("; no cap"));
    b.remainingNow().ifPresent(r -> lines.add("a batch starting now could still spend: "
        + b.measure() + " " + r));
    b.statement().ifPresent(g -> lines.add("guarantee of the spend for one privacy unit: "
        + g.describe() + (g.deltaPrime().isPresent() ? " (delta' " + g.deltaPrime().get() + ")"
            : "")));
    return lines;
  }
}
