-- Baton core tables (versions V1..V99 belong to baton-store-jdbc; other modules start at V100).
-- Timestamps are ISO-8601 UTC text with exactly six fraction digits, so text order is time order.
-- Costs are decimal text (BigDecimal.toPlainString) so no binary rounding creeps in.

CREATE TABLE sessions (
    id               TEXT    NOT NULL PRIMARY KEY,
    tenant_id        TEXT    NOT NULL,
    user_id          TEXT    NOT NULL,
    agent_id         TEXT    NOT NULL,
    assignment_id    TEXT,
    state            TEXT    NOT NULL CHECK (state IN ('active', 'completed')),
    started_at       TEXT    NOT NULL,
    ended_at         TEXT,
    last_activity_at TEXT    NOT NULL,
    message_count    INTEGER NOT NULL DEFAULT 0,
    tool_call_count  INTEGER NOT NULL DEFAULT 0,
    config_json      TEXT
);
CREATE INDEX sessions_user_agent_state_started ON sessions (user_id, agent_id, state, started_at);
CREATE INDEX sessions_user_started ON sessions (user_id, started_at, id);

CREATE TABLE messages (
    id         TEXT    NOT NULL PRIMARY KEY,
    session_id TEXT    NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    user_id    TEXT    NOT NULL,
    seq        INTEGER NOT NULL,
    role       TEXT    NOT NULL CHECK (role IN ('user', 'assistant')),
    content    TEXT    NOT NULL,
    status     TEXT    NOT NULL,
    model      TEXT,
    created_at TEXT    NOT NULL
);
CREATE UNIQUE INDEX messages_session_seq ON messages (session_id, seq);

CREATE TABLE tool_calls (
    id            TEXT    NOT NULL PRIMARY KEY,
    session_id    TEXT    NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    message_id    TEXT    REFERENCES messages (id) ON DELETE CASCADE,
    tool_name     TEXT    NOT NULL,
    tool_args     TEXT,
    tool_result   TEXT,
    state         TEXT    NOT NULL,
    error_message TEXT,
    started_at    TEXT    NOT NULL,
    completed_at  TEXT,
    duration_ms   INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX tool_calls_session_message ON tool_calls (session_id, message_id);

CREATE TABLE message_audit (
    id               TEXT NOT NULL PRIMARY KEY,
    message_id       TEXT NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
    original_content TEXT NOT NULL,
    redaction_module TEXT,
    redaction_reason TEXT,
    patterns_matched TEXT,
    created_at       TEXT NOT NULL
);
CREATE INDEX message_audit_message ON message_audit (message_id);

CREATE TABLE extractions (
    id         TEXT NOT NULL PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    message_id TEXT,
    module     TEXT NOT NULL,
    type       TEXT NOT NULL,
    data       TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX extractions_session ON extractions (session_id, created_at);

-- No foreign keys: usage rows outlive a deleted conversation, because budgets and billing count them.
CREATE TABLE ai_usage (
    id            TEXT    NOT NULL PRIMARY KEY,
    tenant_id     TEXT,
    user_id       TEXT    NOT NULL,
    session_id    TEXT    NOT NULL,
    message_id    TEXT,
    provider      TEXT,
    model         TEXT    NOT NULL,
    input_tokens  INTEGER NOT NULL,
    output_tokens INTEGER NOT NULL,
    cost_usd      TEXT    NOT NULL,
    latency_ms    INTEGER NOT NULL,
    created_at    TEXT    NOT NULL
);
CREATE INDEX ai_usage_user_created ON ai_usage (user_id, created_at);
CREATE INDEX ai_usage_tenant_created ON ai_usage (tenant_id, created_at);

CREATE TABLE idempotency_keys (
    user_id      TEXT    NOT NULL,
    "key"        TEXT    NOT NULL,
    request_hash TEXT    NOT NULL,
    status       INTEGER NOT NULL,
    response     TEXT,
    created_at   TEXT    NOT NULL,
    PRIMARY KEY (user_id, "key")
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
