-- The built-in notes domain (baton-notes; versions V200 and up).

CREATE TABLE notes (
    id         TEXT        NOT NULL PRIMARY KEY,
    tenant_id  TEXT        NOT NULL,
    user_id    TEXT        NOT NULL,
    title      TEXT        NOT NULL,
    content    TEXT        NOT NULL,
    session_id TEXT,
    created_at TIMESTAMPTZ NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX notes_user_created ON notes (tenant_id, user_id, created_at);
