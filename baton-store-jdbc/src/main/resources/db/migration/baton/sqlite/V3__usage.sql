-- Usage reporting and budgets (issue 4): which agent each model call served, and an index for period scans.
-- agent_id is copied from the session when the row is written, because usage rows outlive their session.
ALTER TABLE ai_usage ADD COLUMN agent_id TEXT;
UPDATE ai_usage SET agent_id = (SELECT s.agent_id FROM sessions s WHERE s.id = ai_usage.session_id)
 WHERE agent_id IS NULL;
CREATE INDEX ai_usage_created ON ai_usage (created_at);
