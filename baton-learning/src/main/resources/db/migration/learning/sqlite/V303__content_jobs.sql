-- Content-generation jobs the learning agent starts (generateContent): persisted before the tool returns, claimed by a
-- worker on any instance with a lease (lease_until), so a job whose worker died is claimed again once its lease ran
-- out; attempts are bounded.

CREATE TABLE learning_content_jobs (
    id          TEXT    NOT NULL PRIMARY KEY,
    tenant_id   TEXT    NOT NULL,
    user_id     TEXT    NOT NULL,
    topic       TEXT    NOT NULL,
    status      TEXT    NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed')),
    content     TEXT,
    error       TEXT,
    attempts    INTEGER NOT NULL DEFAULT 0,
    worker_id   TEXT,
    lease_until TEXT,
    created_at  TEXT    NOT NULL,
    updated_at  TEXT    NOT NULL
);
CREATE INDEX learning_content_jobs_learner ON learning_content_jobs (tenant_id, user_id, created_at);
CREATE INDEX learning_content_jobs_claim ON learning_content_jobs (status, created_at);
