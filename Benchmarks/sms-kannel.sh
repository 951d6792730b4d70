#!/usr/bin/env bash
# SMS through Kannel: 5,000 messages via outbox's KannelSink beside a plain `curl` loop posting
# the same messages to sendsms (the ceiling Kannel allows), plus in-process encoding throughput.
# Starts bearerbox + fakesmsc + smsbox on free loopback ports in a temp dir; stops them after.
#   usage: Benchmarks/sms-kannel.sh [COUNT]      (release build of the tests: a few minutes cold)
set -euo pipefail
COUNT=${1:-5000}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DIR=$(mktemp -d /tmp/outbox-bench-kannel.XXXXXX)
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; sleep 0.5
            for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null || true; done; rm -rf "$DIR"; }
trap cleanup EXIT
port() { /usr/bin/python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])'; }
ADMIN=$(port); BOX=$(port); SMSC=$(port); SEND=$(port)
cat > "$DIR/kannel.conf" <<CONF
group = core
admin-port = $ADMIN
admin-interface = 127.0.0.1
admin-password = bench
status-password = bench
smsbox-port = $BOX
smsbox-interface = 127.0.0.1
box-allow-ip = 127.0.0.1
log-file = "$DIR/bearerbox.log"
log-level = 2
dlr-storage = internal

group = smsc
smsc = fake
smsc-id = fake
our-host = 127.0.0.1
port = $SMSC
connect-allow-ip = 127.0.0.1

group = smsbox
bearerbox-host = 127.0.0.1
bearerbox-port = $BOX
sendsms-port = $SEND
sendsms-interface = 127.0.0.1
global-sender = 12345
log-file = "$DIR/smsbox.log"
log-level = 2

group = sendsms-user
username = bench
password = bench-secret
max-messages = 10

group = sms-service
keyword = default
text = "ok"
CONF
status() { curl -s "http://127.0.0.1:$ADMIN/status.txt?password=bench" || true; }
waitfor() { for _ in $(seq 200); do if eval "$1"; then return 0; fi; sleep 0.05; done; echo "timeout: $1" >&2; exit 1; }
/usr/sbin/bearerbox "$DIR/kannel.conf" > "$DIR/bearerbox.out" 2>&1 & PIDS+=($!)
waitfor 'status | grep -q "SMSC connections"'
/usr/lib/kannel/test/fakesmsc -H 127.0.0.1 -r "$SMSC" -i 1 -m 0 '999 123 text hello' > "$DIR/fakesmsc.out" 2>&1 & PIDS+=($!)
waitfor 'status | grep -q "(online"'
/usr/sbin/smsbox "$DIR/kannel.conf" > "$DIR/smsbox.out" 2>&1 & PIDS+=($!)
waitfor 'status | grep -q "smsbox:"'
received() { grep -c "Got message" "$DIR/fakesmsc.out" || true; }

echo "== peer: curl, one process per message, $COUNT messages"
start=$(date +%s.%N)
for i in $(seq "$COUNT"); do
  curl -s -o /dev/null "http://127.0.0.1:$SEND/cgi-bin/sendsms?username=bench&password=bench-secret&to=%2B4915112345678&text=Benchmark+message+$i"
done
end=$(date +%s.%N)
echo "curl-loop messages=$COUNT seconds=$(echo "$end - $start" | bc) rate=$(echo "$COUNT / ($end - $start)" | bc)/s"
waitfor "[ \$(received) -ge $COUNT ]"

echo "== outbox KannelSink (one pooled, kept-alive connection), $COUNT messages"
cd "$ROOT"
swift build -c release --build-tests -Xswiftc -enable-testing > "$DIR/build.log" 2>&1 || { tail -30 "$DIR/build.log"; exit 1; }
OUTBOX_BENCH_KANNEL_URL="http://127.0.0.1:$SEND/cgi-bin/sendsms" OUTBOX_BENCH_KANNEL_USER=bench \
OUTBOX_BENCH_KANNEL_PASSWORD=bench-secret OUTBOX_BENCH_COUNT=$COUNT OUTBOX_BENCH_ENCODING=2000000 \
  swift test -c release -Xswiftc -enable-testing --skip-build --filter SMSBenchmarkTests 2>&1 | grep "outbox-bench" | sed 's/^outbox-bench //'
waitfor "[ \$(received) -ge $((COUNT * 2)) ]"
echo "fakesmsc received $(received) messages in all"
