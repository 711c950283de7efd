-- Session lifecycle and full-text search over messages.
--
-- Lifecycle: each session carries the limits its configuration cascade resolved at creation (config_json) and,
-- as plain columns, the ones the background sweep and the end-of-turn check compare in SQL. end_reason says
-- why a completed session ended: user, max_messages, max_session_duration or inactivity.
ALTER TABLE sessions ADD COLUMN end_reason TEXT;
ALTER TABLE sessions ADD COLUMN max_messages INTEGER;
ALTER TABLE sessions ADD COLUMN expires_at TIMESTAMPTZ;
ALTER TABLE sessions ADD COLUMN inactivity_timeout_ms BIGINT;
-- the sweep reads active sessions by last activity, and by expiry, from the oldest: index range scans
CREATE INDEX sessions_state_activity ON sessions (state, last_activity_at);
CREATE INDEX sessions_state_expires ON sessions (state, expires_at);

-- Full-text search: a generated tsvector column (always in sync with content) under a GIN index.
ALTER TABLE messages ADD COLUMN content_tsv TSVECTOR GENERATED ALWAYS AS (to_tsvector('english', content)) STORED;
CREATE INDEX messages_content_tsv ON messages USING GIN (content_tsv);
