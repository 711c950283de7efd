-- The audit trail outlives its conversation: message_audit loses its foreign key to messages (deleting a
-- session keeps its audit rows) and carries the tenant and session itself, so an administrator can still read
-- the trail of a deleted session. Rows are append-only: triggers refuse UPDATE and DELETE.
-- SQLite cannot drop a constraint, so the table is rebuilt (it had no writers before this version).
CREATE TABLE message_audit_v2 (
    id               TEXT NOT NULL PRIMARY KEY,
    tenant_id        TEXT NOT NULL,
    session_id       TEXT NOT NULL,
    message_id       TEXT NOT NULL,
    original_content TEXT NOT NULL,
    redaction_module TEXT,
    redaction_reason TEXT,
    patterns_matched TEXT,
    created_at       TEXT NOT NULL
);
INSERT INTO message_audit_v2 (id, tenant_id, session_id, message_id, original_content, redaction_module,
                              redaction_reason, patterns_matched, created_at)
SELECT a.id, s.tenant_id, m.session_id, a.message_id, a.original_content, a.redaction_module,
       a.redaction_reason, a.patterns_matched, a.created_at
FROM message_audit a
JOIN messages m ON m.id = a.message_id
JOIN sessions s ON s.id = m.session_id;
DROP TABLE message_audit;
ALTER TABLE message_audit_v2 RENAME TO message_audit;
CREATE INDEX message_audit_message ON message_audit (message_id);
CREATE INDEX message_audit_session ON message_audit (tenant_id, session_id, created_at);

CREATE TRIGGER message_audit_no_update BEFORE UPDATE ON message_audit BEGIN
    SELECT RAISE(ABORT, 'message_audit is append-only');
END;
CREATE TRIGGER message_audit_no_delete BEFORE DELETE ON message_audit BEGIN
    SELECT RAISE(ABORT, 'message_audit is append-only');
END;
