-- Search indexing moves off the enqueue path: tokenising a 1 KB body for FTS5 costs more than
-- storing the message itself. Messages with id above this mark are stored but not yet in
-- message_search; the worker indexes them when idle and `history --search` catches up first,
-- so a search always sees every message. Until now every message was indexed on insert.
INSERT INTO outbox_meta (key, value)
SELECT 'search_indexed_through', CAST(coalesce(max(id), 0) AS TEXT) FROM message;
