-- Durable turns. A running turn is leased to the instance running it: one row per running turn, its lease renewed by
-- that instance's heartbeat (leased_until), each step of the turn writing its state (TurnStateCodec JSON) under the
-- lease's epoch: UPDATE ... WHERE epoch = ?, in the step's own transaction. The turn's answer deletes the row in the
-- answer's transaction. A row whose lease ran out belongs to an instance that died (or stalled): another instance
-- takes it over by raising the epoch (a compare-and-set), and every later write of the old owner, fenced by its epoch,
-- changes nothing. An instance restarted under the same instance_id (a new boot_id) makes its earlier boots' rows
-- takeable at once. principal_json is who the turn runs for, so whoever takes it over runs it as that user; the
-- idempotency key of the request that started it (if any) is settled by whoever finishes it, so a retry of that
-- request replays the answer instead of running the turn again.
CREATE TABLE running_turns (
    turn_id        TEXT   NOT NULL PRIMARY KEY,
    epoch          BIGINT NOT NULL,
    tenant_id      TEXT   NOT NULL,
    user_id        TEXT   NOT NULL,
    session_id     TEXT   NOT NULL,
    request_id     TEXT   NOT NULL,
    agent_id       TEXT   NOT NULL,
    principal_json TEXT   NOT NULL,
    instance_id    TEXT   NOT NULL,
    boot_id        TEXT   NOT NULL,
    leased_until   TIMESTAMPTZ NOT NULL,
    started_at     TIMESTAMPTZ NOT NULL,
    state_json     TEXT   NOT NULL,
    idempotency_owner TEXT,
    idempotency_key   TEXT
);
CREATE INDEX running_turns_lease ON running_turns (leased_until);
CREATE INDEX running_turns_instance ON running_turns (instance_id, boot_id);
CREATE INDEX running_turns_session ON running_turns (session_id);
CREATE INDEX running_turns_idempotency ON running_turns (idempotency_owner, idempotency_key);
