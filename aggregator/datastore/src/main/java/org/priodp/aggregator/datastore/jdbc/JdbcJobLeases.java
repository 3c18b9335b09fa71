package org.priodp.aggregator.datastore.jdbc;

import java.security.SecureRandom;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.priodp.aggregator.dap.AggregationJobId;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.CollectionJobLease;
import org.priodp.aggregator.datastore.CollectionJobRecord;
import org.priodp.aggregator.datastore.JobLeaseRepository;
import org.priodp.aggregator.datastore.LeaderAggregationJob;
import org.priodp.aggregator.datastore.LeaseTakeover;
import org.priodp.aggregator.datastore.LeasedAggregationJob;
import org.priodp.aggregator.datastore.jdbc.internal.SqlDialect;

/**
 * The {@link JobLeaseRepository} of the JDBC datastore (DAP-18 "Distributed Systems and
 * Synchronization Concerns"): the lease columns of {@code
 * leader_aggregation_jobs} and {@code collection_jobs}, taken in a transaction whose SELECT the
 * dialect makes skip rows another lease is taking, and given back by token-checked statements.
 */
final class JdbcJobLeases implements JobLeaseRepository {
  private static final SecureRandom LEASE_TOKENS = new SecureRandom();
  private static final String ACTIVE = LeaderAggregationJob.State.ACTIVE.dbName();
  private static final String PENDING = CollectionJobRecord.State.PENDING.dbName();
  /** The width of the lease_owner columns. */
  private static final int MAX_OWNER = 128;

  private final TransactionTemplate template;
  private final SqlDialect dialect;

  JdbcJobLeases(TransactionTemplate template, SqlDialect dialect) {
    this.template = template;
    this.dialect = dialect;
  }

  @Override
  public Optional<LeasedAggregationJob> takeAggregationJob(Collection<TaskId> tasks,
      String owner, ByteString token, Instant now, Duration lease) {
    String name = ownerName(owner);
    Objects.requireNonNull(token, "token");
    if (tasks.isEmpty()) {
      return Optional.empty();
    }
    String select = dialect.skipLocked("SELECT " + JdbcAggregationJobs.LEADER_COLUMNS
        + " FROM leader_aggregation_jobs WHERE state = ? AND lease_expires_ms <= ?"
        + " AND task_id IN (" + Sql.marks(tasks.size()) + ")"
        + " ORDER BY created_at_ms, job_id LIMIT 1");
    List<Object> params = new ArrayList<>(List.of(ACTIVE, now.toEpochMilli()));
    for (TaskId t : tasks) {
      params.add(t.bytes());
    }
    long expires = now.plus(lease).toEpochMilli();
    return template.inTransaction("leaseLeaderAggregationJob", null, c -> {
      Optional<LeaderAggregationJob> found = Sql.queryOne(c, select,
          JdbcAggregationJobs::leaderRow, params.toArray());
      if (found.isEmpty()) {
        return Optional.<LeasedAggregationJob>empty();
      }
      LeaderAggregationJob j = found.get();
      Sql.update(c, "UPDATE leader_aggregation_jobs SET"
          + " lease_owner = ?, lease_token = ?, lease_expires_ms = ?,"
          + " lease_attempts = lease_attempts + 1, updated_at_ms = ?"
          + " WHERE task_id = ? AND job_id = ?", name, token.toByteArray(), expires,
          now.toEpochMilli(), j.taskId().bytes(), j.jobId().bytes());
      // an owner left on a due row: its lease expired without being given back
      Optional<LeaseTakeover> takeover = j.leaseOwner()
          .map(o -> new LeaseTakeover(o, j.leaseExpires()));
      return Optional.of(new LeasedAggregationJob(new LeaderAggregationJob(j.taskId(),
          j.jobId(), j.state(), j.step(), j.minReportTime(), j.maxReportTime(), j.reportCount(),
          Optional.of(name), Optional.of(token), Instant.ofEpochMilli(expires),
          j.leaseAttempts() + 1, j.errorDetail(), j.createdAt(), j.batch()), takeover));
    });
  }

