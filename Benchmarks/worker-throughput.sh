#!/bin/sh
# Engine throughput: messages claimed and completed per second by one `outbox worker --once`
# with a no-op sink (OUTBOX_TEST_SINK=noop), beside a Python sqlite3 run of the same claim and
# complete statements on the same kind of database. Also peak RSS of the worker.
# Usage: Benchmarks/worker-throughput.sh [COUNT]   (build first: swift build -c release)
set -eu
N=${1:-20000}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${OUTBOX_BIN:-$ROOT/.build/release/outbox}
[ -x "$BIN" ] || BIN=$ROOT/.build/debug/outbox
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export OUTBOX_DB=$T/outbox.sqlite OUTBOX_CONFIG= XDG_DATA_HOME=$T/data

seed() {  # N queued mail messages, inserted the way enqueue does (one transaction)
  rm -f "$1" "$1-wal" "$1-shm"
  "$BIN" --db "$1" init >/dev/null
  /usr/bin/python3 - "$1" "$N" <<'PY'
import sqlite3, sys, uuid, time
db = sqlite3.connect(sys.argv[1], isolation_level=None); n = int(sys.argv[2]); now = int(time.time()*1000)
db.execute("BEGIN IMMEDIATE")
for i in range(n):
    cur = db.execute("INSERT INTO message (uid, channel, state, next_attempt_at, max_attempts, deadline, created_at, updated_at, queued_at) VALUES (?, 'mail', 'queued', ?, 10, ?, ?, ?, ?)",
                     (str(uuid.uuid4()), now, now + 10**9, now, now, now))
    db.execute("INSERT INTO mail_content (message_id, recipients, subject, text_body) VALUES (?, ?, ?, ?)",
               (cur.lastrowid, '{"bcc":[],"cc":[],"reply_to":[],"to":["u@example.org"]}', "s", "b"))
db.execute("COMMIT")
PY
}

seed "$OUTBOX_DB"
START=$(date +%s.%N)
OUTBOX_TEST_SINK=noop /usr/bin/time -f "%M" -o "$T/rss" "$BIN" worker --once --channel mail >/dev/null
END=$(date +%s.%N)
echo "outbox worker: $N messages in $(echo "$END - $START" | bc) s = $(echo "$N / ($END - $START)" | bc) msg/s, peak RSS $(($(cat "$T/rss") / 1024)) MB"

seed "$T/py.sqlite"
/usr/bin/python3 - "$T/py.sqlite" "$N" <<'PY'
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None); n = int(sys.argv[2])
db.execute("PRAGMA journal_mode=WAL"); db.execute("PRAGMA synchronous=NORMAL")
import os
claim = """UPDATE message SET state = 'sending', lease_owner = ?, lease_until = ?, claim_token = claim_token + 1, updated_at = ?
WHERE id IN (SELECT id FROM message INDEXED BY message_claim WHERE state = 'queued' AND channel = 'mail' AND +next_attempt_at <= ? ORDER BY priority DESC, id LIMIT 64)
RETURNING id, claim_token"""
done = 0; t = time.time()
while done < n:
    now = int(time.time()*1000)
    db.execute("BEGIN IMMEDIATE"); rows = db.execute(claim, ("py", now + 60000, now, now)).fetchall(); db.execute("COMMIT")
    if not rows: break
    db.execute("BEGIN IMMEDIATE")
    for (i, tok) in rows:
        db.execute("UPDATE message SET state='sent', attempts=attempts+1, lease_owner=NULL, lease_until=NULL, finished_at=?, updated_at=? WHERE id=? AND claim_token=? AND state='sending'", (now, now, i, tok))
        db.execute("INSERT INTO attempt (message_id, number, started_at, finished_at, outcome, worker) VALUES (?, 1, ?, ?, 'sent', 'py')", (i, now, now))
    db.execute("COMMIT"); done += len(rows)
e = time.time() - t
print(f"python sqlite3 (same statements, claims of 64, as the worker's mail lane): {done} messages in {e:.2f} s = {done/e:.0f} msg/s")
PY
