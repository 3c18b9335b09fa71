-- Version 1: the Helper's aggregate shares (DAP-18 "Obtaining Aggregate Shares").
-- batch_aggregations: the batch buckets (sum of output shares, report count, checksum).
-- noised_aggregate_shares: the noised share of a batch, persisted before it is released so
-- that noise is drawn once. aggregate_share_resources: one resource per request digest.

CREATE TABLE IF NOT EXISTS batch_aggregations (
  task_id BLOB NOT NULL,
  batch_identifier BLOB NOT NULL,
  aggregation_parameter BLOB NOT NULL,
  aggregate_share BLOB NOT NULL,
  report_count BIGINT NOT NULL,
  checksum BLOB NOT NULL,
  PRIMARY KEY (task_id, batch_identifier));

CREATE TABLE IF NOT EXISTS noised_aggregate_shares (
  task_id BLOB NOT NULL,
  batch_identifier BLOB NOT NULL,
  aggregation_parameter BLOB NOT NULL,
  report_count BIGINT NOT NULL,
  checksum BLOB NOT NULL,
  request_digest BLOB NOT NULL,
  noised_share BLOB NOT NULL,
  created_at_ms BIGINT NOT NULL,
  PRIMARY KEY (task_id, batch_identifier));

CREATE TABLE IF NOT EXISTS aggregate_share_resources (
  task_id BLOB NOT NULL,
  share_id BLOB NOT NULL,
  batch_identifier BLOB NOT NULL,
  request_digest BLOB NOT NULL,
  created_at_ms BIGINT NOT NULL,
  PRIMARY KEY (task_id, share_id),
  UNIQUE (task_id, request_digest));
