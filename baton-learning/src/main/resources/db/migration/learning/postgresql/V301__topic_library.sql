-- The learning agent's topic library: subjects -> topics -> modules, each found by its name and aliases.
-- Terms are stored normalised (lower case, no accents, words separated by single spaces); pg_trgm's similarity,
-- under a GIN trigram index, finds the terms close to a misspelt query.
--
-- pg_trgm is a trusted extension (PostgreSQL 13+): a user with CREATE on the database may install it. When it is
-- already installed (in any schema), that installation is used: the index and the queries name its schema.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE learning_topics (
    id          TEXT NOT NULL PRIMARY KEY,
    granularity TEXT NOT NULL CHECK (granularity IN ('subject', 'topic', 'module')),
    name        TEXT NOT NULL,
    parent_id   TEXT REFERENCES learning_topics (id),
    summary     TEXT NOT NULL DEFAULT ''
);

CREATE TABLE learning_topic_terms (
    id       BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    topic_id TEXT NOT NULL REFERENCES learning_topics (id),
    term     TEXT NOT NULL,
    UNIQUE (topic_id, term)
);

DO $$
DECLARE
    trgm_schema TEXT;
BEGIN
    SELECT n.nspname INTO trgm_schema
    FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
    WHERE e.extname = 'pg_trgm';
    EXECUTE format('CREATE INDEX learning_topic_terms_trgm ON learning_topic_terms USING gin (term %I.gin_trgm_ops)',
                   trgm_schema);
END
$$;
