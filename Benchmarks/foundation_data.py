"""Shared pieces of the foundation benchmark: the 1 KB mail body, the JSON lines `outbox import`
reads, and inserting the very same rows straight into the schema (the Python sqlite3 floor)."""
import json
import random
import sqlite3
import time
import uuid

WORDS = ("outbox queue mail message deliver invoice minutes meeting agenda report quarterly budget "
         "printer paper letter number phone gateway server retry backoff jitter lease worker sink "
         "status history search attachment document schedule project review draft summary notes "
         "customer order shipment payment receipt reminder update release version change request "
         "approval contract proposal analysis figures revenue forecast team office travel hotel").split()
RARE = "zanzibar"   # in about one message in a thousand
COMMON = "invoice"  # in most messages


_BASES = {}


def body(index, size=1024):
    """About 1 KB of words; 997 word mixes, each made unique by a reference number."""
    key = index % 997
    base = _BASES.get(key)
    if base is None:
        rng = random.Random(key)
        words, length = [], 0
        while length < size - 60:
            word = rng.choice(WORDS)
            words.append(word)
            length += len(word) + 1
        base = _BASES[key] = " ".join(words)
    text = base + (" " + RARE if index % 1000 == 7 else "") + f" ref {index:012d}"
    return text[:size].ljust(size, ".")


def mail_line(index):
    return json.dumps({"channel": "mail", "to": [f"user{index % 5000}@example.org"],
                       "subject": f"Invoice {index} for order {index * 7 % 100000}",
                       "body": body(index)}, separators=(",", ":"))


PRAGMAS = ["PRAGMA journal_mode = WAL", "PRAGMA synchronous = NORMAL", "PRAGMA foreign_keys = ON",
           "PRAGMA busy_timeout = 30000"]


def connect(path, schema_sql=None):
    db = sqlite3.connect(path, isolation_level=None)
    for pragma in PRAGMAS:
        db.execute(pragma)
    if schema_sql is not None:
        # As the Migrator applies it: the file, then its schema_migrations row, in one transaction.
        db.executescript("BEGIN IMMEDIATE;\n" + schema_sql + """
            CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL,
                                                          applied_at INTEGER NOT NULL) STRICT;
            COMMIT;""")
        db.execute("INSERT INTO schema_migrations VALUES (1, '0001_initial.sql', ?)", (int(time.time() * 1000),))
    return db


def mail_rows(start, count, state_of=lambda i: "queued", now=None):
    """The values `outbox import` writes for `mail_line(i)`: its message, mail_content and search rows."""
    now = now or int(time.time() * 1000)
    deadline = now + 120 * 3_600_000
    end = start + count
    for index in range(start, end):
        state = state_of(index)
        queued = state == "queued"
        created = now - (end - index) * 1000
        to = f"user{index % 5000}@example.org"
        subject = f"Invoice {index} for order {index * 7 % 100000}"
        recipients = json.dumps({"to": [to], "cc": [], "bcc": [], "reply_to": []}, separators=(",", ":"))
        message = (str(uuid.uuid4()), state, created if queued else None, deadline if queued else None,
                   created, created, created, None if queued else created)
        yield message, recipients, subject, body(index), to


def insert_rows(db, rows, batch=10_000, search=True):
    """Inserts rows from `mail_rows` in transactions of `batch` messages: the message and
    mail_content rows a bulk enqueue writes, and (with `search`) their full-text rows in the same
    transaction, as a database indexed up to date holds them."""
    rows = iter(rows)
    while True:
        db.execute("BEGIN IMMEDIATE")
        n = 0
        for message, recipients, subject, text, to in rows:
            cursor = db.execute(
                "INSERT INTO message (uid, channel, state, destination, group_uid, priority, not_before, next_attempt_at,"
                " max_attempts, deadline, idempotency_key, created_at, updated_at, queued_at, finished_at)"
                " VALUES (?, 'mail', ?, NULL, NULL, 0, NULL, ?, 10, ?, NULL, ?, ?, ?, ?)", message)
            mid = cursor.lastrowid
            db.execute("INSERT INTO mail_content (message_id, sender, recipients, subject, text_body, html_body, headers)"
                       " VALUES (?, NULL, ?, ?, ?, NULL, NULL)", (mid, recipients, subject, text))
            if search:
                index_row(db, mid, subject, text, to)
            n += 1
            if n == batch:
                break
        db.execute("COMMIT")
        if n < batch:
            return


def index_row(db, mid, subject, text, to):
    db.execute("INSERT INTO message_search (rowid, subject, body, recipients, job_name) VALUES (?, ?, ?, ?, '')",
               (mid, subject, text, to))


def index_all(db, chunk=2_000):
    """Indexes every message for search, a transaction per chunk (as the worker catches up)."""
    last = 0
    while True:
        db.execute("BEGIN IMMEDIATE")
        found = db.execute("SELECT m.id, mc.subject, mc.text_body, mc.recipients FROM message m"
                           " JOIN mail_content mc ON mc.message_id = m.id WHERE m.id > ? ORDER BY m.id LIMIT ?",
                           (last, chunk)).fetchall()
        for mid, subject, text, recipients in found:
            index_row(db, mid, subject, text, " ".join(json.loads(recipients)["to"]))
        db.execute("COMMIT")
        if len(found) < chunk:
            return
        last = found[-1][0]
