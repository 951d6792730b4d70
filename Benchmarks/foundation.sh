#!/usr/bin/env bash
# Foundation benchmark (issue 2): library enqueue throughput beside a Python sqlite3 floor, the
# deferred search indexing that follows it, `outbox import`, one `outbox mail` process, and queries
# on a database of a million messages. Prints a table of figures next to the targets. Sizes can be
# lowered for a quick run:
#   N_IMPORT=20000 N_BIG=100000 Benchmarks/foundation.sh
set -euo pipefail
cd "$(dirname "$0")/.."

N_IMPORT=${N_IMPORT:-100000}   # lines for `outbox import` and the floor
BATCH=${BATCH:-10000}          # messages per batch for the batched enqueue and the floor
N_BIG=${N_BIG:-1000000}        # messages in the query database
MAIL_RUNS=${MAIL_RUNS:-50}
QUERY_RUNS=${QUERY_RUNS:-20}
PY=/usr/bin/python3
HERE=Benchmarks
SCHEMA=Migrations/0001_initial.sql

echo "building release…" >&2
for product in outbox outbox-delivery outbox-enqueue-benchmark; do swift build -c release --product "$product" >&2; done
BIN="$(swift build -c release --show-bin-path)/outbox"
LIBRARY_BENCH="$(swift build -c release --show-bin-path)/outbox-enqueue-benchmark"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/outbox-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
export HOME="$WORK/home" XDG_CONFIG_HOME="$WORK/home/.config" XDG_DATA_HOME="$WORK/home/.local/share"
mkdir -p "$HOME"
unset OUTBOX_CONFIG OUTBOX_DB

now_ns() { date +%s%N; }
rate() { $PY -c "import sys; print(f'{$1 / ($2 / 1e9):.0f}')"; }   # messages/s from a count and nanoseconds
median_ms() { $PY "$HERE/foundation_time.py" "$@"; }                 # RUNS COMMAND…

echo "writing $N_IMPORT JSON lines of 1 KB mails…" >&2
$PY - "$WORK" "$N_IMPORT" "$BATCH" <<'PYEOF'
import os, sys
sys.path.insert(0, "Benchmarks")
import foundation_data as data
work, n, batch = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
with open(os.path.join(work, "all.jsonl"), "w") as all_lines:
    for start in range(0, n, batch):
        with open(os.path.join(work, f"batch-{start // batch:04d}.jsonl"), "w") as part:
            for i in range(start, min(n, start + batch)):
                line = data.mail_line(i) + "\n"
                all_lines.write(line)
                part.write(line)
PYEOF

