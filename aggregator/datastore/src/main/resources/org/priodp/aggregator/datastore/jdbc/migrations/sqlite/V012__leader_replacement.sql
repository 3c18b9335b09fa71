-- Version 12: no silent loss on the Leader (DAP-19 "Leader Initialization": a report the Helper
-- rejected with report_too_early, or unknown_verification_key_id, may go into a later job).
-- client_reports.placements: how many Leader aggregation jobs claimed the report; bounds its
-- re-placement (given up for good after 10).
-- leader_aggregation_jobs.order_salt and request_digest: chosen at a job's first attempt, the
-- salt that orders its reports in the AggregationJobInitReq and the SHA-256 of that request;
-- every attempt sends the same bytes, and no two jobs of a task send the same request (the
-- Helper would answer the second from the first's stored job). NULL: not sent yet; -1 (set
-- below for the jobs active at this migration, which may have sent a first request already):
-- the order of version 11 (report time, then report ID), without a digest.
-- leader_aggregation_jobs.helper_failures: the job's Helper calls that failed for a cause that
-- can be fixed (unreachable, 5xx, timeout, 401/403/404); its backoff doubles with each.

ALTER TABLE client_reports ADD COLUMN placements INTEGER NOT NULL DEFAULT 0;

ALTER TABLE leader_aggregation_jobs ADD COLUMN order_salt INTEGER;

ALTER TABLE leader_aggregation_jobs ADD COLUMN request_digest BLOB;

ALTER TABLE leader_aggregation_jobs ADD COLUMN helper_failures INTEGER NOT NULL DEFAULT 0;

UPDATE leader_aggregation_jobs SET order_salt = -1 WHERE state = 'active';

CREATE UNIQUE INDEX IF NOT EXISTS leader_aggregation_jobs_by_request
  ON leader_aggregation_jobs (task_id, request_digest);
