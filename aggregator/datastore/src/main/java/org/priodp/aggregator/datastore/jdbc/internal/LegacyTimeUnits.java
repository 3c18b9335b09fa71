package org.priodp.aggregator.datastore.jdbc.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.priodp.aggregator.dap.BatchSelector;
import org.priodp.aggregator.dap.DapDecodeException;
import org.priodp.aggregator.dap.Interval;

/**
 * The data step of schema version 3: moves rows written in seconds by version 2 to DAP-18's
 * time_precision units ("Times, Durations and Intervals") and records the range of every released
 * time-interval batch for the batchOverlap check.
 *
 * <p>A version-2 bucket was keyed by {@code Interval(start_seconds, time_precision)}, so its own
 * key tells the precision: it becomes {@code Interval(start_seconds / precision, 1)}. A released
 * batch keeps its key (it names the request that was answered) and its range is converted with
 * the precision learned from its task's buckets. When no bucket tells the precision and the batch
 * held reports, the whole time line of that task is recorded as collected: refusing every later
 * time-interval batch of that task is safe, releasing an overlapping one is not.
 */
final class LegacyTimeUnits {
  private LegacyTimeUnits() {
  }

  private record Row(byte[] task, byte[] batch) {
  }

  static void migrate(Connection c) throws SQLException {
    Map<String, Long> precisionByTask = new HashMap<>();
    List<Row> buckets = new ArrayList<>();
    try (PreparedStatement p = c.prepareStatement(
        "SELECT task_id, batch_identifier FROM batch_aggregations");
        ResultSet rs = p.executeQuery()) {
      while (rs.next()) {
        buckets.add(new Row(rs.getBytes(1), rs.getBytes(2)));
      }
    }
    for (Row r : buckets) {
      Interval i = timeInterval(r.batch());
      if (i == null || i.duration().value() <= 1
          || Long.remainderUnsigned(i.start().value(), i.duration().value()) != 0) {
        continue; // leader-selected, or already one unit long
      }
      long precision = i.duration().value();
      precisionByTask.put(key(r.task()), precision);
      byte[] rekeyed = new BatchSelector.TimeInterval(Interval.of(
          Long.divideUnsigned(i.start().value(), precision), 1)).encode();
      try (PreparedStatement u = c.prepareStatement("UPDATE batch_aggregations"
          + " SET batch_identifier = ? WHERE task_id = ? AND batch_identifier = ?")) {
        u.setBytes(1, rekeyed);
        u.setBytes(2, r.task());
        u.setBytes(3, r.batch());
        u.executeUpdate();
      }
    }
    try (PreparedStatement p = c.prepareStatement(
        "SELECT task_id, batch_identifier, report_count FROM noised_aggregate_shares");
        ResultSet rs = p.executeQuery()) {
      List<Object[]> released = new ArrayList<>();
      while (rs.next()) {
        released.add(new Object[] {rs.getBytes(1), rs.getBytes(2), rs.getLong(3)});
      }
      for (Object[] r : released) {
        byte[] task = (byte[]) r[0];
        byte[] batch = (byte[]) r[1];
        Interval i = timeInterval(batch);
        if (i == null) {
          continue;
        }
        Long precision = precisionByTask.get(key(task));
        long start;
        long end;
        if (precision != null
            && Long.remainderUnsigned(i.start().value(), precision) == 0
            && Long.remainderUnsigned(i.duration().value(), precision) == 0) {
          start = Long.divideUnsigned(i.start().value(), precision);
          end = start + Long.divideUnsigned(i.duration().value(), precision);
        } else if ((Long) r[2] != 0) {
          start = 0;
          end = -1L; // 2^64 - 1: the whole time line
        } else {
          continue; // released no report: nothing a later batch could average against
        }
        if (Long.compareUnsigned(start, end) < 0) {
          try (PreparedStatement ins = c.prepareStatement("INSERT INTO collected_intervals"
              + " (task_id, batch_identifier, range_start, range_end) VALUES (?, ?, ?, ?)")) {
            ins.setBytes(1, task);
            ins.setBytes(2, batch);
            ins.setLong(3, start ^ Long.MIN_VALUE);
            ins.setLong(4, end ^ Long.MIN_VALUE);
            ins.executeUpdate();
          }
        }
      }
    }
  }

  private static String key(byte[] task) {
    return java.util.HexFormat.of().formatHex(task);
  }

  private static Interval timeInterval(byte[] batchIdentifier) {
    try {
      return BatchSelector.decode(batchIdentifier) instanceof BatchSelector.TimeInterval t
          ? t.batchInterval() : null;
    } catch (DapDecodeException e) {
      return null;
    }
  }
}
