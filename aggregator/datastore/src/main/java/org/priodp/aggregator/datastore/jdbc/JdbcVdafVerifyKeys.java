package org.priodp.aggregator.datastore.jdbc;

import java.sql.Connection;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.VdafVerifyKey;
import org.priodp.aggregator.datastore.VdafVerifyKeyRepository;

/**
 * The {@link VdafVerifyKeyRepository} of a JDBC task transaction: rows of {@code
 * vdaf_verify_keys} (migration V009) of the transaction's task.
 */
final class JdbcVdafVerifyKeys extends TaskScoped implements VdafVerifyKeyRepository {
  JdbcVdafVerifyKeys(Connection connection, TaskId taskId) {
    super(connection, taskId);
  }

  @Override
  public List<VdafVerifyKey> all() {
    return sql(c -> Sql.query(c, "SELECT key_id, vdaf_verify_key, state, created_at_ms,"
        + " helper_rejected_at_ms FROM vdaf_verify_keys WHERE task_id = ? ORDER BY key_id",
        rs -> {
          long rejected = rs.getLong(5);
          Optional<Instant> at = rs.wasNull() ? Optional.empty()
              : Optional.of(Instant.ofEpochMilli(rejected));
          return new VdafVerifyKey(rs.getInt(1), ByteString.copyOf(rs.getBytes(2)),
              VdafVerifyKey.State.ofDbName(rs.getString(3)), Instant.ofEpochMilli(rs.getLong(4)),
              at);
        }, (Object) task()));
  }

  @Override
  public boolean insertIfAbsent(VdafVerifyKey k) {
    boolean inserted = sql(c -> Sql.update(c, "INSERT INTO vdaf_verify_keys (task_id, key_id,"
        + " vdaf_verify_key, state, created_at_ms) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
        task(), k.id(), k.key().toByteArray(), k.state().dbName(),
        k.createdAt().toEpochMilli()) > 0);
    if (inserted && k.helperRejectedAt().isPresent()) {
      setHelperRejectedAt(k.id(), k.helperRejectedAt());
    }
    return inserted;
  }

  @Override
  public boolean setState(int id, VdafVerifyKey.State state) {
    return sql(c -> Sql.update(c, "UPDATE vdaf_verify_keys SET state = ? WHERE task_id = ?"
        + " AND key_id = ?", state.dbName(), task(), id) > 0);
  }

  @Override
  public boolean setHelperRejectedAt(int id, Optional<Instant> at) {
    if (at.isEmpty()) {
      return sql(c -> Sql.update(c, "UPDATE vdaf_verify_keys SET helper_rejected_at_ms = NULL"
          + " WHERE task_id = ? AND key_id = ?", task(), id) > 0);
    }
    return sql(c -> Sql.update(c, "UPDATE vdaf_verify_keys SET helper_rejected_at_ms = ?"
        + " WHERE task_id = ? AND key_id = ?", at.get().toEpochMilli(), task(), id) > 0);
  }
}
