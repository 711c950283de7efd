-- Session lifecycle and full-text search over messages.
--
-- Lifecycle: each session carries the limits its configuration cascade resolved at creation (config_json) and,
-- as plain columns, the ones the background sweep and the end-of-turn check compare in SQL. end_reason says
-- why a completed session ended: user, max_messages, max_session_duration or inactivity.
ALTER TABLE sessions ADD COLUMN end_reason TEXT;
ALTER TABLE sessions ADD COLUMN max_messages INTEGER;
ALTER TABLE sessions ADD COLUMN expires_at TEXT;
ALTER TABLE sessions ADD COLUMN inactivity_timeout_ms INTEGER;
-- the sweep reads active sessions by last activity, and by expiry, from the oldest: index range scans
CREATE INDEX sessions_state_activity ON sessions (state, last_activity_at);
CREATE INDEX sessions_state_expires ON sessions (state, expires_at);

-- Full-text search: an FTS5 table holding a copy of each message's text (porter stemming, like PostgreSQL's
-- 'english' configuration), kept in sync by triggers. Its rowid is the message's rowid, so a delete finds its row
-- without a scan; searches join back to messages by message_id and filter by the owner there.
CREATE VIRTUAL TABLE messages_fts USING fts5(content, message_id UNINDEXED, tokenize = 'porter unicode61');
INSERT INTO messages_fts (rowid, content, message_id) SELECT rowid, content, id FROM messages;

CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
    INSERT INTO messages_fts (rowid, content, message_id) VALUES (new.rowid, new.content, new.id);
END;
CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
    DELETE FROM messages_fts WHERE rowid = old.rowid;
END;
CREATE TRIGGER messages_fts_update AFTER UPDATE OF content ON messages BEGIN
    DELETE FROM messages_fts WHERE rowid = old.rowid;
    INSERT INTO messages_fts (rowid, content, message_id) VALUES (new.rowid, new.content, new.id);
END;
