#!/bin/sh
# Print jobs through a private cupsd with cups-pdf queues: COUNT PDFs queued with
# `outbox print FILE --to QUEUE` and delivered by a running `outbox worker` (CUPS jobs end
# `submitted` and the worker follows them until CUPS says `completed`: we time until all are
# `sent`), beside `lp -d QUEUE` submitting the same PDFs and waiting until cups-pdf has written
# every output and `lpstat` shows nothing pending. Prints jobs/s for both.
#
#   Benchmarks/print-cups.sh [COUNT]      (build first: swift build -c release; run as root:
#                                          cups-pdf reads only /etc/cups/cups-pdf-NAME.conf)
set -eu
N=${1:-200}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${OUTBOX_BIN:-$ROOT/.build/release/outbox}
[ -x "$BIN" ] || BIN=$ROOT/.build/debug/outbox
T=$(mktemp -d)
chmod 755 "$T"  # filters run as lp and read the spool under it
TOKEN=obbench$$
CUPSD= WORKER=
cleanup() {
    [ -n "$WORKER" ] && kill "$WORKER" 2>/dev/null && wait "$WORKER" 2>/dev/null
    [ -n "$CUPSD" ] && kill "$CUPSD" 2>/dev/null && wait "$CUPSD" 2>/dev/null
    rm -f "/etc/cups/cups-pdf-${TOKEN}ours.conf" "/etc/cups/cups-pdf-${TOKEN}lp.conf"
    rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

now() { date +%s.%N; }
# poll COMMAND until it succeeds; 600 s deadline.
wait_for() { # what command...
    what=$1; shift
    deadline=$(( $(date +%s) + 600 ))
    until "$@"; do
        [ "$(date +%s)" -lt "$deadline" ] || { echo "timed out waiting for $what" >&2; tail -20 "$T/log/error_log" >&2; exit 1; }
        sleep 0.05
    done
}

# MARK: - A private cupsd, configured as Tests/OutboxTestSupport/CUPSServer.swift does
PORT=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
SOCK=$T/cups.sock
mkdir -p "$T/root" "$T/spool/tmp" "$T/cache" "$T/state" "$T/log" "$T/out-ours" "$T/out-lp" "$T/pdf"
chgrp lp "$T/spool" "$T/spool/tmp" "$T/cache"
chmod 0710 "$T/spool"; chmod 1770 "$T/spool/tmp"; chmod 0770 "$T/cache"
for conf in cups-files.conf cupsd.conf; do
    sed -e "s|@DIR@|$T|g" -e "s|@PORT@|$PORT|g" -e "s|@SOCKET@|$SOCK|g" "$ROOT/Tests/Fixtures/cups/$conf" > "$T/$conf"
done
/usr/sbin/cupsd -f -c "$T/cupsd.conf" -s "$T/cups-files.conf" </dev/null >/dev/null 2>&1 &
CUPSD=$!
wait_for "cupsd" sh -c "lpstat -h '$SOCK' -r 2>/dev/null | grep -q 'is running'"
for q in ours lp; do
    echo "Out $T/out-$q" > "/etc/cups/cups-pdf-$TOKEN$q.conf"
    lpadmin -h "$SOCK" -p "BENCH_$q" -v "cups-pdf:/$TOKEN$q" -P /usr/share/ppd/cups-pdf/CUPS-PDF_opt.ppd -E
done

# MARK: - The same N PDFs for both (two pages of text each, rendered once by outbox)
export OUTBOX_DB=$T/outbox.sqlite OUTBOX_CONFIG=$T/config.json XDG_DATA_HOME=$T/data XDG_CONFIG_HOME=$T/config
cat > "$OUTBOX_CONFIG" <<EOF
{ "print": { "default_destination": "BENCH_ours", "cups": { "server": "$SOCK" } } }
EOF
"$BIN" init >/dev/null
seq 1 120 | sed 's/^/line /' > "$T/text.txt"
"$BIN" render --text-file "$T/text.txt" --out "$T/sample.pdf" >/dev/null
i=1
while [ "$i" -le "$N" ]; do cp "$T/sample.pdf" "$T/pdf/job-$i.pdf"; i=$((i + 1)); done
echo "$N print jobs ($(pdfinfo "$T/sample.pdf" | awk '/^Pages:/ { print $2 }') pages, $(($(stat -c %s "$T/sample.pdf") / 1024)) KB each) through cupsd + cups-pdf"

sent() { [ "$(sqlite3 -cmd ".timeout 2000" "$OUTBOX_DB" "SELECT count(*) FROM message WHERE state = 'sent'")" -ge "$N" ] 2>/dev/null; }
outputs() { [ "$(find "$1" -name '*.pdf' | wc -l)" -ge "$N" ]; }
report() { # name start queued end
    awk -v n="$1" -v s="$2" -v q="$3" -v e="$4" -v c="$N" 'BEGIN {
        printf "%-28s submit %6.2f s (%6.1f jobs/s)   all done %6.2f s = %6.1f jobs/s\n", n, q - s, c / (q - s), e - s, c / (e - s) }'
}

# MARK: - outbox: print … --to QUEUE, a running worker, until every message is `sent`
"$BIN" worker >"$T/worker.log" 2>&1 &
WORKER=$!
START=$(now)
i=1
while [ "$i" -le "$N" ]; do "$BIN" print "$T/pdf/job-$i.pdf" --to BENCH_ours >/dev/null; i=$((i + 1)); done
QUEUED=$(now)
wait_for "outbox messages sent" sent
END=$(now)
report "outbox print + worker" "$START" "$QUEUED" "$END"
wait_for "cups-pdf outputs (outbox)" outputs "$T/out-ours"
sqlite3 "$OUTBOX_DB" "SELECT state, count(*) FROM message GROUP BY state" | grep -v '^sent|' | sed 's/^/  not sent: /' || true
kill "$WORKER"; wait "$WORKER" 2>/dev/null || true; WORKER=

# MARK: - lp -d QUEUE, until cups-pdf wrote every output and nothing is pending
none_pending() { [ -z "$(lpstat -h "$SOCK" -o BENCH_lp 2>/dev/null)" ] && outputs "$T/out-lp"; }
START=$(now)
i=1
while [ "$i" -le "$N" ]; do lp -h "$SOCK" -d BENCH_lp "$T/pdf/job-$i.pdf" >/dev/null; i=$((i + 1)); done
QUEUED=$(now)
wait_for "lp jobs printed" none_pending
END=$(now)
report "lp -d QUEUE" "$START" "$QUEUED" "$END"
