package org.priodp.aggregator.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.dap.AggregationJobId;
import org.priodp.aggregator.dap.Role;
import org.priodp.aggregator.datastore.LeaderAggregationJob;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * Shows and repairs the Leader's aggregation jobs in its store (DAP-18 "Leader Initialization",
 * "Aggregation Job Abandonment and Deletion"): {@code list} prints the jobs that are not
 * finished (active, with their lease and next attempt, and abandoned, with why), {@code requeue}
 * puts an abandoned job's reports back into the pool so that a new job of a running {@code
 * serve} takes them.
 */
@Command(
    name = "jobs",
    mixinStandardHelpOptions = true,
    subcommands = {JobsCommand.ListJobs.class, JobsCommand.Requeue.class},
    description = {
      "Lists unfinished aggregation jobs and requeues abandoned ones.",
      "Beside a running Leader serve on the same store. A job the Helper refused for a cause"
          + " the operator can fix (unreachable, 5xx, 401/403, 404) stays active and is retried"
          + " with backoff; a job abandoned for another cause keeps its reports until requeued."},
    footer = {"%nExample:",
      "  prio-dp jobs --config leader.json --db jdbc:sqlite:priodp-leader.db list",
      "  prio-dp jobs --config leader.json --db jdbc:sqlite:priodp-leader.db requeue"
          + " --all-abandoned"})
public final class JobsCommand extends StoreCommand {

  /** Returns one line describing a Leader job for an operator. */
  static String line(LeaderAggregationJob j, Instant now) {
    StringBuilder b = new StringBuilder(j.jobId().toBase64Url()).append(' ')
        .append(j.state().dbName()).append(" reports=").append(j.reportCount())
        .append(" attempts=").append(j.leaseAttempts());
    if (j.state() == LeaderAggregationJob.State.ACTIVE) {
      Instant at = j.leaseExpires().truncatedTo(ChronoUnit.SECONDS);
      if (j.leaseOwner().isPresent() && j.leaseExpires().isAfter(now)) {
        b.append(" leased_by=").append(j.leaseOwner().get()).append(" until=").append(at);
      } else {
        b.append(" next_attempt=").append(j.leaseExpires().isAfter(now) ? at.toString() : "now");
      }
    }
    j.errorDetail().ifPresent(d -> b.append(" error=\"").append(d).append('"'));
    return b.toString();
  }

  /** What the subcommands share: the Leader tasks and the parent's store, opened around the work. */
  abstract static class Action implements Callable<Integer> {
    @ParentCommand
    JobsCommand parent;
    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public final Integer call() throws IOException {
      List<TaskDefinition> tasks = tasks();
      return parent.store.forTasks(parent.tasks.file())
          .run(spec, "jobs", (store, out) -> run(store, tasks, out));
    }

    /**
     * Returns the tasks to work on: --task's, or every Leader task of the file (requeue, without
     * --task, needs the file to have one task).
     */
    List<TaskDefinition> tasks() throws IOException {
      List<TaskDefinition> selected = parent.tasks.task != null || !allTasks()
          ? List.of(parent.tasks.one()) : parent.tasks.select();
      List<TaskDefinition> out = new ArrayList<>();
      for (TaskDefinition t : selected) {
        if (t.role() == Role.LEADER) {
          out.add(t);
        } else if (selected.size() == 1) {
          throw new IllegalArgumentException("--config: task " + t.taskId().toBase64Url()
              + " is a Helper task; aggregation jobs are the Leader's");
        }
      }
      if (out.isEmpty()) {
        throw new IllegalArgumentException("--config: " + parent.tasks.config
            + " has no Leader task");
      }
      return out;
    }

    /** Returns whether, without --task, the subcommand works on every task of the file. */
    abstract boolean allTasks();

    /** Does the work; returns the exit code. */
    abstract int run(JdbcDatastore store, List<TaskDefinition> tasks, PrintWriter out);

    int fail(String message) {
      return StoreOptions.fail(spec, "jobs", message);
    }
  }

