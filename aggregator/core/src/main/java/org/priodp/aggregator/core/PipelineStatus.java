package org.priodp.aggregator.core;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import org.priodp.aggregator.dap.CollectionJobId;
import org.priodp.aggregator.dap.DapVersion;
import org.priodp.aggregator.dap.Role;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.StatusRepository;
import org.priodp.aggregator.datastore.TaskCounter;

/**
 * What an operator sees of one task's pipeline at one instant (issue 24 "See the pipeline";
 * DAP-18 "Upload Request", "Leader Initialization", "Helper Initialization", "Collection Job
 * Initialization"): role and DAP version, the persisted counters ({@link PipelineCounters}), the
 * Leader's unaggregated backlog, both roles' aggregation jobs by state and error, the leases
 * held now, the pending collection jobs with why each waits, the released batches and, for a
 * task that adds noise, its privacy ledger ({@link BudgetStatus}, issue 25). Built by {@link
 * PipelineStatusService}.
 */
public record PipelineStatus(TaskId taskId, Role role, DapVersion dapVersion, long timePrecision,
    Instant at,
    List<TaskCounter> counters, StatusRepository.Backlog backlog,
    List<StatusRepository.JobGroup> leaderJobs, List<StatusRepository.JobGroup> helperJobs,
    List<StatusRepository.Lease> leases, List<PendingCollection> pendingCollections,
    StatusRepository.Releases releases, Optional<BudgetStatus> budget) {

  /** A pending collection job: its id, batch (as text), creation time and why it waits (its reason). */
  public record PendingCollection(CollectionJobId jobId, String batch, Instant createdAt,
      CollectionWait reason) {
    /** Rejects nulls. */
    public PendingCollection {
      Objects.requireNonNull(jobId, "jobId");
      Objects.requireNonNull(batch, "batch");
      Objects.requireNonNull(createdAt, "createdAt");
      Objects.requireNonNull(reason, "reason");
    }
  }

  /** Rejects nulls and copies the lists. */
  public PipelineStatus {
    Objects.requireNonNull(taskId, "taskId");
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(dapVersion, "dapVersion");
    Objects.requireNonNull(at, "at");
    if (timePrecision < 1) {
      throw new IllegalArgumentException("time_precision must be positive");
    }
    counters = List.copyOf(counters);
    Objects.requireNonNull(backlog, "backlog");
    leaderJobs = List.copyOf(leaderJobs);
    helperJobs = List.copyOf(helperJobs);
    leases = List.copyOf(leases);
    pendingCollections = List.copyOf(pendingCollections);
    Objects.requireNonNull(releases, "releases");
    Objects.requireNonNull(budget, "budget");
  }

  /** Returns when the oldest unaggregated report was made (its time_precision unit's start). */
  public Optional<Instant> oldestReport() {
    return backlog.oldestTime().map(t -> {
      try {
        return Instant.ofEpochSecond(Math.multiplyExact(t, timePrecision));
      } catch (ArithmeticException | java.time.DateTimeException e) {
        return Instant.MAX;
      }
    });
  }

  /** Returns the value of counter (name, reason), 0 if it was never incremented. */
  public long counter(String name, String reason) {
    return counters.stream().filter(c -> c.is(name, reason)).mapToLong(TaskCounter::value)
        .sum();
  }

  /** Returns the counters of {@code name} by reason (sorted), e.g. the upload rejections. */
  public Map<String, Long> byReason(String name) {
    Map<String, Long> out = new TreeMap<>();
    counters.stream().filter(c -> c.name().equals(name) && !c.reason().isEmpty())
        .forEach(c -> out.put(c.reason(), c.value()));
    return out;
  }
}
