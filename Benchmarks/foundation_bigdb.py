"""Builds a database of N messages straight into the schema (message, mail_content and the FTS
rows), about 2% failed, 1% sent, the rest queued, then checkpoints it."""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import foundation_data as data

path, schema, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
db = data.connect(path, open(schema).read())
db.execute("PRAGMA cache_size = -200000")
states = lambda i: "failed" if i % 50 == 3 else ("sent" if i % 100 == 5 else "queued")
start = time.perf_counter()
data.insert_rows(db, data.mail_rows(0, count, state_of=states), batch=50_000)
db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
db.execute("PRAGMA optimize")
db.close()
print(f"built {count} messages in {time.perf_counter() - start:.1f}s", file=sys.stderr)
