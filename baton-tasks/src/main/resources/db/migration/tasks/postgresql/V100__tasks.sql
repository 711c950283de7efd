-- The built-in task domain (baton-tasks; versions V100 and up).
-- tags is a jsonb array of normalised (trimmed, lower-case) strings; filters use containment (@>), so matching
-- is exact, never a substring.

CREATE TABLE tasks (
    id          TEXT        NOT NULL PRIMARY KEY,
    tenant_id   TEXT        NOT NULL,
    user_id     TEXT        NOT NULL,
    title       TEXT        NOT NULL,
    description TEXT,
    due_at      TIMESTAMPTZ,
    priority    TEXT        NOT NULL CHECK (priority IN ('low', 'medium', 'high')),
    tags        JSONB       NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(tags) = 'array'),
    status      TEXT        NOT NULL CHECK (status IN ('open', 'completed')),
    created_at  TIMESTAMPTZ NOT NULL,
    updated_at  TIMESTAMPTZ NOT NULL
);
CREATE INDEX tasks_user_status_due ON tasks (user_id, status, due_at);
