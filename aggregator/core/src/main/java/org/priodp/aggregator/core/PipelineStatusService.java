package org.priodp.aggregator.core;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.priodp.aggregator.dap.BatchSelector;
import org.priodp.aggregator.dap.Interval;
import org.priodp.aggregator.dap.Role;
import org.priodp.aggregator.datastore.CollectionJobRecord;
import org.priodp.aggregator.datastore.Datastore;

/**
 * Builds the {@link PipelineStatus} of a task from the store (issue 24 "See the pipeline"): the
 * counters, backlog, jobs, leases and releases are read in one task transaction, so they are
 * one consistent picture; then each pending collection job of a Leader task gets its reason
 * from {@link CollectionJobService#whyWaiting}. Reads only, so any replica or an offline CLI may
 * run it. Thread-safe.
 */
public final class PipelineStatusService {
  private final Datastore store;
  private final CollectionJobService collections;
  private final Clock clock;

  /** Creates the service over the store and the clock the pipeline runs by. */
  public PipelineStatusService(Datastore store, Clock clock) {
    this.store = Objects.requireNonNull(store, "store");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.collections = CollectionJobService.forOperator(store, clock);
  }

  /** Returns the status of each task, in order. */
  public List<PipelineStatus> status(List<TaskDefinition> tasks) {
    List<PipelineStatus> out = new ArrayList<>(tasks.size());
    for (TaskDefinition t : tasks) {
      out.add(status(t));
    }
    return out;
  }

  /** Returns the task's status now. */
  public PipelineStatus status(TaskDefinition task) {
    Instant now = clock.instant();
    PipelineStatus read = store.inTaskTransaction(task.taskId(), tx -> new PipelineStatus(
        task.taskId(), task.role(), task.dapVersion(), task.configuration().timePrecision(),
        now, tx.counters().all(),
        tx.status().backlog(now), tx.status().leaderJobs(), tx.status().helperJobs(),
        tx.status().leases(now), List.of(), tx.status().releases(),
        task.addsNoise() ? Optional.of(BudgetStatus.read(tx, task, now))
            : Optional.empty()));
    if (task.role() != Role.LEADER) {
      return read;
    }
    List<PipelineStatus.PendingCollection> pending = new ArrayList<>();
    for (CollectionJobRecord j : collections.jobs(task.taskId(),
        EnumSet.of(CollectionJobRecord.State.PENDING))) {
      collections.whyWaiting(task, j).ifPresent(w -> pending.add(
          new PipelineStatus.PendingCollection(j.jobId(),
              batchText(j, task.configuration().timePrecision()), j.createdAt(), w)));
    }
    return new PipelineStatus(read.taskId(), read.role(), read.dapVersion(),
        read.timePrecision(), read.at(),
        read.counters(), read.backlog(), read.leaderJobs(), read.helperJobs(), read.leases(),
        pending, read.releases(), read.budget());
  }

  /**
   * Returns a collection job's batch as text: its interval as {@code collect --interval} takes it
   * ({@code START/DURATION}, RFC 3339 and seconds, for a task of {@code timePrecision} seconds), a
   * batch ID or "not chosen yet".
   */
  public static String batchText(CollectionJobRecord j, long timePrecision) {
    if (j.batch().equals(CollectionJobService.UNCHOSEN)) {
      return "leader-selected, not chosen yet";
    }
    BatchSelector s = BatchSelector.decode(j.batch().bytes());
    if (s instanceof BatchSelector.TimeInterval t) {
      Interval i = t.batchInterval();
      java.math.BigInteger p = java.math.BigInteger.valueOf(timePrecision);
      java.math.BigInteger start = new java.math.BigInteger(
          Long.toUnsignedString(i.start().value())).multiply(p);
      java.math.BigInteger length = new java.math.BigInteger(
          Long.toUnsignedString(i.duration().value())).multiply(p);
      String from = start.bitLength() < 40 ? Instant.ofEpochSecond(start.longValue()).toString()
          : start.toString();
      return "interval " + from + "/" + length;
    }
    return s instanceof BatchSelector.LeaderSelected l
        ? "leader-selected batch " + l.batchId().toBase64Url() : s.toString();
  }
}
