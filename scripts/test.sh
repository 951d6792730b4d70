#!/usr/bin/env bash
# The README's test command: installs what the tests need on a fresh Debian 12 machine (C
# libraries, fonts, aiosmtpd, Postfix's smtp-sink, CUPS + cups-pdf, Kannel + fakesmsc), builds,
# and runs the whole suite. The tests start their own servers on loopback and stop them.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
swift build --build-tests
swift test --skip-build "$@"
