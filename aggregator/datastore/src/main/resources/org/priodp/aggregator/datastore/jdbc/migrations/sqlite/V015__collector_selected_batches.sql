-- Version 15: the collector_selected batch mode (draft-ietf-ppm-dap-attribution-00 section 4).
-- A collection job of such a task owns one batch (collector_batches: the batch identifier the
-- Leader assigned when the job was created, how many reports were uploaded to it, and when the
-- Collector's first GET closed it, NULL while open). A report uploaded to the job's URL is stored
-- in client_reports with that batch identifier; report IDs stay unique per task, so a report
-- uploaded to two jobs is stored, and counted, once.

ALTER TABLE client_reports ADD COLUMN batch_identifier BLOB;

CREATE TABLE IF NOT EXISTS collector_batches (
  task_id BLOB NOT NULL,
  job_id BLOB NOT NULL,
  batch_identifier BLOB NOT NULL,
  uploaded BIGINT NOT NULL,
  closed_at_ms BIGINT,
  created_at_ms BIGINT NOT NULL,
  PRIMARY KEY (task_id, job_id),
  UNIQUE (task_id, batch_identifier));

CREATE INDEX IF NOT EXISTS client_reports_by_batch
  ON client_reports (task_id, batch_identifier, aggregation_job_id);
