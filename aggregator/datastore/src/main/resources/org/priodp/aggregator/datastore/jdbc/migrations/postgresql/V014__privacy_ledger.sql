-- Version 14: the privacy ledger (issue 25). privacy_ledger: one row per batch whose noise
-- was drawn, inserted in the task transaction that draws it (never deleted by retention): the
-- span of the batch's report times, the privacy unit's group size over it, the per-report
-- guarantee (kind 'epsilon' or 'rho', its parameter and the sampler's total variation, exact
-- rationals as text "p/q"), the per-unit parameter, the sampler, the task's DP settings as
-- canonical text (so a changed setting is refused at start) and when the noise was drawn
-- (seconds). The primary key makes a batch cost once.
-- batch_aggregations.min_report_time, max_report_time: the earliest and latest (rounded)
-- report time counted in a bucket, for the span of leader-selected batches; NULL for buckets
-- written before this version.

CREATE TABLE IF NOT EXISTS privacy_ledger (
  task_id BYTEA NOT NULL,
  batch_identifier BYTEA NOT NULL,
  batch_text VARCHAR(200) NOT NULL,
  span_start BIGINT NOT NULL,
  span_end BIGINT NOT NULL,
  group_size BIGINT NOT NULL,
  kind VARCHAR(16) NOT NULL,
  per_report_parameter VARCHAR(600) NOT NULL,
  total_variation VARCHAR(600) NOT NULL,
  per_unit_parameter VARCHAR(600) NOT NULL,
  sampler VARCHAR(200) NOT NULL,
  settings VARCHAR(2000) NOT NULL,
  drawn_at BIGINT NOT NULL,
  PRIMARY KEY (task_id, batch_identifier));

ALTER TABLE batch_aggregations ADD COLUMN min_report_time BIGINT;
ALTER TABLE batch_aggregations ADD COLUMN max_report_time BIGINT;
