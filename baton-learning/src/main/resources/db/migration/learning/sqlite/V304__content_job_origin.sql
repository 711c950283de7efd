-- Where a content job came from, so the model usage its generation causes is recorded like a turn's (ai_usage, which
-- usage reports and budgets read): the conversation whose generateContent call started it and that conversation's
-- agent. A job started over REST has neither; its usage names the job as its session.
ALTER TABLE learning_content_jobs ADD COLUMN session_id TEXT;
ALTER TABLE learning_content_jobs ADD COLUMN agent_id TEXT;
