-- Users' tokens for their own accounts on external MCP servers (servers with auth: oauth). sealed holds the access
-- and refresh tokens encrypted with AES-GCM by baton-mcp (it names its key, so keys can be rotated): the database
-- never holds a token in the clear. One row per user and server; every query is keyed by the user.
CREATE TABLE mcp_account_tokens (
    tenant_id    TEXT        NOT NULL,
    user_id      TEXT        NOT NULL,
    server       TEXT        NOT NULL,
    sealed       TEXT        NOT NULL,
    connected_at TEXT        NOT NULL,
    updated_at   TEXT        NOT NULL,
    PRIMARY KEY (tenant_id, user_id, server)
);
