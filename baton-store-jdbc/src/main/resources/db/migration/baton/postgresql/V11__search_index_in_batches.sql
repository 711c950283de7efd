-- SQLite's full-text index is now filled in batches (see the SQLite migration of this version). PostgreSQL's stays a
-- generated tsvector column under a GIN index, which its pending list already batches: nothing changes here. The
-- version exists on both dialects so they keep the same numbering.
SELECT 1;
