-- Version 7: the Helper's asynchronous aggregate shares (DAP-18 "Asynchronous Request
-- Handling"): the AggregateShareReq of an aggregate-share resource that is answered later,
-- so that any process can (re)start its release from a GET, and the DAP error it failed
-- with, if it did. The noised and released shares stay where they are.

CREATE TABLE IF NOT EXISTS aggregate_share_requests (
  task_id BLOB NOT NULL,
  share_id BLOB NOT NULL,
  request BLOB NOT NULL,
  error_type VARCHAR(64),
  error_detail VARCHAR(1024),
  created_at_ms BIGINT NOT NULL,
  PRIMARY KEY (task_id, share_id));
