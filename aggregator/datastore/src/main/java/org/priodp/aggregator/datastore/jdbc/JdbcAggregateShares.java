package org.priodp.aggregator.datastore.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;
import org.priodp.aggregator.dap.AggregateShareId;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.AggregateShareRepository;
import org.priodp.aggregator.datastore.AggregateShareRequest;
import org.priodp.aggregator.datastore.AggregateShareResource;
import org.priodp.aggregator.datastore.BatchIdentifier;

/**
 * The {@link AggregateShareRepository} of a JDBC task transaction (DAP-18 "Obtaining Aggregate
 * Shares", "Resource Creation"): {@code aggregate_share_resources} and {@code
 * aggregate_share_requests}, both insert-if-absent.
 */
final class JdbcAggregateShares extends TaskScoped implements AggregateShareRepository {
  private static final String RESOURCE_COLUMNS =
      "task_id, share_id, batch_identifier, request_digest, created_at_ms";
  private static final String REQUEST_COLUMNS =
      "task_id, share_id, request, error_type, error_detail, created_at_ms";

  JdbcAggregateShares(Connection connection, TaskId taskId) {
    super(connection, taskId);
  }

  private static AggregateShareResource resourceRow(ResultSet rs) throws SQLException {
    return new AggregateShareResource(new TaskId(rs.getBytes(1)),
        new AggregateShareId(rs.getBytes(2)), BatchIdentifier.of(rs.getBytes(3)),
        Sql.bytes(rs, 4), Instant.ofEpochMilli(rs.getLong(5)));
  }

  private static AggregateShareRequest requestRow(ResultSet rs) throws SQLException {
    return new AggregateShareRequest(new TaskId(rs.getBytes(1)),
        new AggregateShareId(rs.getBytes(2)), Sql.bytes(rs, 3),
        Optional.ofNullable(rs.getString(4)), Optional.ofNullable(rs.getString(5)),
        Instant.ofEpochMilli(rs.getLong(6)));
  }

  /** Reads the resource whose {@code keyColumn} (share_id or request_digest) is {@code key}. */
  private Optional<AggregateShareResource> readResource(Connection c, String keyColumn,
      byte[] key) throws SQLException {
    return Sql.queryOne(c, "SELECT " + RESOURCE_COLUMNS
        + " FROM aggregate_share_resources WHERE task_id = ? AND " + keyColumn + " = ?",
        JdbcAggregateShares::resourceRow, task(), key);
  }

  @Override
  public AggregateShareResource createIfAbsent(AggregateShareResource r) {
    requireTask(r.taskId(), "aggregate share resource");
    return sql(c -> {
      Sql.update(c, "INSERT INTO aggregate_share_resources (" + RESOURCE_COLUMNS
          + ") VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING", r.taskId().bytes(),
          r.id().bytes(), r.batch().bytes(), r.requestDigest().toByteArray(),
          r.createdAt().toEpochMilli());
      return readResource(c, "request_digest", r.requestDigest().toByteArray())
          .orElseThrow(() -> new SQLException("aggregate share id " + r.id().toBase64Url()
              + " is already used by a different request"));
    });
  }

  @Override
  public Optional<AggregateShareResource> get(AggregateShareId id) {
    return sql(c -> readResource(c, "share_id", id.bytes()));
  }

  @Override
  public boolean delete(AggregateShareId id) {
    return sql(c -> Sql.update(c, "DELETE FROM aggregate_share_resources"
        + " WHERE task_id = ? AND share_id = ?", task(), id.bytes()) > 0);
  }

  private Optional<AggregateShareRequest> readRequest(Connection c, AggregateShareId id)
      throws SQLException {
    return Sql.queryOne(c, "SELECT " + REQUEST_COLUMNS + " FROM aggregate_share_requests"
        + " WHERE task_id = ? AND share_id = ?", JdbcAggregateShares::requestRow, task(),
        id.bytes());
  }

  @Override
  public AggregateShareRequest putRequestIfAbsent(AggregateShareRequest r) {
    requireTask(r.taskId(), "aggregate share request");
    return sql(c -> {
      try (var p = c.prepareStatement("INSERT INTO aggregate_share_requests ("
          + REQUEST_COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING")) {
        p.setBytes(1, r.taskId().bytes());
        p.setBytes(2, r.id().bytes());
        p.setBytes(3, r.request().toByteArray());
        p.setString(4, r.errorType().orElse(null));
        p.setString(5, r.errorDetail().map(Sql::detail).orElse(null));
        p.setLong(6, r.createdAt().toEpochMilli());
        p.executeUpdate();
      }
      return readRequest(c, r.id()).orElseThrow(() ->
          new SQLException("aggregate share request vanished after insert"));
    });
  }

  @Override
  public Optional<AggregateShareRequest> request(AggregateShareId id) {
    return sql(c -> readRequest(c, id));
  }

  @Override
  public boolean failRequest(AggregateShareId id, String errorType, String errorDetail) {
    return sql(c -> {
      try (var p = c.prepareStatement("UPDATE aggregate_share_requests"
          + " SET error_type = ?, error_detail = ? WHERE task_id = ? AND share_id = ?")) {
        p.setString(1, errorType);
        p.setString(2, Sql.detail(errorDetail));
        p.setBytes(3, task());
        p.setBytes(4, id.bytes());
        return p.executeUpdate() > 0;
      }
    });
  }
}
