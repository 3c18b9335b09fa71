package org.priodp.aggregator.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.priodp.aggregator.core.PipelineCounters;
import org.priodp.aggregator.core.PipelineStatus;
import org.priodp.aggregator.core.PipelineStatusService;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.datastore.DatastoreException;
import org.priodp.aggregator.datastore.StatusRepository;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import org.priodp.aggregator.server.StatusJson;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Prints the pipeline status of an aggregator's tasks from its store (issue 24 "See the
 * pipeline"; DAP-18 "Leader Initialization", "Collection Job Initialization"): what {@link
 * PipelineStatusService} reads, as text or as the JSON of {@code GET /admin/status}. It only
 * reads, so it runs beside a running {@code serve}, on any replica's database, or offline.
 */
@Command(
    name = "status",
    mixinStandardHelpOptions = true,
    description = {
      "Shows what the store says about each task's pipeline.",
      "Per task of --config: role and DAP version; uploads accepted and rejected by reason; reports each side counted"
          + " and rejected by reason; the unaggregated backlog, its oldest report and the"
          + " reports waiting for a retry; aggregation jobs by state with their errors; the"
          + " leases held now and by whom; pending collection jobs and why each waits; released"
          + " batches; the privacy budget spent and left (prio-dp budget has the releases).",
      "Reads only: run it beside serve, on any replica's database, or offline."},
    footer = {"%nExample:",
      "  prio-dp status --config leader.json --db jdbc:sqlite:priodp-leader.db",
      "  prio-dp status --config leader.json --db jdbc:postgresql://db/priodp --json"})
public final class StatusCommand extends StoreCommand {
  @Option(names = "--json", description = "Print the JSON of GET /admin/status instead of text.")
  boolean json;

  @Override
  public Integer call() throws IOException {
    List<TaskDefinition> chosen = tasks.select();
    Clock clock = Clock.systemUTC();
    List<PipelineStatus> statuses;
    try (JdbcDatastore s = store.forTasks(tasks.file()).open("status")) {
      statuses = new PipelineStatusService(s, clock).status(chosen);
    } catch (DatastoreException e) {
      throw new CliIo.Failure("status: the store failed", e);
    }
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      out.println(StatusJson.of(clock.instant(), statuses));
    } else {
      for (PipelineStatus st : statuses) {
        print(st, out);
      }
    }
    out.flush();
    return 0;
  }

  /** Prints one task's status as indented lines. */
  static void print(PipelineStatus s, PrintWriter out) {
    out.println("task " + s.taskId().toBase64Url() + " (" + s.role().name()
        .toLowerCase(Locale.ROOT) + ", " + s.dapVersion().tag() + ")");
    out.println("  uploads: " + s.counter(PipelineCounters.UPLOAD_ACCEPTED, "") + " accepted"
        + rejected(s.byReason(PipelineCounters.UPLOAD_REJECTED)));
    out.println("  leader aggregation: " + s.counter(PipelineCounters.LEADER_COUNTED, "")
        + " counted" + rejected(s.byReason(PipelineCounters.LEADER_REJECTED)));
    out.println("  helper aggregation: " + s.counter(PipelineCounters.HELPER_COUNTED, "")
        + " counted" + rejected(s.byReason(PipelineCounters.HELPER_REJECTED)));
    StatusRepository.Backlog b = s.backlog();
    out.println("  backlog: " + b.unclaimed() + " unaggregated report(s)"
        + s.oldestReport().map(t -> ", oldest from " + t).orElse("")
        + (b.waitingForRetry() == 0 ? "" : ", " + b.waitingForRetry()
            + " waiting for a retry" + b.nextRetry().map(t -> " (next at " + t + ")")
            .orElse("")));
    jobs("  aggregation jobs (leader): ", s.leaderJobs(), out);
    jobs("  aggregation jobs (helper): ", s.helperJobs(), out);
    if (s.leases().isEmpty()) {
      out.println("  leases: none");
    }
    for (StatusRepository.Lease l : s.leases()) {
      out.println("  lease: " + l.kind() + " job " + l.jobId() + " held by " + l.owner()
          + " until " + l.expires() + " (attempt " + l.attempts() + ")");
    }
    if (s.pendingCollections().isEmpty()) {
      out.println("  pending collection jobs: none");
    }
    for (PipelineStatus.PendingCollection p : s.pendingCollections()) {
      out.println("  pending collection job " + p.jobId().toBase64Url() + " (" + p.batch()
          + ", since " + p.createdAt() + "): waiting: " + p.reason().describe());
    }
    out.println("  released: " + s.releases().batches() + " batch(es)"
        + s.releases().last().map(t -> ", last at " + t).orElse(""));
    s.budget().ifPresent(budget -> {
      out.println("  privacy budget: " + budget.capText() + " (unit: "
          + budget.unit().describe() + "; prio-dp budget lists the releases)");
      BudgetCommand.summary(budget).forEach(l -> out.println("    " + l));
    });
  }

  private static String rejected(Map<String, Long> byReason) {
    if (byReason.isEmpty()) {
      return ", none rejected";
    }
    return ", rejected: " + byReason.entrySet().stream()
        .map(e -> e.getValue() + " " + e.getKey()).collect(Collectors.joining(", "));
  }

  private static void jobs(String head, List<StatusRepository.JobGroup> groups,
      PrintWriter out) {
    if (groups.isEmpty()) {
      out.println(head + "none");
      return;
    }
    out.println(head + groups.stream().map(g -> g.count() + " " + g.state()
        + g.error().map(e -> " (" + e + ")").orElse("")).collect(Collectors.joining(", ")));
  }
}
