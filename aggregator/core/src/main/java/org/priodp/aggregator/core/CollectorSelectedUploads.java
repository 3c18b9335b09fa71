package org.priodp.aggregator.core;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.priodp.aggregator.dap.BatchMode;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.CollectionJobId;
import org.priodp.aggregator.dap.CollectionJobReq;
import org.priodp.aggregator.dap.DapError;
import org.priodp.aggregator.dap.Report;
import org.priodp.aggregator.dap.ReportError;
import org.priodp.aggregator.dap.ReportId;
import org.priodp.aggregator.datastore.CollectionJobRecord;
import org.priodp.aggregator.datastore.CollectorBatch;
import org.priodp.aggregator.datastore.Datastore;
import org.priodp.aggregator.datastore.TaskTransaction;
import org.priodp.aggregator.task.MicroEpsilon;

/**
 * The Leader's uploads of the collector_selected batch mode (draft-ietf-ppm-dap-attribution-00
 * section 4 and 4.1), for {@link UploadService}: the plain upload resource refuses a
 * collector-selected task as a whole ("MUST reject"; invalidMessage, naming the right URL), and a
 * report uploaded to {@code {leader}/tasks/{task-id}/reports/{collection-job-id}} goes into that
 * job's batch.
 *
 * <p>The Leader accepts nothing before the job exists (the draft's MUST-limit on reports held
 * before the job is met by holding none): an unknown or deleted job is refused as a whole with
 * {@link ProblemType#UNKNOWN_COLLECTION_JOB} (404; the route adds Retry-After). Otherwise, in ONE
 * task transaction (serialized per task across processes), which also reads whether the batch is
 * closed ({@link CollectorSelectedBatches}): a closed batch refuses every report with {@code
 * batch_collected}; a job with min_dp_budget refuses a report whose privacy_budget is absent or
 * lower ({@code report_dropped}) or malformed ({@code invalid_message}) ({@link ReportBudgets},
 * draft section 5); a time below the retention cutoff is {@code report_dropped}; otherwise the
 * report is stored with the batch if its ID is new to the task. Report IDs are unique per task,
 * so a report uploaded to two jobs is stored and counted once: the second job gets {@code
 * report_replayed}; the byte-identical report uploaded again to the same job (a retried upload)
 * is accepted again without a second row, as the plain upload does.
 */
final class CollectorSelectedUploads {
  private CollectorSelectedUploads() {
  }

  /** Refuses a plain upload (DAP-19 "Uploading Reports") to a collector-selected task. */
  static void refusePlainUpload(TaskDefinition task) {
    if (task.configuration().batchMode() == BatchMode.COLLECTOR_SELECTED) {
      throw Refusal.of(DapError.INVALID_MESSAGE, task.taskId(), "the task uses the"
          + " collector_selected batch mode: reports are uploaded to"
          + " tasks/{task-id}/reports/{collection-job-id} of the collection job they belong to"
          + " (draft-ietf-ppm-dap-attribution-00 section 4.1), not to tasks/{task-id}/reports");
    }
  }

  /** Refuses an upload to a collection job for a task that is not collector-selected. */
  static void checkTask(TaskDefinition task, CollectionJobId jobId) {
    if (task.configuration().batchMode() != BatchMode.COLLECTOR_SELECTED) {
      throw Refusal.of(ProblemType.UNKNOWN_COLLECTION_JOB, task.taskId(), "the task uses the "
          + task.configuration().batchMode().specName() + " batch mode: reports are uploaded to"
          + " tasks/{task-id}/reports, a collection job (here " + jobId.toBase64Url()
          + ") takes uploads only in the collector_selected batch mode");
    }
  }

  /** Runs the task transaction of an upload to the job, as the class comment says. */
  static void commit(Datastore store, TaskDefinition task, CollectionJobId jobId,
      List<Report> reports, ReportError[] errors, boolean[] stored) {
    var codes = task.attribution().codePoints();
    store.inTaskTransaction(task.taskId(), tx -> {
      Optional<CollectionJobRecord> job = tx.collectionJobs().get(jobId)
          .filter(j -> j.state() != CollectionJobRecord.State.DELETED);
      Optional<CollectorBatch> batch = job.isEmpty() ? Optional.empty()
          : tx.collectorBatches().get(jobId);
      if (batch.isEmpty()) {
        throw Refusal.of(ProblemType.UNKNOWN_COLLECTION_JOB, task.taskId(), "collection job "
            + jobId.toBase64Url() + " does not exist (yet): the Leader accepts reports only"
            + " for a collection job it has created; create it first, or retry later");
      }
      Optional<MicroEpsilon> min = ReportBudgets.minDpBudget(codes, CollectionJobReq.decode(
          job.get().request().toByteArray(), codes.collectorSelected()).extensions());
      Optional<Long> cutoff = tx.retention().cutoff();
      long accepted = 0;
      for (int i = 0; i < reports.size(); i++) {
        if (errors[i] == null) {
          Decided d = decide(tx, task, batch.get(), min, cutoff, reports.get(i));
          errors[i] = d.error();
          stored[i] = d.stored();
          accepted += stored[i] ? 1 : 0;
        }
      }
      Map<ReportError, Long> rejected = new EnumMap<>(ReportError.class);
      for (ReportError e : errors) {
        if (e != null) {
          rejected.merge(e, 1L, Long::sum);
        }
      }
      PipelineCounters.add(tx, PipelineCounters.UPLOAD_ACCEPTED, accepted,
          PipelineCounters.UPLOAD_REJECTED, rejected);
      return null;
    });
  }

  /** One report's outcome: refused with {@code error} (else null), or accepted, stored or not. */
  private record Decided(ReportError error, boolean stored) {
    static Decided refused(ReportError error) {
      return new Decided(error, false);
    }
  }

  /** The per-report rules and the insert. */
  private static Decided decide(TaskTransaction tx, TaskDefinition task,
      CollectorBatch batch, Optional<MicroEpsilon> min, Optional<Long> cutoff, Report r) {
    if (batch.closed()) {
      return Decided.refused(ReportError.BATCH_COLLECTED);
    }
    if (min.isPresent()) {
      Optional<ReportError> e = ReportBudgets.admit(ReportBudgets.stated(
          task.attribution().codePoints(), r.reportMetadata().publicExtensions()), min.get());
      if (e.isPresent()) {
        return Decided.refused(e.get());
      }
    }
    long time = r.reportMetadata().time().value();
    if (cutoff.isPresent() && Long.compareUnsigned(time, cutoff.get()) < 0) {
      return Decided.refused(ReportError.REPORT_DROPPED);
    }
    ReportId id = r.reportMetadata().reportId();
    ByteString encoded = ByteString.copyOf(r.encode());
    if (tx.collectorBatches().insertIfAbsent(batch.jobId(), batch.batch(), id, time, encoded)) {
      return new Decided(null, true);
    }
    // the ID is taken: the same report again in the same batch is accepted (a retried upload),
    // anything else is a replay (another job's batch, a plain upload, or different bytes)
    boolean same = tx.collectorBatches().batchOf(id).filter(batch.batch()::equals).isPresent()
        && tx.clientReports().get(id).map(encoded::equals).orElse(false);
    return same ? new Decided(null, false) : Decided.refused(ReportError.REPORT_REPLAYED);
  }
}
