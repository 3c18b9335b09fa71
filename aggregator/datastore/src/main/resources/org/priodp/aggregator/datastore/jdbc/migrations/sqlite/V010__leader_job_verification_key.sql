-- Version 10: the verification_key_id the Leader chose for each of its aggregation jobs (DAP-19
-- "Leader Initialization"), chosen once before the first request and reused by every attempt,
-- so that a retry after a lost answer sends the identical request (NULL: not chosen yet); and,
-- per uploaded report, the epoch ms before which no new Leader job may claim it again
-- (retry_after_ms, NULL: now): a report the Helper rejected with report_too_early or
-- unknown_verification_key_id goes back to the pool after a delay, not in a tight loop.

ALTER TABLE leader_aggregation_jobs ADD COLUMN verification_key_id INTEGER;

ALTER TABLE client_reports ADD COLUMN retry_after_ms BIGINT;
