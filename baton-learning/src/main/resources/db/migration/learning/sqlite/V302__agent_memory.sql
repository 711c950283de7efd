-- The learning agent's memory of each learner: its state (current topic, the question awaiting an answer) and the
-- decision points it recorded; plus the audit of memory resets. Rows older than the retention age are purged by a
-- background job (by updated_at / created_at); the audit stays.

CREATE TABLE learning_agent_state (
    tenant_id           TEXT NOT NULL,
    user_id             TEXT NOT NULL,
    current_topic       TEXT,
    current_granularity TEXT CHECK (current_granularity IN ('subject', 'topic', 'module')),
    pending_question    TEXT,
    updated_at          TEXT NOT NULL,
    PRIMARY KEY (tenant_id, user_id)
);
CREATE INDEX learning_agent_state_updated ON learning_agent_state (updated_at);

CREATE TABLE learning_decisions (
    id         TEXT NOT NULL PRIMARY KEY,
    tenant_id  TEXT NOT NULL,
    user_id    TEXT NOT NULL,
    session_id TEXT,
    decision   TEXT NOT NULL,
    data       TEXT NOT NULL CHECK (json_valid(data) AND json_type(data) = 'object'),
    created_at TEXT NOT NULL
);
CREATE INDEX learning_decisions_learner ON learning_decisions (tenant_id, user_id, created_at);
CREATE INDEX learning_decisions_created ON learning_decisions (created_at);

CREATE TABLE learning_memory_audit (
    id             TEXT NOT NULL PRIMARY KEY,
    tenant_id      TEXT NOT NULL,
    target_user_id TEXT NOT NULL,
    actor_id       TEXT NOT NULL,
    action         TEXT NOT NULL,
    created_at     TEXT NOT NULL
);
CREATE INDEX learning_memory_audit_target ON learning_memory_audit (tenant_id, target_user_id, created_at);
