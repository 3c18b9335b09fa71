package org.priodp.aggregator.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.EnumSet;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.priodp.aggregator.core.CollectionJobService;
import org.priodp.aggregator.core.CollectionWait;
import org.priodp.aggregator.core.TaskDefinition;
import org.priodp.aggregator.dap.CollectionJobId;
import org.priodp.aggregator.dap.Role;
import org.priodp.aggregator.datastore.CollectionJobRecord;
import org.priodp.aggregator.datastore.DatastoreException;
import org.priodp.aggregator.datastore.jdbc.JdbcDatastore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * Lists and deletes a Leader task's collection jobs in its store (issue 24 "Repair the
 * pipeline"; DAP-18 "Collection Job Deletion"): {@code delete} has the effect of the Collector's
 * DELETE on the job, in one task transaction, so a job that cannot fill no longer blocks the
 * intervals it overlaps (batchOverlap). Runs beside a running {@code serve}.
 */
@Command(
    name = "collection-jobs",
    mixinStandardHelpOptions = true,
    subcommands = {CollectionJobsCommand.ListJobs.class, CollectionJobsCommand.DeleteJob.class},
    description = {
      "Lists and deletes a Leader task's collection jobs beside serve.",
      "A pending job blocks every overlapping batch interval (batchOverlap) until it is ready"
          + " or deleted; delete does what the Collector's DELETE does: the released shares"
          + " stay, the interval is free for a new collection job."},
    footer = {"%nExample:",
      "  prio-dp collection-jobs --config leader.json --db jdbc:sqlite:priodp-leader.db list",
      "  prio-dp collection-jobs --config leader.json --db jdbc:sqlite:priodp-leader.db"
          + " delete Vz8Xr0c6mC3RAfZkxJxV3g"})
public final class CollectionJobsCommand extends StoreCommand {

  /** What the subcommands share: the Leader task and the store, opened around the work. */
  abstract static class Action implements Callable<Integer> {
    @ParentCommand
    CollectionJobsCommand parent;
    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public final Integer call() throws IOException {
      TaskDefinition task = parent.tasks.one();
      if (task.role() != Role.LEADER) {
        throw new IllegalArgumentException("--config: task " + task.taskId().toBase64Url()
            + " of " + parent.tasks.config + " is a Helper task; collection jobs are the Leader's");
      }
      try (JdbcDatastore store =
          parent.store.forTasks(parent.tasks.file()).open("collection-jobs")) {
        PrintWriter out = spec.commandLine().getOut();
        int code = run(CollectionJobService.forOperator(store, Clock.systemUTC()), task, out);
        out.flush();
        return code;
      } catch (DatastoreException e) {
        throw new CliIo.Failure("collection-jobs " + spec.name() + ": the store failed", e);
      }
    }

    abstract int run(CollectionJobService jobs, TaskDefinition task, PrintWriter out);
  }

  /** {@code collection-jobs list}. */
  @Command(name = "list", mixinStandardHelpOptions = true,
      description = {"Lists the task's collection jobs, oldest first.",
        "One line per job: id, state, batch, created, and why a pending one waits."},
      footer = {"%nExample:",
        "  prio-dp collection-jobs --config leader.json --db jdbc:sqlite:priodp-leader.db list"})
  static final class ListJobs extends Action {
    @Option(names = "--all", description = "Also the deleted jobs.")
    boolean all;

    @Override
    int run(CollectionJobService jobs, TaskDefinition task, PrintWriter out) {
      EnumSet<CollectionJobRecord.State> states = all
          ? EnumSet.allOf(CollectionJobRecord.State.class)
          : EnumSet.complementOf(EnumSet.of(CollectionJobRecord.State.DELETED));
      for (CollectionJobRecord j : jobs.jobs(task.taskId(), states)) {
        Optional<CollectionWait> why = jobs.whyWaiting(task, j);
        out.println(j.jobId().toBase64Url() + " " + j.state().dbName() + " "
            + org.priodp.aggregator.core.PipelineStatusService.batchText(j,
                task.configuration().timePrecision()) + " created="
            + j.createdAt() + why.map(w -> " waiting: " + w.describe()).orElse("")
            + j.errorType().map(e -> " error=" + e).orElse("")
            + j.errorDetail().map(d -> " (" + d + ")").orElse(""));
      }
      return 0;
    }
  }

  /** {@code collection-jobs delete JOB_ID}. */
  @Command(name = "delete", mixinStandardHelpOptions = true,
      description = {"Deletes a collection job as the Collector's DELETE does.",
        "Its batch interval no longer blocks new collection jobs; released shares stay."},
      footer = {"%nExample:",
        "  prio-dp collection-jobs --config leader.json --db jdbc:sqlite:priodp-leader.db"
            + " delete Vz8Xr0c6mC3RAfZkxJxV3g"})
  static final class DeleteJob extends Action {
    @Parameters(paramLabel = "JOB_ID", description = "The collection job ID (base64url; one"
        + " that starts with '-' needs '--' before it).")
    String jobId;

    @Override
    int run(CollectionJobService jobs, TaskDefinition task, PrintWriter out) {
      CollectionJobId id;
      try {
        id = CollectionJobId.fromBase64Url(jobId.strip());
      } catch (IllegalArgumentException e) {
        spec.commandLine().getErr().println("collection-jobs delete: JOB_ID: " + e.getMessage());
        spec.commandLine().getErr().flush();
        return 2;
      }
      if (!jobs.delete(task.taskId(), id)) {
        spec.commandLine().getErr().println("collection-jobs delete: task "
            + task.taskId().toBase64Url() + " has no collection job " + jobId
            + " (or it is already deleted); see collection-jobs list");
        spec.commandLine().getErr().flush();
        return 1;
      }
      out.println("deleted collection job " + id.toBase64Url()
          + "; its batch interval is free for a new collection job");
      return 0;
    }
  }
}
