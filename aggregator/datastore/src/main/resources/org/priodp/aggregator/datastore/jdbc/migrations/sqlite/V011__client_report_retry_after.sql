-- Version 11: per uploaded report, the epoch ms before which no new Leader job may claim it
-- again (NULL: now). A report the Helper rejected with unknown_verification_key_id goes back
-- to the pool after a delay, not in a tight loop.

ALTER TABLE client_reports ADD COLUMN retry_after_ms BIGINT;
