package org.priodp.aggregator.datastore;

import java.util.Objects;
import org.priodp.aggregator.dap.ByteString;
import org.priodp.aggregator.dap.ReportId;

/**
 * A report claimed by a Leader aggregation job: its ID, its time (time_precision units) and the
 * encoded DAP-18 {@code Report} as uploaded ({@code client_reports.report}).
 */
public record LeaderJobReport(ReportId reportId, long time, ByteString report) {
  /** Validates the fields. */
  public LeaderJobReport {
    Objects.requireNonNull(reportId, "reportId");
    Objects.requireNonNull(report, "report");
  }
}
