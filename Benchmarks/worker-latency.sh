#!/bin/sh
# Enqueue-to-delivered latency with an idle worker and the directory sink: COUNT messages queued
# one by one by `outbox mail` while `outbox worker` runs; latency is each message's last
# attempt finish minus its creation, read from the database. Also the worker's CPU time while
# idle for 10 s (no busy polling), beside `sleep 10` as the floor.
# Usage: Benchmarks/worker-latency.sh [COUNT]   (build first: swift build -c release)
set -eu
N=${1:-1000}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${OUTBOX_BIN:-$ROOT/.build/release/outbox}
T=$(mktemp -d); trap 'kill $WORKER 2>/dev/null || true; rm -rf "$T"' EXIT
export OUTBOX_DB=$T/outbox.sqlite OUTBOX_CONFIG= XDG_DATA_HOME=$T/data XDG_CONFIG_HOME=$T/config
"$BIN" init >/dev/null
"$BIN" worker & WORKER=$!
sleep 1

ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
HZ=$(getconf CLK_TCK)
before=$(ticks $WORKER); sleep 10; after=$(ticks $WORKER)
echo "idle worker: $(echo "scale=2; ($after - $before) * 100 / $HZ / 10" | bc)% CPU over 10 s (target < 1%)"

i=0
while [ $i -lt "$N" ]; do
  "$BIN" mail --to "user$i@example.org" --from me@example.org --subject "latency $i" --body "hello" >/dev/null
  i=$((i + 1))
done
# Wait until every message is delivered.
while [ "$(sqlite3 "$OUTBOX_DB" "SELECT count(*) FROM message WHERE state = 'sent'")" -lt "$N" ]; do sleep 0.1; done
sqlite3 "$OUTBOX_DB" "SELECT a.finished_at - m.created_at FROM message m JOIN attempt a ON a.message_id = m.id WHERE a.outcome = 'sent' ORDER BY 1" > "$T/lat"
p50=$(awk -v n="$N" 'NR == int(n * 0.50) + 1' "$T/lat"); p99=$(awk -v n="$N" 'NR == int(n * 0.99) + 1' "$T/lat")
echo "enqueue-to-delivered over $N messages, directory sink: p50 ${p50} ms, p99 ${p99} ms (targets 50 / 250 ms)"
