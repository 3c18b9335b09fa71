-- Version 1: the Helper's aggregate shares (DAP-18 "Obtaining Aggregate Shares").
-- batch_aggregations: the batch buckets (sum of output shares, report count, checksum).
-- noised_aggregate_shares: the noised share of a batch, persisted before it is released so
-- that noise is drawn once. aggregate_share_resources: one resource per request digest.

CREATE TABLE IF NOT EXISTS batch_aggregations (
  task_id BYTEA NOT NULL,
  batch_identifier BYTEA NOT NULL,
  aggregation_parameter BYTEA NOT NULL,
  aggregate_share BYTEA NOT NULL,
  report_count BIGINT NOT NULL,
  checksum BYTEA NOT NULL,
  PRIMARY KEY (task_id, batch_identifier));

CREATE TABLE IF NOT EXISTS noised_aggregate_shares (
  task_id BYTEA NOT NULL,
  batch_identifier BYTEA NOT NULL,
  aggregation_parameter BYTEA NOT NULL,
  report_count BIGINT NOT NULL,
  checksum BYTEA NOT NULL,
  request_digest BYTEA NOT NULL,
  noised_share BYTEA NOT NULL,
  created_at_ms BIGINT NOT NULL,
  PRIMARY KEY (task_id, batch_identifier));

CREATE TABLE IF NOT EXISTS aggregate_share_resources (
  task_id BYTEA NOT NULL,
  share_id BYTEA NOT NULL,
  batch_identifier BYTEA NOT NULL,
  request_digest BYTEA NOT NULL,
  created_at_ms BIGINT NOT NULL,
  PRIMARY KEY (task_id, share_id),
  UNIQUE (task_id, request_digest));
