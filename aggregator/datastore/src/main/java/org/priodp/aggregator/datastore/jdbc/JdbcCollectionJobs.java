package org.priodp.aggregator.datastore.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.CollectionJobId;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.BatchIdentifier;
import org.priodp.aggregator.datastore.CollectionJobRecord;
import org.priodp.aggregator.datastore.CollectionJobRepository;

/**
 * The {@link CollectionJobRepository} of a JDBC task transaction (DAP-18 "Collection Job
 * Initialization"): rows of {@code collection_jobs}, whose lease columns are {@link
 * JdbcJobLeases}'s.
 */
final class JdbcCollectionJobs extends TaskScoped implements CollectionJobRepository {
  /** The columns of a job, then its lease (11 to 14). */
  static final String COLUMNS = "task_id, job_id, request,"
      + " batch_identifier, state, response, error_type, error_detail, created_at_ms,"
      + " updated_at_ms, lease_owner, lease_token, lease_expires_ms, lease_attempts";

  JdbcCollectionJobs(Connection connection, TaskId taskId) {
    super(connection, taskId);
  }

  /** Reads columns 1 to 10 of {@link #COLUMNS}. */
  static CollectionJobRecord row(ResultSet rs) throws SQLException {
    return new CollectionJobRecord(new TaskId(rs.getBytes(1)),
        new CollectionJobId(rs.getBytes(2)), Sql.bytes(rs, 3),
        BatchIdentifier.of(rs.getBytes(4)), CollectionJobRecord.State.ofDbName(rs.getString(5)),
        Sql.optionalBytes(rs, 6), Optional.ofNullable(rs.getString(7)),
        Optional.ofNullable(rs.getString(8)), Instant.ofEpochMilli(rs.getLong(9)),
        Instant.ofEpochMilli(rs.getLong(10)));
  }

  @Override
  public Optional<CollectionJobRecord> get(CollectionJobId jobId) {
    return sql(c -> Sql.queryOne(c, "SELECT " + COLUMNS
        + " FROM collection_jobs WHERE task_id = ? AND job_id = ?",
        JdbcCollectionJobs::row, task(), jobId.bytes()));
  }

  @Override
  public List<CollectionJobRecord> inStates(Set<CollectionJobRecord.State> states) {
    if (states.isEmpty()) {
      return new ArrayList<>();
    }
    List<Object> params = new ArrayList<>();
    params.add(task());
    for (CollectionJobRecord.State st : new TreeSet<>(states)) {
      params.add(st.dbName());
    }
    return sql(c -> Sql.query(c, "SELECT " + COLUMNS
        + " FROM collection_jobs WHERE task_id = ? AND state IN (" + Sql.marks(states.size())
        + ") ORDER BY created_at_ms, job_id", JdbcCollectionJobs::row, params.toArray()));
  }

  @Override
  public void insert(CollectionJobRecord j) {
    requireTask(j.taskId(), "collection job");
    sql(c -> {
      try (PreparedStatement p = c.prepareStatement("INSERT INTO collection_jobs (" + COLUMNS
          + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, 0, 0)")) {
        p.setBytes(1, j.taskId().bytes());
        p.setBytes(2, j.jobId().bytes());
        p.setBytes(3, j.request().toByteArray());
        p.setBytes(4, j.batch().bytes());
        p.setString(5, j.state().dbName());
        p.setBytes(6, j.response().map(ByteString::toByteArray).orElse(null));
        p.setString(7, j.errorType().orElse(null));
        p.setString(8, j.errorDetail().map(Sql::detail).orElse(null));
        p.setLong(9, j.createdAt().toEpochMilli());
        p.setLong(10, j.updatedAt().toEpochMilli());
        return p.executeUpdate();
      }
    });
  }

  @Override
  public boolean setState(CollectionJobId jobId, CollectionJobRecord.State state, Instant now) {
    return sql(c -> Sql.update(c, "UPDATE collection_jobs SET state = ?,"
        + " updated_at_ms = ? WHERE task_id = ? AND job_id = ?",
        state.dbName(), now.toEpochMilli(), task(), jobId.bytes()) > 0);
  }

  @Override
  public boolean setBatch(CollectionJobId jobId, BatchIdentifier batch, Instant now) {
    return sql(c -> Sql.update(c, "UPDATE collection_jobs SET"
        + " batch_identifier = ?, updated_at_ms = ? WHERE task_id = ? AND job_id = ?",
        batch.bytes(), now.toEpochMilli(), task(), jobId.bytes()) > 0);
  }

  @Override
  public boolean delete(CollectionJobId jobId, Instant now) {
    String deleted = CollectionJobRecord.State.DELETED.dbName();
    return sql(c -> Sql.update(c, "UPDATE collection_jobs SET state = ?,"
        + " updated_at_ms = ? WHERE task_id = ? AND job_id = ? AND state <> ?",
        deleted, now.toEpochMilli(), task(), jobId.bytes(), deleted) > 0);
  }

  @Override
  public boolean markDelivered(CollectionJobId jobId, Instant now) {
    return sql(c -> Sql.update(c, "UPDATE collection_jobs SET delivered_at_ms = ?"
        + " WHERE task_id = ? AND job_id = ? AND response IS NOT NULL"
        + " AND delivered_at_ms IS NULL", now.toEpochMilli(), task(), jobId.bytes()) > 0);
  }

  @Override
  public Set<BatchIdentifier> deliveredBatches() {
    return new HashSet<>(sql(c -> Sql.query(c, "SELECT DISTINCT batch_identifier"
        + " FROM collection_jobs WHERE task_id = ? AND delivered_at_ms IS NOT NULL",
        rs -> BatchIdentifier.of(rs.getBytes(1)), task())));
  }
}
