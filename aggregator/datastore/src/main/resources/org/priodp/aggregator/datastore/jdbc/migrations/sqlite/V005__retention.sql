-- Version 5: retention (DAP-18 "Reducing Storage Requirements"). aggregated_reports gains
-- the report's time (time_precision units, sign-flipped like collected_intervals; NULL for
-- rows written before, which are never collected). retention_cutoffs: per task, the report
-- time (sign-flipped) below which report IDs may have been deleted; a report older than it
-- is rejected with report_dropped, so a collected ID can never be replayed.

ALTER TABLE aggregated_reports ADD COLUMN report_time BIGINT;

CREATE INDEX IF NOT EXISTS aggregated_reports_by_time
  ON aggregated_reports (task_id, report_time);

CREATE TABLE IF NOT EXISTS retention_cutoffs (
  task_id BLOB NOT NULL,
  cutoff BIGINT NOT NULL,
  PRIMARY KEY (task_id));