  @Override
  public boolean renewAggregationJob(TaskId taskId, AggregationJobId jobId, ByteString token,
      Instant expiresAt) {
    return template.autoCommit("renewLeaderAggregationJob", c -> Sql.update(c,
        "UPDATE leader_aggregation_jobs SET lease_expires_ms = ?"
        + " WHERE task_id = ? AND job_id = ? AND state = ? AND lease_token = ?",
        expiresAt.toEpochMilli(), taskId.bytes(), jobId.bytes(), ACTIVE,
        token.toByteArray()) > 0);
  }

  @Override
  public boolean renewCollectionJob(CollectionJobLease lease, Instant expiresAt) {
    return template.autoCommit("renewCollectionJob", c -> Sql.update(c,
        "UPDATE collection_jobs SET lease_expires_ms = ?"
        + " WHERE task_id = ? AND job_id = ? AND state = ? AND lease_token = ?",
        expiresAt.toEpochMilli(), lease.job().taskId().bytes(), lease.job().jobId().bytes(),
        PENDING, lease.token().toByteArray()) > 0);
  }

  @Override
  public int releaseLeasesOf(String owner, Instant now) {
    String name = ownerName(owner);
    return template.inTransaction("releaseLeasesOf", null, c -> Sql.update(c,
        "UPDATE leader_aggregation_jobs SET lease_owner = NULL, lease_token = NULL,"
        + " lease_expires_ms = 0, updated_at_ms = ? WHERE state = ? AND lease_owner = ?",
        now.toEpochMilli(), ACTIVE, name)
        + Sql.update(c, "UPDATE collection_jobs SET lease_owner = NULL, lease_token = NULL,"
        + " lease_expires_ms = 0, updated_at_ms = ? WHERE state = ? AND lease_owner = ?",
        now.toEpochMilli(), PENDING, name));
  }

  /** Returns the owner as stored: at most the width of the lease_owner columns. */
  private static String ownerName(String owner) {
    Objects.requireNonNull(owner, "owner");
    return owner.length() <= MAX_OWNER ? owner : owner.substring(0, MAX_OWNER);
  }

  @Override
  public boolean releaseAggregationJob(TaskId taskId, AggregationJobId jobId, ByteString token,
      Instant retryAt, String detail) {
    return template.autoCommit("releaseLeaderAggregationJob", c -> Sql.update(c,
        "UPDATE leader_aggregation_jobs SET"
        + " lease_owner = NULL, lease_token = NULL, lease_expires_ms = ?, error_detail = ?,"
        + " updated_at_ms = ? WHERE task_id = ? AND job_id = ? AND state = ?"
        + " AND lease_token = ?", retryAt.toEpochMilli(), Sql.detail(detail),
        System.currentTimeMillis(), taskId.bytes(), jobId.bytes(), ACTIVE,
        token.toByteArray()) > 0);
  }

  @Override
  public boolean failAggregationJob(TaskId taskId, AggregationJobId jobId, ByteString token,
      Instant retryAt, String detail) {
    return template.autoCommit("failLeaderAggregationJob", c -> Sql.update(c,
        "UPDATE leader_aggregation_jobs SET"
        + " lease_owner = NULL, lease_token = NULL, lease_expires_ms = ?, error_detail = ?,"
        + " helper_failures = helper_failures + 1, updated_at_ms = ? WHERE task_id = ?"
        + " AND job_id = ? AND state = ? AND lease_token = ?", retryAt.toEpochMilli(),
        Sql.detail(detail), System.currentTimeMillis(), taskId.bytes(), jobId.bytes(), ACTIVE,
        token.toByteArray()) > 0);
  }

  @Override
  public boolean abandonAggregationJob(TaskId taskId, AggregationJobId jobId, ByteString token,
      String detail, Instant now) {
    return template.autoCommit("abandonLeaderAggregationJob", c -> Sql.update(c,
        "UPDATE leader_aggregation_jobs SET"
        + " state = ?, lease_owner = NULL, lease_token = NULL, lease_expires_ms = 0,"
        + " error_detail = ?, updated_at_ms = ? WHERE task_id = ? AND job_id = ?"
        + " AND state = ? AND lease_token = ?",
        LeaderAggregationJob.State.ABANDONED.dbName(), Sql.detail(detail), now.toEpochMilli(),
        taskId.bytes(), jobId.bytes(), ACTIVE, token.toByteArray()) > 0);
  }

