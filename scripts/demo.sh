#!/usr/bin/env bash
# The README's main command: installs what Outbox needs, builds it, then queues a mail, an SMS
# and a print job and drains them with the worker on the embedded defaults (no config, no
# servers: mail and SMS are captured to directories, print jobs rendered to PDF), and shows the
# history and where everything went. Uses its own data directory so it never touches yours.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
# Two binaries: `outbox` (the fast front end) and `outbox-delivery` (worker, sinks, printing),
# which `outbox` hands over to when a command needs them.
swift build -c release --product outbox
swift build -c release --product outbox-delivery
outbox=".build/release/outbox"

export XDG_DATA_HOME="${DEMO_HOME:-$PWD/.demo}/data"
export XDG_CONFIG_HOME="${DEMO_HOME:-$PWD/.demo}/config"
unset OUTBOX_DB OUTBOX_CONFIG
mkdir -p "$XDG_DATA_HOME"

printf 'Agenda for Monday:\n1. Print run\n2. Mail merge\n' > "$XDG_DATA_HOME/agenda.txt"

echo "== queue a mail, an SMS and a print job"
"$outbox" mail --to "Ada Lovelace <ada@example.org>" --subject "Agenda — 月曜日" \
  --body "Hello Ada, the agenda is attached." --attach "$XDG_DATA_HOME/agenda.txt"
"$outbox" sms --to +4915112345678 --body "Agenda sent by mail. See you Monday!"
"$outbox" print --text-file "$XDG_DATA_HOME/agenda.txt" --job-name "Agenda" \
  --header-left "{title}" --footer-center "page {page} of {pages}" --line-spacing 1.4

echo; echo "== status before draining"
"$outbox" status

echo; echo "== drain with the worker"
"$outbox" worker --once

echo; echo "== history"
"$outbox" history

echo; echo "== where the output went"
find "$XDG_DATA_HOME/outbox/out" -type f | sort