  /** {@code jobs list}. */
  @Command(name = "list", mixinStandardHelpOptions = true,
      description = {"Lists the Leader's active and abandoned aggregation jobs, oldest first.",
        "One line per job: ID, state, reports, leases taken, the lease holder and expiry or the"
            + " next attempt, and the last error (why it waits, or why it was abandoned)."},
      footer = {"%nExample:",
        "  prio-dp jobs --config leader.json --db jdbc:sqlite:priodp-leader.db list"})
  static final class ListJobs extends Action {
    @Override
    boolean allTasks() {
      return true;
    }

    @Override
    int run(JdbcDatastore store, List<TaskDefinition> tasks, PrintWriter out) {
      Instant now = Instant.now();
      for (TaskDefinition t : tasks) {
        List<LeaderAggregationJob> jobs = store.inTaskTransaction(t.taskId(),
            tx -> tx.aggregationJobs().leaderJobs(List.of(LeaderAggregationJob.State.ACTIVE,
                LeaderAggregationJob.State.ABANDONED)));
        if (tasks.size() > 1) {
          out.println("task " + t.taskId().toBase64Url() + ": " + jobs.size() + " jobs");
        }
        for (LeaderAggregationJob j : jobs) {
          out.println(line(j, now));
        }
      }
      return 0;
    }
  }

  /** {@code jobs requeue}. */
  @Command(name = "requeue", mixinStandardHelpOptions = true,
      description = {"Puts an abandoned job's reports back into the Leader's pool.",
        "In one transaction; the job stays abandoned with a note. A running serve places the"
            + " reports in a new job; a report already aggregated is never counted twice."},
      footer = {"%nExample:",
        "  prio-dp jobs --config leader.json --db jdbc:sqlite:priodp-leader.db requeue JOB_ID",
        "  prio-dp jobs --config leader.json --db jdbc:sqlite:priodp-leader.db requeue"
            + " --all-abandoned"})
  static final class Requeue extends Action {
    @Parameters(arity = "0..1", paramLabel = "JOB_ID",
        description = "The abandoned job (base64url), as list prints it; after -- when it"
            + " starts with a dash (requeue -- -1ZNp41UR_6_Di0nKkPtow).")
    String jobId;

    @Option(names = "--all-abandoned", description = "Every abandoned job that holds reports.")
    boolean all;

    @Override
    boolean allTasks() {
      return false;
    }

    @Override
    int run(JdbcDatastore store, List<TaskDefinition> tasks, PrintWriter out) {
      if (all == (jobId != null)) {
        return fail("name one JOB_ID or --all-abandoned");
      }
      TaskDefinition t = tasks.get(0);
      List<AggregationJobId> ids = new ArrayList<>();
      if (all) {
        store.inTaskTransaction(t.taskId(), tx -> tx.aggregationJobs().leaderJobs(
            List.of(LeaderAggregationJob.State.ABANDONED))).stream()
            .filter(j -> j.reportCount() > 0).forEach(j -> ids.add(j.jobId()));
      } else {
        try {
          ids.add(AggregationJobId.fromBase64Url(jobId));
        } catch (IllegalArgumentException e) {
          return fail("JOB_ID: " + e.getMessage());
        }
      }
      int total = 0;
      for (AggregationJobId id : ids) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        Optional<Integer> n = store.inTaskTransaction(t.taskId(),
            tx -> tx.aggregationJobs().requeueAbandonedLeader(id, "requeued by the operator at "
                + now.truncatedTo(ChronoUnit.SECONDS), now));
        if (n.isEmpty()) {
          return fail("task " + t.taskId().toBase64Url() + " has no abandoned job "
              + id.toBase64Url() + " (see jobs list)");
        }
        out.println("requeued " + id.toBase64Url() + ": " + n.get() + " reports back in the pool");
        total += n.get();
      }
      if (all) {
        out.println("requeued " + ids.size() + " jobs, " + total + " reports");
      }
      return 0;
    }
  }
}
