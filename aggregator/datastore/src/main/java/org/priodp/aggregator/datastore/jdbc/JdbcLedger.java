package org.priodp.aggregator.datastore.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import org.priodp.aggregator.dap.TaskId;
import org.priodp.aggregator.datastore.BatchIdentifier;
import org.priodp.aggregator.datastore.LedgerRecord;
import org.priodp.aggregator.datastore.LedgerRepository;
import org.priodp.noise.Budget;
import org.priodp.noise.Rational;
import org.priodp.noise.ledger.LedgerEntry;
import org.priodp.noise.ledger.ReleaseGuarantee;
import org.priodp.noise.ledger.Span;

/**
 * The {@link LedgerRepository} of a JDBC task transaction (issue 25): rows of
 * {@code privacy_ledger} (migration V014), exact rationals stored as their "p/q" text.
 */
final class JdbcLedger extends TaskScoped implements LedgerRepository {
  private static final String COLUMNS = "batch_identifier, batch_text, span_start, span_end, group_size,"
      + " kind, per_report_parameter, total_variation, per_unit_parameter, sampler, settings, drawn_at";

  JdbcLedger(Connection connection, TaskId taskId) {
    super(connection, taskId);
  }

  private static LedgerRecord row(ResultSet rs) throws SQLException {
    String kind = rs.getString(6);
    Rational parameter = stored(rs.getString(7));
    Budget perReport = switch (kind) {
      case "epsilon" -> new Budget.PureDp(parameter);
      case "rho" -> new Budget.ZCdp(parameter);
      default -> throw new IllegalStateException("privacy_ledger: unknown kind '" + kind + "'");
    };
    ReleaseGuarantee g = new ReleaseGuarantee(perReport, stored(rs.getString(8)));
    long groupSize = rs.getLong(5);
    LedgerEntry e = new LedgerEntry(rs.getString(2), new Span(rs.getLong(3), rs.getLong(4)), groupSize, g,
        g.forGroup(groupSize), rs.getLong(12));
    return new LedgerRecord(BatchIdentifier.of(rs.getBytes(1)), e, rs.getString(10), rs.getString(11));
  }

  /**
   * Reads a rational this class stored ({@link Rational#toString}: "p/q" or "p"), exactly and
   * without the size limits {@link Rational#parse} puts on what people type.
   */
  static Rational stored(String text) {
    int slash = text.indexOf('/');
    try {
      return slash < 0 ? Rational.of(new java.math.BigInteger(text))
          : Rational.of(new java.math.BigInteger(text.substring(0, slash)),
              new java.math.BigInteger(text.substring(slash + 1)));
    } catch (IllegalArgumentException | ArithmeticException e) {
      throw new IllegalStateException("privacy_ledger: '" + text + "' is not a stored rational", e);
    }
  }

  @Override
  public List<LedgerRecord> entries() {
    return sql(c -> Sql.query(c, "SELECT " + COLUMNS + " FROM privacy_ledger WHERE task_id = ?"
        + " ORDER BY drawn_at, batch_identifier", JdbcLedger::row, (Object) task()));
  }

  @Override
  public boolean insert(LedgerRecord r) {
    LedgerEntry e = r.entry();
    Budget b = e.perReport().perRelease();
    return sql(c -> Sql.update(c, "INSERT INTO privacy_ledger (task_id, " + COLUMNS + ") VALUES ("
        + Sql.marks(13) + ") ON CONFLICT (task_id, batch_identifier) DO NOTHING",
        task(), r.batch().bytes(), e.batch(), e.span().start(), e.span().end(), e.groupSize(),
        b instanceof Budget.PureDp ? "epsilon" : "rho", b.parameter().toString(),
        e.perReport().totalVariation().toString(), e.perUnit().perRelease().parameter().toString(),
        r.sampler(), r.settings(), e.drawnAt())) == 1;
  }

  @Override
  public List<RecordedSettings> settings() {
    return sql(c -> Sql.query(c, "SELECT settings, COUNT(*), MIN(drawn_at) FROM privacy_ledger"
        + " WHERE task_id = ? GROUP BY settings ORDER BY MIN(drawn_at), settings",
        rs -> new RecordedSettings(rs.getString(1), rs.getLong(2)), (Object) task()));
  }
}
