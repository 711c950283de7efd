#!/usr/bin/env python3
"""What SQLite's full-text index costs a message's commit: the CPU of one transaction that stores a message (UPDATE
sessions, INSERT messages, as Baton's append does), with the index filled by a trigger in that transaction, with no
index, and filled in batches of 50 or 500 messages (as SqliteSearchIndex does). Python's sqlite3 on a copy of a Baton
database; the Python overhead is the same in every variant, so compare differences, not totals.

usage: baton-bench/profile/fts-commit-cost.py BATON_DB [N]
  BATON_DB: a database Baton wrote (e.g. a run folder's data/baton.db), copied first; N transactions (4000)
  The database's own schema decides the starting point: with V11 applied the insert trigger is gone, and the
  "trigger" variant puts it back.
"""
import os, shutil, sqlite3, sys, time, uuid

SRC = sys.argv[1]
N = int(sys.argv[2]) if len(sys.argv) > 2 else 4000
TRIGGER = """CREATE TRIGGER IF NOT EXISTS messages_fts_insert AFTER INSERT ON messages BEGIN
    INSERT INTO messages_fts (rowid, content, message_id) VALUES (new.rowid, new.content, new.id); END"""
CATCH_UP = """INSERT INTO messages_fts (rowid, content, message_id) SELECT rowid, content, id FROM messages
    WHERE rowid > (SELECT coalesce(max(rowid), 0) FROM messages_fts)"""


def run(variant, every=0):
    path = f'/tmp/fts-commit-cost-{variant}.db'
    for suffix in ('', '-wal', '-shm'):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)
    shutil.copy(SRC, path)
    c = sqlite3.connect(path, isolation_level=None)
    c.execute('pragma journal_mode=wal')
    c.execute('pragma synchronous=normal')
    c.execute('DROP TRIGGER IF EXISTS messages_fts_insert')
    if variant == 'trigger':
        c.execute(TRIGGER)
    c.execute(CATCH_UP)
    c.execute('pragma wal_checkpoint(truncate)')
    sid, uid = c.execute('SELECT id, user_id FROM sessions LIMIT 1').fetchone()
    seq = c.execute('SELECT coalesce(max(seq), 0) FROM messages WHERE session_id = ?', (sid,)).fetchone()[0]
    started = time.process_time()
    for i in range(N):
        seq += 1
        c.execute('BEGIN IMMEDIATE')
        c.execute('UPDATE sessions SET message_count = message_count + 1, last_activity_at = ? WHERE id = ? AND user_id = ?',
                  ('2026-11-27T00:00:00Z', sid, uid))
        c.execute('INSERT INTO messages (id, session_id, user_id, seq, role, content, status, model, created_at)'
                  ' VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
                  (str(uuid.uuid4()), sid, uid, seq, 'assistant',
                   'Added "buy milk" to your tasks. Anything else I can help you with today?', 'complete',
                   'gpt-4o-mini', '2026-11-27T00:00:00Z'))
        c.execute('COMMIT')
        if every and i % every == every - 1:
            c.execute('BEGIN IMMEDIATE')
            c.execute(CATCH_UP)
            c.execute('COMMIT')
    cpu = time.process_time() - started
    name = variant if not every else f'batches of {every}'
    print(f'{name:18s} {cpu / N * 1e6:7.1f} µs CPU per message transaction')


for _ in range(2):
    run('trigger')
    run('none')
    run('batched', 50)
    run('batched', 500)
