"""The floor: Python's sqlite3 inserting the rows `outbox import` writes, into the same schema
(Migrations/0001_initial.sql) with the same pragmas, in batches. Prints messages/s (the rows are
made before the clock starts: only the inserts are timed)."""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import foundation_data as data

path, schema, count, batch = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
db = data.connect(path, open(schema).read())
rows = list(data.mail_rows(0, count))
start = time.perf_counter()
data.insert_rows(db, rows, batch=batch)
elapsed = time.perf_counter() - start
db.close()
print(f"{count / elapsed:.0f}")
