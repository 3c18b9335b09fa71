package org.priodp.aggregator.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.priodp.aggregator.dap.AggregationJobExtension;
import org.priodp.aggregator.dap.AggregationJobId;
import org.priodp.aggregator.dap.AggregationJobInitReq;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.ReportId;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.dap.VerifyInit;
import org.priodp.aggregator.datastore.AggregationJobRepository;
import org.priodp.aggregator.datastore.Datastore;
import org.priodp.aggregator.datastore.LeaderAggregationJob;
import org.priodp.aggregator.datastore.VdafVerifyKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Leader aggregation job's AggregationJobInitReq and its reports in the request's order
 * (DAP-19 "Leader Initialization", "Resource Creation"): the Helper answers a byte-identical
 * request from its stored job, so the order of a job's reports is fixed at its first attempt, and
 * chosen so that no earlier job of the task sent the same bytes. Immutable.
 *
 * @param req the request the job sends at every attempt
 * @param order the job's reports, in the order of {@code req}'s VerifyInits
 */
record LeaderJobRequest(AggregationJobInitReq req, List<LeaderReports.Initialized> order) {
  private static final Logger LOG = LoggerFactory.getLogger(LeaderAggregationDriver.class);

  /** How many order salts a job tries before its reports wait for company. */
  static final int ORDER_SALTS = 32;

  /**
   * Returns the request the job sends (DAP-19 "Leader Initialization", "Resource Creation"): its
   * reports ordered by SHA-256(job ID || order salt || report ID) under the order salt fixed at
   * its first attempt, so that every attempt sends identical bytes; at the first attempt, the
   * smallest salt below {@link #ORDER_SALTS} whose request no earlier job of the task sent (the
   * Helper answers an identical request from the earlier job: reports re-placed after
   * report_too_early would get report_too_early again forever), fixed with the request's SHA-256
   * in one transaction that checks the lease. Empty if every salt gives a request already sent
   * (a lone report placed before, or a pair placed twice).
   */
  static Optional<LeaderJobRequest> fix(Datastore store, TaskDefinition task,
      LeaderAggregationJob job,
      ByteString token, VdafVerifyKey key, List<AggregationJobExtension> extensions,
      List<LeaderReports.Initialized> initialized, List<VerifyInit> inits) {
    TaskId taskId = task.taskId();
    Optional<AggregationJobRepository.LeaderRequest> stored = store.inTaskTransaction(taskId,
        tx -> tx.aggregationJobs().leaderRequest(job.jobId()));
    if (stored.isPresent()
        && stored.get().orderSalt() == AggregationJobRepository.LeaderRequest.LEGACY_ORDER) {
      // active when migration 12 ran: it may have sent this order (report time, then ID) before
      return Optional.of(new LeaderJobRequest(new AggregationJobInitReq(key.id(), new byte[0], extensions,
          inits), List.copyOf(initialized)));
    }
    if (stored.isPresent()) {
      LeaderJobRequest r = ordered(job, key, extensions, initialized, inits, stored.get().orderSalt());
      if (!digest(r.req()).equals(stored.get().digest())) {
        LOG.warn("aggregation job {} of task {}: its request differs from its first attempt's"
            + " (reports left it meanwhile: a batch released, retention); the Helper sees a new"
            + " job", job.jobId().toBase64Url(), taskId.toBase64Url());
      }
      return Optional.of(r);
    }
    for (int salt = 0; salt < ORDER_SALTS; salt++) {
      LeaderJobRequest r = ordered(job, key, extensions, initialized, inits, salt);
      AggregationJobRepository.LeaderRequest fixed =
          new AggregationJobRepository.LeaderRequest(salt, digest(r.req()));
      boolean fresh = store.inTaskTransaction(taskId, tx -> {
        Optional<LeaderAggregationJob> now = tx.aggregationJobs().leader(job.jobId());
        if (now.isEmpty() || !now.get().leasedWith(token)) {
          throw new LeaseLost();
        }
        if (tx.aggregationJobs().leaderRequestSent(fixed.digest())) {
          return false;
        }
        tx.aggregationJobs().setLeaderRequest(job.jobId(), fixed);
        return true;
      });
      if (fresh) {
        return Optional.of(r);
      }
    }
    return Optional.empty();
  }

  /** Returns the request with the reports in the order {@code salt} gives them in this job. */
  private static LeaderJobRequest ordered(LeaderAggregationJob job, VdafVerifyKey key,
      List<AggregationJobExtension> extensions, List<LeaderReports.Initialized> initialized,
      List<VerifyInit> inits, int salt) {
    byte[][] sortKeys = new byte[initialized.size()][];
    Integer[] order = new Integer[initialized.size()];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
      java.nio.ByteBuffer in = java.nio.ByteBuffer.allocate(
          AggregationJobId.LENGTH + 4 + ReportId.LENGTH);
      in.put(job.jobId().bytes()).putInt(salt).put(initialized.get(i).reportId().bytes());
      sortKeys[i] = NoisedShareService.sha256(in.array());
    }
    java.util.Arrays.sort(order, (a, b) -> java.util.Arrays.compareUnsigned(sortKeys[a],
        sortKeys[b]));
    List<LeaderReports.Initialized> reports = new ArrayList<>(order.length);
    List<VerifyInit> verifyInits = new ArrayList<>(order.length);
    for (int i : order) {
      reports.add(initialized.get(i));
      verifyInits.add(inits.get(i));
    }
    return new LeaderJobRequest(new AggregationJobInitReq(key.id(), new byte[0], extensions, verifyInits),
        List.copyOf(reports));
  }

  /** Returns the SHA-256 of the encoded request. */
  private static ByteString digest(AggregationJobInitReq req) {
    return AggregationJobService.digest(req.encode());
  }

  /**
   * Returns the job's VDAF verification key: the one chosen at its first attempt (stored with the
   * job), so that every attempt sends the identical request, or, at the first attempt, {@link
   * VdafVerifyKeys#choose}'s choice, stored before anything is sent (DAP-19 "Leader
   * Initialization"). Empty if the task has no active key; throws LeaseLost if the lease is gone.
   */
  static Optional<VdafVerifyKey> key(Datastore store, VdafVerifyKeys verifyKeys,
      TaskDefinition task, LeaderAggregationJob job, ByteString token) {
    List<VdafVerifyKey> keys = verifyKeys.all(task);
    Optional<Integer> stored = store.inTaskTransaction(task.taskId(),
        tx -> tx.aggregationJobs().leaderVerificationKeyId(job.jobId()));
    if (stored.isPresent()) {
      // the same key, even if retired since: the Helper answers a repeat from its stored job
      return keys.stream().filter(k -> k.id() == stored.get()).findFirst();
    }
    Optional<VdafVerifyKey> chosen = verifyKeys.choose(task);
    if (chosen.isPresent()) {
      store.inTaskTransaction(task.taskId(), tx -> {
        Optional<LeaderAggregationJob> now = tx.aggregationJobs().leader(job.jobId());
        if (now.isEmpty() || !now.get().leasedWith(token)) {
          throw new LeaseLost();
        }
        tx.aggregationJobs().setLeaderVerificationKeyId(job.jobId(), chosen.get().id());
        return null;
      });
    }
    return chosen;
  }
}