# 1. Library enqueue: OutboxStore.enqueueBatch in batches of BATCH, then the search index
#    brought up to date (what the idle worker or a first search does). Best of three runs.
echo "library enqueue ($BATCH per batch), three runs…" >&2
LIBRARY=$(for run in 1 2 3; do
    rm -f "$WORK"/library.sqlite*
    "$LIBRARY_BENCH" "$WORK/library.sqlite" "$WORK/all.jsonl" "$BATCH"
done | sort -n | tail -1)
ENQUEUE_RATE=${LIBRARY% *}; INDEX_RATE=${LIBRARY#* }

# 2. The floor: Python sqlite3, same rows, same schema, same pragmas, same batches; then the same
#    search rows. Best of three runs.
echo "python sqlite3 floor, three runs…" >&2
FLOOR=$(for run in 1 2 3; do
    rm -f "$WORK"/floor.sqlite*
    $PY "$HERE/foundation_floor.py" "$WORK/floor.sqlite" "$SCHEMA" "$N_IMPORT" "$BATCH"
done | sort -n | tail -1)
FLOOR_RATE=${FLOOR% *}; FLOOR_INDEX_RATE=${FLOOR#* }

# 3. `outbox import` of N_IMPORT lines in one run (one process, one transaction), then the first
#    search, which indexes them all.
echo "outbox import of $N_IMPORT lines…" >&2
DB1="$WORK/import.sqlite"
"$BIN" --db "$DB1" init >/dev/null
t0=$(now_ns); "$BIN" --db "$DB1" import "$WORK/all.jsonl" >/dev/null; t1=$(now_ns)
IMPORT_RATE=$(rate "$N_IMPORT" $((t1 - t0)))
t0=$(now_ns); "$BIN" --db "$DB1" history --search zanzibar --limit 1 >/dev/null; t1=$(now_ns)
FIRST_SEARCH_MS=$(( (t1 - t0) / 1000000 ))
IMPORT_SIZE=$($PY -c "import os; print(f'{os.path.getsize(\"$DB1\") / $N_IMPORT:.0f}')")
IMPORT_KB=$($PY -c "print(f'{$IMPORT_SIZE / 1024:.2f}')")

# 3b. The same lines as one `outbox import` per batch (process start included).
echo "outbox import per batch of $BATCH…" >&2
DB2="$WORK/batches.sqlite"
"$BIN" --db "$DB2" init >/dev/null
t0=$(now_ns)
for part in "$WORK"/batch-*.jsonl; do "$BIN" --db "$DB2" import "$part" >/dev/null; done
t1=$(now_ns)
BATCH_RATE=$(rate "$N_IMPORT" $((t1 - t0)))

# 4. One `outbox mail` process, on the database from step 1.
echo "outbox mail × $MAIL_RUNS…" >&2
MAIL_MS=$(median_ms "$MAIL_RUNS" "$BIN" --db "$DB1" mail --to ada@example.org --subject "Benchmark" --body "One short mail.")
TRUE_MS=$(median_ms "$MAIL_RUNS" /bin/true)

# 5. A database of N_BIG messages, built straight into the schema.
echo "building a database of $N_BIG messages…" >&2
DB3="$WORK/big.sqlite"
$PY "$HERE/foundation_bigdb.py" "$DB3" "$SCHEMA" "$N_BIG"
BIG_SIZE=$($PY -c "import os; print(f'{os.path.getsize(\"$DB3\") / $N_BIG / 1024:.2f}')")
"$BIN" --db "$DB3" history --limit 1 >/dev/null   # first open: WAL switch, page cache warm
echo "queries on $N_BIG messages…" >&2
FAILED_MS=$(median_ms "$QUERY_RUNS" "$BIN" --db "$DB3" history --state failed --limit 50)
RARE_MS=$(median_ms "$QUERY_RUNS" "$BIN" --db "$DB3" history --search zanzibar --limit 50)
COMMON_MS=$(median_ms "$QUERY_RUNS" "$BIN" --db "$DB3" history --search invoice --limit 50)
SHOW_MS=$(median_ms "$QUERY_RUNS" "$BIN" --db "$DB3" show $((N_BIG / 2)))
HELP_MS=$(median_ms "$QUERY_RUNS" "$BIN" --version)

cat <<TABLE

Outbox foundation benchmark — $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $(uname -m)
measure                                                   figure          target
--------------------------------------------------------  --------------  ---------------
library enqueue of 1 KB mails, batches of $BATCH            $(printf '%8s msg/s' "$ENQUEUE_RATE")  ≥ 50,000 msg/s
  floor: Python sqlite3, same rows/schema/pragmas/batches  $(printf '%8s msg/s' "$FLOOR_RATE")
search indexing after it (idle worker / first search)     $(printf '%8s msg/s' "$INDEX_RATE")
  floor: Python sqlite3, same FTS5 rows                    $(printf '%8s msg/s' "$FLOOR_INDEX_RATE")
outbox import of $N_IMPORT JSON lines, end to end          $(printf '%8s msg/s' "$IMPORT_RATE")  ≥ 20,000 msg/s
  then the first history --search (indexes them all)       $(printf '%8s ms' "$FIRST_SEARCH_MS")
outbox import per batch of $BATCH (a process each)          $(printf '%8s msg/s' "$BATCH_RATE")
one outbox mail process, median of $MAIL_RUNS               $(printf '%8s ms' "$MAIL_MS")     ≤ 15 ms
  (process start floor: /bin/true $TRUE_MS ms, outbox --version $HELP_MS ms)
$N_BIG messages: history --state failed --limit 50       $(printf '%8s ms' "$FAILED_MS")     ≤ 20 ms
$N_BIG messages: history --search WORD --limit 50 (rare) $(printf '%8s ms' "$RARE_MS")     ≤ 100 ms
$N_BIG messages: history --search WORD --limit 50 (common) $(printf '%6s ms' "$COMMON_MS")     ≤ 100 ms
$N_BIG messages: show ID                                 $(printf '%8s ms' "$SHOW_MS")     ≤ 10 ms
DB size per 1 KB message (Python-built, $N_BIG)          $(printf '%8s KB' "$BIG_SIZE")     ≤ 2.5 KB
DB size per 1 KB message (outbox import, $N_IMPORT)       $(printf '%8s KB' "$IMPORT_KB")     ≤ 2.5 KB
TABLE
