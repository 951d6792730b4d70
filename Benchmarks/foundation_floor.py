"""The floor: Python's sqlite3 writing the rows a bulk enqueue writes (message, mail_content) into
the same schema with the same pragmas, in batches, then indexing them for search in chunks as the
idle worker does. Prints "<enqueue msg/s> <index msg/s>" (the rows are made before the clock starts)."""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import foundation_data as data

path, schema, count, batch = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
db = data.connect(path, open(schema).read())
rows = list(data.mail_rows(0, count))
start = time.perf_counter()
data.insert_rows(db, rows, batch=batch, search=False)
stored = time.perf_counter()
data.index_all(db)
indexed = time.perf_counter()
db.close()
print(f"{count / (stored - start):.0f} {count / (indexed - stored):.0f}")
