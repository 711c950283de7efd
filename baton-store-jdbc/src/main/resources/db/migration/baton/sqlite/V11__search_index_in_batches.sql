-- Full-text search (V4) indexed each message in the transaction that stored it. FTS5 writes a new index segment for
-- every transaction that changes it, which made a message's commit cost about twice as much CPU and hold the write
-- lock about twice as long. Messages are now indexed in batches (SqliteSearchIndex): by a background job every second,
-- and before every search, so a search still sees every message stored before it. The batch indexes every message
-- whose rowid is above the index's highest. Deletes still go through their trigger; so do content updates, but only
-- for a message already indexed (the next batch takes one that is not).
DROP TRIGGER messages_fts_insert;
DROP TRIGGER messages_fts_update;
CREATE TRIGGER messages_fts_update AFTER UPDATE OF content ON messages BEGIN
    DELETE FROM messages_fts WHERE rowid = old.rowid;
    INSERT INTO messages_fts (rowid, content, message_id)
        SELECT new.rowid, new.content, new.id WHERE new.rowid <= (SELECT coalesce(max(rowid), 0) FROM messages_fts);
END;
