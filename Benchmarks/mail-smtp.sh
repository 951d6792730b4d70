#!/usr/bin/env bash
# Mail throughput and memory, beside the tool users pick today.
#  1. COUNT (10,000) 1 KB messages to Postfix's smtp-sink on loopback through our SMTP sink
#     (pooled connections, THREADS sending threads), then msmtp one process per message
#     (MSMTP_COUNT of them, 500 by default, extrapolated to a rate).
#  2. One message with a BIG_MB (100) MB attachment to aiosmtpd: peak RSS of the sending process.
# Usage: Benchmarks/mail-smtp.sh   (CONFIG=release for an optimized build)
set -euo pipefail
cd "$(dirname "$0")/.."
COUNT=${COUNT:-10000}
THREADS=${THREADS:-4}
MSMTP_COUNT=${MSMTP_COUNT:-500}
BIG_MB=${BIG_MB:-100}
CONFIG=${CONFIG:-debug}
WORK=$(mktemp -d)
PIDS=()
cleanup() { for pid in "${PIDS[@]}"; do kill -9 "$pid" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT

free_port() { /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_port() { for _ in $(seq 100); do (exec 3<>/dev/tcp/127.0.0.1/"$1") 2>/dev/null && return 0; sleep 0.05; done; echo "port $1 not up" >&2; exit 1; }

swift build -c "$CONFIG" --build-tests -Xswiftc -enable-testing >/dev/null

SINK_PORT=$(free_port)
/usr/sbin/smtp-sink -4 -u nobody 127.0.0.1:"$SINK_PORT" 1024 >/dev/null 2>&1 & PIDS+=($!); disown
wait_port "$SINK_PORT"

echo "== $COUNT x 1 KB messages to smtp-sink (127.0.0.1:$SINK_PORT), $CONFIG build"
OUTBOX_BENCH=1 OUTBOX_BENCH_SMTP_URL="smtp://127.0.0.1:$SINK_PORT" OUTBOX_BENCH_COUNT="$COUNT" OUTBOX_BENCH_THREADS="$THREADS" \
  swift test -c "$CONFIG" --skip-build --filter 'MailBenchmark/throughput' 2>&1 | grep '^RESULT' || { echo "benchmark failed" >&2; exit 1; }

cat > "$WORK/msmtprc" <<RC
account bench
host 127.0.0.1
port $SINK_PORT
auth off
tls off
from outbox@example.org
account default : bench
RC
chmod 600 "$WORK/msmtprc"
{ printf 'From: outbox@example.org\r\nTo: ada@example.org\r\nSubject: Benchmark\r\n\r\n'
  for _ in $(seq 22); do printf 'The quick brown fox jumps over the lazy dog. '; done; printf '\r\n'; } > "$WORK/msg.eml"
start=$(date +%s.%N)
for _ in $(seq "$MSMTP_COUNT"); do msmtp -C "$WORK/msmtprc" -a bench ada@example.org < "$WORK/msg.eml"; done
end=$(date +%s.%N)
python3 -c "s=$end-$start; print(f'RESULT msmtp messages=$MSMTP_COUNT (one process each) seconds={s:.2f} rate={int($MSMTP_COUNT/s)}/s')"

AIO_PORT=$(free_port)
mkdir -p "$WORK/aio"
/usr/bin/python3 Tests/Fixtures/smtp/aiosmtpd_server.py --port "$AIO_PORT" --dir "$WORK/aio" --ready-file "$WORK/aio.ready" & PIDS+=($!); disown
wait_port "$AIO_PORT"
echo "== one message with a $BIG_MB MB attachment to aiosmtpd (127.0.0.1:$AIO_PORT)"
OUTBOX_BENCH=1 OUTBOX_BENCH_BIG_URL="smtp://127.0.0.1:$AIO_PORT" OUTBOX_BENCH_BIG_MB="$BIG_MB" \
  swift test -c "$CONFIG" --skip-build --filter 'MailBenchmark/largeAttachment' 2>&1 | grep '^RESULT' || { echo "benchmark failed" >&2; exit 1; }
echo "(peak RSS is the whole test process, harness included: the attachment adds the difference)"
