#!/usr/bin/env bash
# Installs everything Outbox needs to build, run and test on Debian 12: the C libraries it links,
# fonts for rendering, and the real servers the tests talk to (aiosmtpd, Postfix's smtp-sink,
# CUPS + cups-pdf, Kannel + fakesmsc) plus the benchmark peers. Safe to run again.
set -euo pipefail

packages=(
  libsqlite3-dev nettle-dev libssl-dev libcurl4-openssl-dev libcups2-dev libpango1.0-dev libcairo2-dev
  libpoppler-glib-dev pkg-config fonts-dejavu-core fonts-noto-cjk
  cups cups-client cups-daemon cups-ipp-utils printer-driver-cups-pdf
  python3-aiosmtpd postfix kannel kannel-extras
  poppler-utils msmtp paps enscript ghostscript openssl curl sqlite3
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "installing: ${missing[*]}" >&2
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  # Postfix is installed only for its smtp-sink test program; never started.
  echo "postfix postfix/main_mailer_type select No configuration" | $SUDO debconf-set-selections
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
