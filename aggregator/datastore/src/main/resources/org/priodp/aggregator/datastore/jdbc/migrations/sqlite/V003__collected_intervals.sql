-- Version 3: DAP-18 time units and the atomic batchOverlap rule. Each released time-interval
-- batch records the range it covers (time_precision units, stored sign-flipped so that SQL's
-- signed order is the unsigned order); the overlap check and the insert run in one
-- transaction serialized per task. Buckets written by version 2 (keyed by an interval in
-- seconds whose duration was the time precision) are rekeyed to {start, duration: 1}
-- by the data step that runs after these statements (LegacyTimeUnits, in Java).

CREATE TABLE IF NOT EXISTS collected_intervals (
  task_id BLOB NOT NULL,
  batch_identifier BLOB NOT NULL,
  range_start BIGINT NOT NULL,
  range_end BIGINT NOT NULL,
  PRIMARY KEY (task_id, batch_identifier));

CREATE INDEX IF NOT EXISTS collected_intervals_by_start
  ON collected_intervals (task_id, range_start);
