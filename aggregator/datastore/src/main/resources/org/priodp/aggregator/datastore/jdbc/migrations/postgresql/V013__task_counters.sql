-- Version 14: per task pipeline counters (issue 24 "See the pipeline"): uploads accepted and
-- rejected, reports the Helper and the Leader counted and rejected, by report error. Each row
-- is incremented inside the task transaction that decides the counted event, once per
-- transaction and (name, reason), so the counts are exact across replicas and after a crash.
-- reason is '' for a counter without one.

CREATE TABLE IF NOT EXISTS task_counters (
  task_id BYTEA NOT NULL,
  name VARCHAR(64) NOT NULL,
  reason VARCHAR(64) NOT NULL,
  value BIGINT NOT NULL,
  PRIMARY KEY (task_id, name, reason));
