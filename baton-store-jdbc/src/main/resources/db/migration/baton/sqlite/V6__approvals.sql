-- Human approval of tool calls. A turn that stops before a call needing the user's approval keeps its loop state
-- (TurnStateCodec JSON) in paused_turns, so whichever instance receives the decision goes on with it; each held call
-- is a tool_approvals row. Status changes are conditional updates, so one decision wins a race.
-- paused_turns is deleted with its session (its state holds the conversation); tool_approvals is the audit trail of
-- who decided what, when, with which arguments, and outlives the session like message_audit.
CREATE TABLE paused_turns (
    turn_id    TEXT NOT NULL PRIMARY KEY,
    tenant_id  TEXT NOT NULL,
    user_id    TEXT NOT NULL,
    session_id TEXT NOT NULL,
    request_id TEXT NOT NULL,
    state_json TEXT NOT NULL,
    status     TEXT NOT NULL CHECK (status IN ('paused', 'resumed', 'closed')),
    paused_at  TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    ended_at   TEXT
);
CREATE INDEX paused_turns_session ON paused_turns (session_id, status);
CREATE INDEX paused_turns_expiry ON paused_turns (status, expires_at);

CREATE TABLE tool_approvals (
    id                TEXT    NOT NULL PRIMARY KEY,
    turn_id           TEXT    NOT NULL,
    call_index        INTEGER NOT NULL,
    tenant_id         TEXT    NOT NULL,
    user_id           TEXT    NOT NULL,
    session_id        TEXT    NOT NULL,
    tool_call_id      TEXT    NOT NULL,
    tool_name         TEXT    NOT NULL,
    arguments         TEXT    NOT NULL,
    reason            TEXT    NOT NULL,
    status            TEXT    NOT NULL CHECK (status IN ('pending', 'approved', 'denied', 'superseded', 'expired')),
    created_at        TEXT    NOT NULL,
    expires_at        TEXT    NOT NULL,
    decided_at        TEXT,
    decided_by        TEXT,
    decided_arguments TEXT,
    comment           TEXT
);
CREATE INDEX tool_approvals_turn ON tool_approvals (turn_id, call_index);
CREATE INDEX tool_approvals_session ON tool_approvals (tenant_id, session_id, created_at);
