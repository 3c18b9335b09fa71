-- Version 10: the verification_key_id the Leader chose for each of its aggregation jobs (DAP-19
-- "Leader Initialization"), chosen once before the first request and reused by every attempt,
-- so that a retry after a lost answer sends the identical request. NULL: not chosen yet.

ALTER TABLE leader_aggregation_jobs ADD COLUMN verification_key_id INTEGER;
