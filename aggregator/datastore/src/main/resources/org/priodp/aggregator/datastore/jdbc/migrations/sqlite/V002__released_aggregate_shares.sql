-- Version 2: the encoded AggregateShare (HPKE ciphertext) released for a batch. HPKE sealing is
-- randomized, so the bytes are stored once and every repeat returns them.

CREATE TABLE IF NOT EXISTS released_aggregate_shares (
  task_id BLOB NOT NULL,
  batch_identifier BLOB NOT NULL,
  request_digest BLOB NOT NULL,
  aggregate_share BLOB NOT NULL,
  created_at_ms BIGINT NOT NULL,
  PRIMARY KEY (task_id, batch_identifier));
