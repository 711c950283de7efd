-- The learning agent's topic library: subjects -> topics -> modules, each found by its name and aliases.
-- Terms are stored normalised (lower case, no accents, words separated by single spaces); an FTS5 index with the
-- trigram tokenizer finds candidate terms for a misspelt query, and the search scores them in SQL.

CREATE TABLE learning_topics (
    id          TEXT NOT NULL PRIMARY KEY,
    granularity TEXT NOT NULL CHECK (granularity IN ('subject', 'topic', 'module')),
    name        TEXT NOT NULL,
    parent_id   TEXT REFERENCES learning_topics (id),
    summary     TEXT NOT NULL DEFAULT ''
);

-- id is the FTS index's rowid: as an INTEGER PRIMARY KEY it survives VACUUM
CREATE TABLE learning_topic_terms (
    id       INTEGER PRIMARY KEY,
    topic_id TEXT    NOT NULL REFERENCES learning_topics (id),
    term     TEXT    NOT NULL,
    UNIQUE (topic_id, term)
);

CREATE VIRTUAL TABLE learning_topic_terms_fts USING fts5(
    term, content = 'learning_topic_terms', content_rowid = 'id', tokenize = 'trigram'
);

CREATE TRIGGER learning_topic_terms_ai AFTER INSERT ON learning_topic_terms BEGIN
    INSERT INTO learning_topic_terms_fts (rowid, term) VALUES (new.id, new.term);
END;
CREATE TRIGGER learning_topic_terms_ad AFTER DELETE ON learning_topic_terms BEGIN
    INSERT INTO learning_topic_terms_fts (learning_topic_terms_fts, rowid, term) VALUES ('delete', old.id, old.term);
END;
CREATE TRIGGER learning_topic_terms_au AFTER UPDATE ON learning_topic_terms BEGIN
    INSERT INTO learning_topic_terms_fts (learning_topic_terms_fts, rowid, term) VALUES ('delete', old.id, old.term);
    INSERT INTO learning_topic_terms_fts (rowid, term) VALUES (new.id, new.term);
END;
