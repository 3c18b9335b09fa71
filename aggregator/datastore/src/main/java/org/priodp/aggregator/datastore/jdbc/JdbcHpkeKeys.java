package org.priodp.aggregator.datastore.jdbc;

import java.time.Instant;
import java.util.List;
import org.priodp.aggregator.dap.HpkeConfig;
import org.priodp.aggregator.dap.HpkeConfigId;
import org.priodp.aggregator.datastore.HelperHpkeKey;
import org.priodp.aggregator.datastore.HpkeKeyRepository;
import org.priodp.aggregator.hpke.HpkeAeadId;
import org.priodp.aggregator.hpke.HpkeKdfId;
import org.priodp.aggregator.hpke.HpkeKemId;

/**
 * The {@link HpkeKeyRepository} of the JDBC datastore (DAP-18 "HPKE Configuration Request"): rows
 * of {@code hpke_keys}, one auto-committed statement each.
 */
final class JdbcHpkeKeys implements HpkeKeyRepository {
  private final TransactionTemplate template;

  JdbcHpkeKeys(TransactionTemplate template) {
    this.template = template;
  }

  @Override
  public List<HelperHpkeKey> all() {
    return template.autoCommit("hpkeKeys", c -> Sql.query(c, "SELECT config_id, kem_id,"
        + " kdf_id, aead_id, public_key, private_key, state, created_at_ms FROM hpke_keys"
        + " ORDER BY config_id", rs -> new HelperHpkeKey(new HpkeConfig(
            new HpkeConfigId(rs.getInt(1)), HpkeKemId.fromCode(rs.getInt(2)),
            HpkeKdfId.fromCode(rs.getInt(3)), HpkeAeadId.fromCode(rs.getInt(4)),
            rs.getBytes(5)), Sql.bytes(rs, 6), HelperHpkeKey.State.ofDbName(rs.getString(7)),
            Instant.ofEpochMilli(rs.getLong(8)))));
  }

  @Override
  public boolean insertIfAbsent(HelperHpkeKey k) {
    return template.autoCommit("insertHpkeKey", c -> Sql.update(c, "INSERT INTO hpke_keys"
        + " (config_id, kem_id, kdf_id, aead_id, public_key, private_key, state, created_at_ms)"
        + " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
        k.config().id().value(), k.config().kemId(), k.config().kdfId(),
        k.config().aeadId(), k.config().publicKey().toByteArray(),
        k.privateKey().toByteArray(), k.state().dbName(), k.createdAt().toEpochMilli()) > 0);
  }

  @Override
  public boolean setState(int configId, HelperHpkeKey.State state) {
    return template.autoCommit("setHpkeKeyState", c -> Sql.update(c,
        "UPDATE hpke_keys SET state = ? WHERE config_id = ?", state.dbName(), configId) > 0);
  }
}
