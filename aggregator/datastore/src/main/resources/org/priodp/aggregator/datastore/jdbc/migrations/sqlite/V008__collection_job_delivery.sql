-- Version 8: when a collection job's CollectionJobResp was first answered to the Collector
-- (DAP-18 "Collection Job Deletion", "Leader-selected Batch Mode"). A leader-selected batch
-- whose job is deleted before its response was answered goes to the next job; one whose
-- response was answered stays collected. Responses stored before this version count as
-- answered, so no batch reaches the Collector twice.

ALTER TABLE collection_jobs ADD COLUMN delivered_at_ms BIGINT;

UPDATE collection_jobs SET delivered_at_ms = updated_at_ms WHERE response IS NOT NULL;
