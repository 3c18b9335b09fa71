-- Version 4: the Helper's aggregation (DAP-18 "Helper Initialization", "Batch Buckets",
-- "HPKE Configuration Request"). hpke_keys: this aggregator's HPKE key pairs (state active
-- or retired; a retired key still decrypts). aggregation_jobs: each job's request digest,
-- step and stored response, so a repeat gets identical bytes. aggregated_reports: the
-- report IDs committed to batch buckets, for replay checks.

CREATE TABLE IF NOT EXISTS hpke_keys (
  config_id INTEGER PRIMARY KEY,
  kem_id INTEGER NOT NULL,
  kdf_id INTEGER NOT NULL,
  aead_id INTEGER NOT NULL,
  public_key BLOB NOT NULL,
  private_key BLOB NOT NULL,
  state VARCHAR(16) NOT NULL,
  created_at_ms BIGINT NOT NULL);

CREATE TABLE IF NOT EXISTS aggregation_jobs (
  task_id BLOB NOT NULL,
  job_id BLOB NOT NULL,
  request_digest BLOB NOT NULL,
  step INTEGER NOT NULL,
  step_digest BLOB NOT NULL,
  state VARCHAR(16) NOT NULL,
  response BLOB,
  error_type VARCHAR(64),
  error_detail VARCHAR(1024),
  created_at_ms BIGINT NOT NULL,
  PRIMARY KEY (task_id, job_id));

CREATE TABLE IF NOT EXISTS aggregated_reports (
  task_id BLOB NOT NULL,
  report_id BLOB NOT NULL,
  job_id BLOB NOT NULL,
  PRIMARY KEY (task_id, report_id));
