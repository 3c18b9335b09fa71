-- Version 6: the Leader (DAP-18 "Uploading Reports", "Leader Initialization", "Collecting
-- Results", "Distributed Systems and Synchronization Concerns"). Times are time_precision
-- units stored sign-flipped (Long.MIN_VALUE ^ t) so that SQL's signed order is unsigned.
-- client_reports: each uploaded report (the encoded Report as received), claimed by at
-- most one Leader aggregation job (aggregation_job_id NULL until then).
-- leader_aggregation_jobs: the Leader's jobs; a job is leased (lease_owner, lease_token,
-- lease_expires_ms in epoch ms; 0 means free) by one driver at a time, on PostgreSQL with
-- SELECT ... FOR UPDATE SKIP LOCKED, and taken over when the lease expires.
-- collection_jobs: the Collector's jobs, id derived from the request, with the batch they
-- select, their state, the encoded CollectionJobResp once ready, and a lease like above.

CREATE TABLE IF NOT EXISTS client_reports (
  task_id BLOB NOT NULL,
  report_id BLOB NOT NULL,
  report_time BIGINT NOT NULL,
  report BLOB NOT NULL,
  aggregation_job_id BLOB,
  created_at_ms BIGINT NOT NULL,
  PRIMARY KEY (task_id, report_id));

CREATE INDEX IF NOT EXISTS client_reports_by_job
  ON client_reports (task_id, aggregation_job_id, report_time);

CREATE TABLE IF NOT EXISTS leader_aggregation_jobs (
  task_id BLOB NOT NULL,
  job_id BLOB NOT NULL,
  state VARCHAR(16) NOT NULL,
  step INTEGER NOT NULL,
  batch_identifier BLOB,
  min_report_time BIGINT NOT NULL,
  max_report_time BIGINT NOT NULL,
  report_count INTEGER NOT NULL,
  lease_owner VARCHAR(128),
  lease_token BLOB,
  lease_expires_ms BIGINT NOT NULL,
  lease_attempts INTEGER NOT NULL,
  error_detail VARCHAR(1024),
  created_at_ms BIGINT NOT NULL,
  updated_at_ms BIGINT NOT NULL,
  PRIMARY KEY (task_id, job_id));

CREATE INDEX IF NOT EXISTS leader_aggregation_jobs_by_lease
  ON leader_aggregation_jobs (state, lease_expires_ms);

CREATE TABLE IF NOT EXISTS collection_jobs (
  task_id BLOB NOT NULL,
  job_id BLOB NOT NULL,
  request BLOB NOT NULL,
  batch_identifier BLOB NOT NULL,
  state VARCHAR(16) NOT NULL,
  response BLOB,
  error_type VARCHAR(64),
  error_detail VARCHAR(1024),
  lease_owner VARCHAR(128),
  lease_token BLOB,
  lease_expires_ms BIGINT NOT NULL,
  lease_attempts INTEGER NOT NULL,
  created_at_ms BIGINT NOT NULL,
  updated_at_ms BIGINT NOT NULL,
  PRIMARY KEY (task_id, job_id));

CREATE INDEX IF NOT EXISTS collection_jobs_by_lease
  ON collection_jobs (state, lease_expires_ms);
