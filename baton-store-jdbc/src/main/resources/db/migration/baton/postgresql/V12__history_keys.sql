-- Which session a client's conversation history continues, for the OpenAI-compatible door whose clients send the
-- whole history with every message: a digest of the history (never the messages themselves) per user, with the
-- position (seq) of the message it ends with, null for a turn that paused for approval. Also the Responses API's
-- response ids ("response:<turn id>"). One row per turn; deleted with its session.
CREATE TABLE history_keys (
    user_id     TEXT NOT NULL,
    digest      TEXT NOT NULL,
    session_id  TEXT NOT NULL,
    seq         BIGINT,
    recorded_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (user_id, digest)
);
CREATE INDEX history_keys_session ON history_keys (session_id);
CREATE INDEX history_keys_age ON history_keys (recorded_at);
