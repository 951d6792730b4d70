#!/usr/bin/env bash
# SMS through Kannel: 5,000 messages via outbox's KannelSink beside the ceiling Kannel allows —
# one `curl` process sending the same sendsms requests over a reused connection, sequentially
# and two at a time, the faster counting — plus in-process encoding throughput. Prints ours as a
# percentage of the ceiling (the target is 80%).
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

# Built first, so the compiler does not share the two cores with Kannel while it is measured.
cd "$ROOT"
echo "== building the tests (release)"
swift build -c release --build-tests -Xswiftc -enable-testing > "$DIR/build.log" 2>&1 || { tail -30 "$DIR/build.log"; exit 1; }
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
waitfor() { for _ in $(seq "${2:-200}"); do if eval "$1"; then return 0; fi; sleep 0.05; done; echo "timeout: $1" >&2; exit 1; }
/usr/sbin/bearerbox "$DIR/kannel.conf" > "$DIR/bearerbox.out" 2>&1 & PIDS+=($!)
waitfor 'status | grep -q "SMSC connections"'
/usr/lib/kannel/test/fakesmsc -H 127.0.0.1 -r "$SMSC" -i 1 -m 0 '999 123 text hello' > "$DIR/fakesmsc.out" 2>&1 & PIDS+=($!)
waitfor 'status | grep -q "(online"'
/usr/sbin/smsbox "$DIR/kannel.conf" > "$DIR/smsbox.out" 2>&1 & PIDS+=($!)
waitfor 'status | grep -q "smsbox:"'
received() { grep -c "Got message" "$DIR/fakesmsc.out" || true; }

# The peer: one curl process for all messages, its connection kept alive between them (a
# process per message measured curl's start-up, not Kannel). A config file holds the URLs.
URL="http://127.0.0.1:$SEND/cgi-bin/sendsms?username=bench&password=bench-secret&to=%2B4915112345678"
for i in $(seq "$COUNT"); do printf 'url = "%s&text=Benchmark+message+%d"\noutput = "/dev/null"\n' "$URL" "$i"; done > "$DIR/curl.conf"
sent=0; ceiling=0
peer() {  # label, extra curl options…; sets $rate
  local label=$1; shift
  local start end codes accepted
  start=$(date +%s.%N)
  codes=$(curl -s --no-progress-meter -w '%{http_code}\n' "$@" -K "$DIR/curl.conf")
  end=$(date +%s.%N)
  accepted=$(grep -c '^202$' <<< "$codes" || true)
  [ "$accepted" -eq "$COUNT" ] || { echo "curl $label: only $accepted of $COUNT accepted" >&2; exit 1; }
  rate=$(echo "$COUNT / ($end - $start)" | bc)
  echo "curl $label messages=$COUNT seconds=$(echo "scale=2; ($end - $start) / 1" | bc) rate=$rate/s"
  sent=$((sent + COUNT)); waitfor "[ \$(received) -ge $sent ]" 1200
  if [ "$rate" -gt "$ceiling" ]; then ceiling=$rate; fi
}
echo "== ceiling: one curl process, one kept-alive connection, $COUNT messages"
peer sequential; curl1=$rate
echo "== ceiling: one curl process, two kept-alive connections (--parallel-max 2), $COUNT messages"
peer parallel-2 --parallel --parallel-immediate --parallel-max 2; curl2=$rate

echo "== outbox KannelSink, one sink: one lane, then two (the default SMS concurrency), $COUNT messages each"
results=$(OUTBOX_BENCH_KANNEL_URL="http://127.0.0.1:$SEND/cgi-bin/sendsms" OUTBOX_BENCH_KANNEL_USER=bench \
  OUTBOX_BENCH_KANNEL_PASSWORD=bench-secret OUTBOX_BENCH_COUNT=$COUNT OUTBOX_BENCH_ENCODING=2000000 \
  swift test -c release -Xswiftc -enable-testing --skip-build --filter SMSBenchmarkTests 2>&1 | grep "outbox-bench" | sed 's/^outbox-bench //')
echo "$results"
sent=$((sent + 2 * COUNT)); waitfor "[ \$(received) -ge $sent ]" 1200
echo "fakesmsc received $(received) messages in all"
ours() { sed -n "s/^kannel lanes=$1 .* rate=\([0-9]*\)\/s.*/\1/p" <<< "$results"; }
ours1=$(ours 1); ours2=$(ours 2)
[ -n "$ours1" ] && [ -n "$ours2" ] || { echo "no KannelSink figures" >&2; exit 1; }
best=$(( ours1 > ours2 ? ours1 : ours2 ))
echo "one connection:  ours $ours1/s, curl $curl1/s ($((100 * ours1 / curl1))%)"
echo "two connections: ours $ours2/s, curl $curl2/s ($((100 * ours2 / curl2))%)"
echo "outbox KannelSink: $best/s = $((100 * best / ceiling))% of the ceiling ($ceiling/s; target 80%)"
