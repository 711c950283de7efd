-- The audit trail outlives its conversation: message_audit loses its foreign key to messages (deleting a
-- session keeps its audit rows) and carries the tenant and session itself, so an administrator can still read
-- the trail of a deleted session. Rows are append-only: a trigger refuses UPDATE and DELETE.
ALTER TABLE message_audit DROP CONSTRAINT IF EXISTS message_audit_message_id_fkey;
ALTER TABLE message_audit ADD COLUMN tenant_id TEXT;
ALTER TABLE message_audit ADD COLUMN session_id TEXT;
UPDATE message_audit a SET session_id = m.session_id, tenant_id = s.tenant_id
FROM messages m JOIN sessions s ON s.id = m.session_id
WHERE m.id = a.message_id;
ALTER TABLE message_audit ALTER COLUMN tenant_id SET NOT NULL;
ALTER TABLE message_audit ALTER COLUMN session_id SET NOT NULL;
CREATE INDEX message_audit_session ON message_audit (tenant_id, session_id, created_at);

CREATE FUNCTION message_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'message_audit is append-only';
END;
$$;
CREATE TRIGGER message_audit_append_only BEFORE UPDATE OR DELETE ON message_audit
    FOR EACH ROW EXECUTE FUNCTION message_audit_append_only();
