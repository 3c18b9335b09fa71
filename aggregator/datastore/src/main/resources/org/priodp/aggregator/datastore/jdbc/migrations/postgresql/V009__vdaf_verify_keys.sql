-- Version 9: VDAF verification keys by verification_key_id (DAP-19 "Leader Initialization",
-- "Helper Initialization"). Operators add and retire keys while the aggregator runs; the task
-- file's keys are inserted at startup unless their id is already stored. state is 'active' or
-- 'retired'; created_at_ms orders the Leader's preference (newest first);
-- helper_rejected_at_ms is when the Helper last answered unknown_verification_key_id for the
-- key (NULL: never), so that the Leader falls back to another key for a while.

CREATE TABLE IF NOT EXISTS vdaf_verify_keys (
  task_id BYTEA NOT NULL,
  key_id INTEGER NOT NULL,
  vdaf_verify_key BYTEA NOT NULL,
  state VARCHAR(16) NOT NULL,
  created_at_ms BIGINT NOT NULL,
  helper_rejected_at_ms BIGINT,
  PRIMARY KEY (task_id, key_id));