  @Override
  public Optional<CollectionJobLease> leaseCollectionJob(TaskId taskId, String owner,
      Instant now, Duration leaseFor) {
    Objects.requireNonNull(owner, "owner");
    byte[] token = new byte[16];
    LEASE_TOKENS.nextBytes(token);
    long expires = now.plus(leaseFor).toEpochMilli();
    String select = dialect.skipLocked("SELECT job_id, lease_owner, lease_expires_ms"
        + " FROM collection_jobs"
        + " WHERE task_id = ? AND state = ? AND lease_expires_ms <= ?"
        + " ORDER BY lease_expires_ms, created_at_ms LIMIT 1");
    return template.inTransaction("leaseCollectionJob", null, c -> {
      // the previous owner and expiry: an owner left on a due row never gave its lease back
      Optional<Due> due = Sql.queryOne(c, select, rs -> new Due(rs.getBytes(1),
          Optional.ofNullable(rs.getString(2)), rs.getLong(3)), taskId.bytes(), PENDING,
          now.toEpochMilli());
      if (due.isEmpty()) {
        return Optional.<CollectionJobLease>empty();
      }
      byte[] jobId = due.get().jobId();
      Optional<LeaseTakeover> takeover = due.get().owner().map(o -> new LeaseTakeover(o,
          Instant.ofEpochMilli(due.get().expiresMs())));
      Sql.update(c, "UPDATE collection_jobs SET lease_owner = ?,"
          + " lease_token = ?, lease_expires_ms = ?, lease_attempts = lease_attempts + 1,"
          + " updated_at_ms = ? WHERE task_id = ? AND job_id = ?",
          ownerName(owner), token, expires, now.toEpochMilli(), taskId.bytes(), jobId);
      return Sql.queryOne(c, "SELECT " + JdbcCollectionJobs.COLUMNS
          + " FROM collection_jobs WHERE task_id = ? AND job_id = ?",
          rs -> new CollectionJobLease(JdbcCollectionJobs.row(rs), rs.getString(11),
              Sql.bytes(rs, 12), Instant.ofEpochMilli(rs.getLong(13)), rs.getInt(14),
              takeover),
          taskId.bytes(), jobId);
    });
  }

  @Override
  public boolean finishCollectionJob(CollectionJobLease lease, CollectionJobRecord.State state,
      ByteString response, String errorType, String errorDetail, Instant now) {
    if (state != CollectionJobRecord.State.READY && state != CollectionJobRecord.State.FAILED) {
      throw new IllegalArgumentException("a collection job finishes ready or failed, not " + state);
    }
    if (state == CollectionJobRecord.State.READY && response == null) {
      throw new IllegalArgumentException("a ready collection job has a response");
    }
    return template.autoCommit("finishCollectionJob", c -> {
      try (PreparedStatement p = c.prepareStatement("UPDATE collection_jobs SET state = ?,"
          + " response = ?, error_type = ?, error_detail = ?, lease_owner = NULL,"
          + " lease_token = NULL, lease_expires_ms = 0, updated_at_ms = ?"
          + " WHERE task_id = ? AND job_id = ? AND state = ? AND lease_token = ?")) {
        p.setString(1, state.dbName());
        p.setBytes(2, response == null ? null : response.toByteArray());
        p.setString(3, errorType);
        p.setString(4, Sql.detail(errorDetail));
        p.setLong(5, now.toEpochMilli());
        p.setBytes(6, lease.job().taskId().bytes());
        p.setBytes(7, lease.job().jobId().bytes());
        p.setString(8, PENDING);
        p.setBytes(9, lease.token().toByteArray());
        return p.executeUpdate() > 0;
      }
    });
  }

  @Override
  public boolean postponeCollectionJob(CollectionJobLease lease, Instant retryAt, Instant now) {
    return template.autoCommit("postponeCollectionJob", c -> Sql.update(c,
        "UPDATE collection_jobs SET"
        + " lease_owner = NULL, lease_token = NULL, lease_expires_ms = ?, updated_at_ms = ?"
        + " WHERE task_id = ? AND job_id = ? AND state = ? AND lease_token = ?",
        retryAt.toEpochMilli(), now.toEpochMilli(), lease.job().taskId().bytes(),
        lease.job().jobId().bytes(), PENDING, lease.token().toByteArray()) > 0);
  }

  /** A due collection job's ID and the lease it had. */
  private record Due(byte[] jobId, Optional<String> owner, long expiresMs) {}
}
