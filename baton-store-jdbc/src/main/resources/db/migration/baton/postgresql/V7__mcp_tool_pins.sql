-- MCP tool pins: the fingerprint (SHA-256 of description, argument schema and annotations) each external MCP tool
-- had when Baton first saw it. A tool whose fingerprint later differs is disabled until an operator accepts the
-- change (changed_hash becomes pinned_hash). Operator-level data: no tenant or user.
CREATE TABLE mcp_tool_pins (
    server       TEXT        NOT NULL,
    tool         TEXT        NOT NULL,
    pinned_hash  TEXT        NOT NULL,
    pinned_at    TIMESTAMPTZ NOT NULL,
    changed_hash TEXT,
    changed_at   TIMESTAMPTZ,
    PRIMARY KEY (server, tool)
);
