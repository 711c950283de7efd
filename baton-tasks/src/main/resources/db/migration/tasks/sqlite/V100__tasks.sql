-- The built-in task domain (baton-tasks; versions V100 and up).
-- Timestamps are ISO-8601 UTC text with exactly six fraction digits (as in the core tables), so text order is
-- time order and range filters on due_at are plain comparisons.
-- tags is a JSON array of normalised (trimmed, lower-case) strings; filters use json_each, so matching is exact.

CREATE TABLE tasks (
    id          TEXT NOT NULL PRIMARY KEY,
    tenant_id   TEXT NOT NULL,
    user_id     TEXT NOT NULL,
    title       TEXT NOT NULL,
    description TEXT,
    due_at      TEXT,
    priority    TEXT NOT NULL CHECK (priority IN ('low', 'medium', 'high')),
    tags        TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(tags) AND json_type(tags) = 'array'),
    status      TEXT NOT NULL CHECK (status IN ('open', 'completed')),
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
);
CREATE INDEX tasks_user_status_due ON tasks (user_id, status, due_at);
