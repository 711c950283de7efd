-- Experiments and feature flags. Operator-level definitions, shared by every instance through this
-- database; each instance caches them for a few seconds.
--
-- experiments: one A/B experiment over a base agent. definition holds the arms (name, agent, weight), triggers and
-- fallback, and is rewritten whole on a weight change, guarded by version (compare-and-set), so two instances rolling
-- back at once change it once.
CREATE TABLE experiments (
    id            TEXT        NOT NULL PRIMARY KEY,
    base_agent_id TEXT        NOT NULL,
    definition    TEXT        NOT NULL,
    version       BIGINT      NOT NULL,
    created_at    TIMESTAMPTZ NOT NULL,
    updated_at    TIMESTAMPTZ NOT NULL
);

-- The arm each session of an experiment was routed to. The session's own agent_id is the arm's agent, so a session
-- finishes on its arm whatever happens to the weights later.
CREATE TABLE experiment_sessions (
    session_id    TEXT        NOT NULL PRIMARY KEY,
    experiment_id TEXT        NOT NULL,
    arm           TEXT        NOT NULL,
    tenant_id     TEXT        NOT NULL,
    user_id       TEXT        NOT NULL,
    started_at    TIMESTAMPTZ NOT NULL
);
CREATE INDEX experiment_sessions_started ON experiment_sessions (experiment_id, started_at);

-- One row per finished turn of a session in an experiment: what ai_usage does not say (the whole turn's latency and
-- whether it failed). Read by the per-arm metrics and the per-user fallback.
CREATE TABLE experiment_turns (
    id            TEXT        NOT NULL PRIMARY KEY,
    experiment_id TEXT        NOT NULL,
    arm           TEXT        NOT NULL,
    session_id    TEXT        NOT NULL,
    tenant_id     TEXT        NOT NULL,
    user_id       TEXT        NOT NULL,
    status        TEXT        NOT NULL,
    latency_ms    BIGINT      NOT NULL,
    created_at    TIMESTAMPTZ NOT NULL
);
-- covering indexes: the per-arm count and the percentile walk read the index only, never the table
CREATE INDEX experiment_turns_arm ON experiment_turns (experiment_id, arm, created_at, status);
CREATE INDEX experiment_turns_arm_latency ON experiment_turns (experiment_id, arm, latency_ms, created_at);
CREATE INDEX experiment_turns_user ON experiment_turns (experiment_id, tenant_id, user_id, created_at);

-- Eval runs attached to an arm (the eval harness reports a pass rate; the accuracy trigger reads the latest).
CREATE TABLE experiment_eval_runs (
    id            TEXT        NOT NULL PRIMARY KEY,
    experiment_id TEXT        NOT NULL,
    arm           TEXT        NOT NULL,
    suite         TEXT        NOT NULL,
    scenarios     INTEGER     NOT NULL,
    passed        INTEGER     NOT NULL,
    recorded_by   TEXT        NOT NULL,
    recorded_at   TIMESTAMPTZ NOT NULL
);
CREATE INDEX experiment_eval_runs_arm ON experiment_eval_runs (experiment_id, arm, recorded_at);

-- Feature flags changed at runtime (the admin endpoint). A row overrides baton.yaml and FF_ variables until removed.
CREATE TABLE feature_flags (
    name       TEXT        NOT NULL PRIMARY KEY,
    percentage INTEGER     NOT NULL CHECK (percentage BETWEEN 0 AND 100),
    updated_by TEXT        NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL
);

-- The operators' audit trail: every experiment created, weight moved, rollback fired and flag changed. Append-only.
CREATE TABLE operator_audit (
    id         TEXT        NOT NULL PRIMARY KEY,
    subject    TEXT        NOT NULL,
    action     TEXT        NOT NULL,
    actor      TEXT        NOT NULL,
    detail     TEXT        NOT NULL,
    created_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX operator_audit_subject ON operator_audit (subject, created_at);
CREATE FUNCTION operator_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'operator_audit is append-only';
END;
$$;
CREATE TRIGGER operator_audit_append_only BEFORE UPDATE OR DELETE ON operator_audit
    FOR EACH ROW EXECUTE FUNCTION operator_audit_append_only();

-- Cost per conversation of an arm joins ai_usage by session.
CREATE INDEX ai_usage_session ON ai_usage (session_id);
