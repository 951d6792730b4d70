-- Outbox schema, version 1. Times are UTC milliseconds since the epoch.
-- Never edit this file once landed: add Migrations/NNNN_name.sql instead.

-- Marks the file as an outbox database (checked before anything else is touched).
CREATE TABLE outbox_meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) STRICT, WITHOUT ROWID;

INSERT INTO outbox_meta (key, value) VALUES ('application', 'outbox');

-- One row per outbox entry, whatever its channel.
CREATE TABLE message (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,   -- small number shown to users, never reused
    uid              TEXT    NOT NULL UNIQUE,             -- UUID: Message-ID, gateway/CUPS reference
    channel          TEXT    NOT NULL CHECK (channel IN ('mail', 'sms', 'print')),
    state            TEXT    NOT NULL CHECK (state IN ('draft', 'queued', 'sending', 'submitted',
                                                       'sent', 'failed', 'cancelled')),
    destination      TEXT,                                -- sink or printer name; NULL = channel default
    group_uid        TEXT,                                -- messages composed together (sms fan-out, share)
    priority         INTEGER NOT NULL DEFAULT 0,          -- higher first
    not_before       INTEGER,                             -- --at
    next_attempt_at  INTEGER,                             -- due time while queued
    attempts         INTEGER NOT NULL DEFAULT 0,          -- attempts spent in the current budget
    max_attempts     INTEGER NOT NULL,
    deadline         INTEGER,                             -- give up after this time
    lost_leases      INTEGER NOT NULL DEFAULT 0,
    lease_owner      TEXT,
    lease_until      INTEGER,
    claim_token      INTEGER NOT NULL DEFAULT 0,          -- fences completion writes
    idempotency_key  TEXT UNIQUE,
    created_at       INTEGER NOT NULL,
    updated_at       INTEGER NOT NULL,
    queued_at        INTEGER,
    finished_at      INTEGER,
    last_error       TEXT,
    remote_id        TEXT                                 -- last accepted remote reference
) STRICT;

CREATE INDEX message_due      ON message (channel, next_attempt_at) WHERE state = 'queued';
-- The claim order: a worker reads due messages by priority, then age, without sorting.
CREATE INDEX message_claim    ON message (channel, priority DESC, id) WHERE state = 'queued';
CREATE INDEX message_leased   ON message (lease_until) WHERE state = 'sending';
CREATE INDEX message_state    ON message (state, id);
CREATE INDEX message_channel  ON message (channel, id);
CREATE INDEX message_created  ON message (created_at);
CREATE INDEX message_group    ON message (group_uid) WHERE group_uid IS NOT NULL;

CREATE TABLE mail_content (
    message_id  INTEGER PRIMARY KEY REFERENCES message (id) ON DELETE CASCADE,
    sender      TEXT,                                     -- From; NULL = config mail.from
    recipients  TEXT NOT NULL,                            -- JSON: {"to":[…],"cc":[…],"bcc":[…],"reply_to":[…]}
    subject     TEXT NOT NULL,
    text_body   TEXT,
    html_body   TEXT,
    headers     TEXT                                      -- JSON array of [name, value]
) STRICT;

CREATE TABLE sms_content (
    message_id  INTEGER PRIMARY KEY REFERENCES message (id) ON DELETE CASCADE,
    sender      TEXT,                                     -- sender id; NULL = sink default
    recipient   TEXT NOT NULL,                            -- E.164
    body        TEXT NOT NULL,
    encoding    TEXT NOT NULL CHECK (encoding IN ('gsm7', 'ucs2')),
    segments    INTEGER NOT NULL
) STRICT;

CREATE INDEX sms_recipient ON sms_content (recipient);

-- A print job: print info and content (page renderer, formatters, items) as one JSON document,
-- whose items, font files and images point at attachment positions.
CREATE TABLE print_job (
    message_id  INTEGER PRIMARY KEY REFERENCES message (id) ON DELETE CASCADE,
    job_name    TEXT NOT NULL,
    spec        TEXT NOT NULL                             -- JSON PrintJob
) STRICT;

-- Content-addressed bytes: stored once however many messages use them.
CREATE TABLE blob (
    sha256      TEXT PRIMARY KEY,
    size        INTEGER NOT NULL,
    data        BLOB NOT NULL
) STRICT;

CREATE TABLE attachment (
    message_id  INTEGER NOT NULL REFERENCES message (id) ON DELETE CASCADE,
    position    INTEGER NOT NULL,
    role        TEXT NOT NULL DEFAULT 'attachment'        -- attachment | item | font | image | rendered
                CHECK (role IN ('attachment', 'item', 'font', 'image', 'rendered')),
    filename    TEXT NOT NULL,
    mime_type   TEXT NOT NULL,
    size        INTEGER NOT NULL,
    sha256      TEXT NOT NULL REFERENCES blob (sha256),
    PRIMARY KEY (message_id, position)
) STRICT, WITHOUT ROWID;

CREATE INDEX attachment_blob ON attachment (sha256);

-- Append-only ledger of delivery attempts.
CREATE TABLE attempt (
    id           INTEGER PRIMARY KEY,
    message_id   INTEGER NOT NULL REFERENCES message (id) ON DELETE CASCADE,
    number       INTEGER NOT NULL,
    started_at   INTEGER NOT NULL,
    finished_at  INTEGER,
    outcome      TEXT NOT NULL CHECK (outcome IN ('sent', 'submitted', 'retry', 'failed', 'offline',
                                                  'uncertain', 'lost_lease', 'released', 'delivered',
                                                  'undelivered')),
    error_class  TEXT CHECK (error_class IN ('permanent', 'transient', 'offline', 'uncertain')),
    code         TEXT,                                    -- e.g. "smtp 550 5.1.1", "http 503"
    detail       TEXT,
    remote_id    TEXT,                                    -- SMTP queue id, gateway id, CUPS job id
    worker       TEXT,
    duration_ms  INTEGER
) STRICT;

CREATE INDEX attempt_message ON attempt (message_id, number);

CREATE TABLE print_result (
    message_id   INTEGER PRIMARY KEY REFERENCES message (id) ON DELETE CASCADE,
    cups_job_id  INTEGER,
    printer      TEXT,
    job_state    TEXT,
    state_reasons TEXT,
    pages        INTEGER,
    pdf_path     TEXT,
    pdf_sha256   TEXT,
    updated_at   INTEGER NOT NULL
) STRICT;

-- Sink health for `status` and the circuit breaker, shared by every worker process.
CREATE TABLE sink_state (
    channel      TEXT NOT NULL,
    sink         TEXT NOT NULL,
    state        TEXT NOT NULL CHECK (state IN ('ok', 'offline')),
    since        INTEGER NOT NULL,
    last_error   TEXT,
    next_probe_at INTEGER,
    PRIMARY KEY (channel, sink)
) STRICT, WITHOUT ROWID;

-- Full-text search over subject, bodies, recipients and job names. Contentless: the text lives
-- in the content tables; rowid = message.id. Deleting a row needs its original values.
CREATE VIRTUAL TABLE message_search USING fts5 (
    subject, body, recipients, job_name,
    content = '',
    tokenize = 'unicode61 remove_diacritics 2'
);
