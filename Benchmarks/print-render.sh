#!/bin/sh
# Renders the same plain-text document (default 500 pages) with outbox's Pango/Cairo renderer
# and with the peers `enscript | ps2pdf` and `paps | ps2pdf`; prints pages/s, file size, peak
# RSS and whether pdftotext reads the text back.
#
#   Benchmarks/print-render.sh [PAGES] [PAPS_PAGES]      (CONFIG=release for an optimised build)
#
# Ours is `outbox render` (the CLI, handing over to outbox-delivery): the same process start,
# file read and PDF write a user gets, like the peers' command lines. The figure to compare is
# the first line, with a `{page} / {pages}` footer (two passes: the count comes first); the
# second is the one-pass path for a footer without `{pages}`.
# Debian's paps writes PostScript with glyphs as outlines: slow and large, so it gets fewer
# pages (default 60) and its pages/s are what to compare.
set -eu
PAGES=${1:-500}
PAPS_PAGES=${2:-60}
CONFIG=${CONFIG:-debug}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# 66 lines a page: what enscript's default 10 pt Courier fits on A4.
awk -v n="$((PAGES * 66))" 'BEGIN { for (i = 1; i <= n; i++) printf "%06d The quick brown fox jumps over the lazy dog, again and again ok.\n", i }' > "$WORK/text.txt"
head -n "$((PAPS_PAGES * 66))" "$WORK/text.txt" > "$WORK/paps.txt"

measure() { # name output.pdf command...
    name=$1; out=$2; shift 2
    start=$(date +%s.%N)
    /usr/bin/time -f "%M" -o "$WORK/rss" "$@" >/dev/null 2>&1
    end=$(date +%s.%N)
    pages=$(pdfinfo "$out" | awk '/^Pages:/ { print $2 }')
    size=$(stat -c %s "$out")
    readable=$(pdftotext -l 1 "$out" - | grep -c "quick brown fox" || true)
    awk -v n="$name" -v s="$start" -v e="$end" -v p="$pages" -v b="$size" -v r="$(cat "$WORK/rss")" -v t="$readable" 'BEGIN {
        d = e - s; printf "%-22s %5d pages %7.2f s %8.1f pages/s %8.0f KB %7.1f MB peak RSS  text: %s\n", n, p, d, p / d, b / 1024, r / 1024, (t > 0 ? "yes" : "no") }'
}

cd "$ROOT"
swift build -c "$CONFIG" >"$WORK/build.log" 2>&1 || { tail -30 "$WORK/build.log"; exit 1; }
BIN=$(swift build -c "$CONFIG" --show-bin-path)/outbox
export OUTBOX_DB="$WORK/outbox.sqlite" OUTBOX_CONFIG= XDG_DATA_HOME="$WORK/data" XDG_CONFIG_HOME="$WORK/config"

echo "plain text, A4: $PAGES pages (paps: $PAPS_PAGES), $CONFIG build"
measure "outbox (pango/cairo)" "$WORK/outbox.pdf" "$BIN" render --text-file "$WORK/text.txt" --out "$WORK/outbox.pdf" \
    --job-name benchmark --font 'DejaVu Sans Mono 9' --line-spacing 1 --insets 36 --footer-height 20 --footer-center '{page} / {pages}'
# The same without {pages}: one pass, each page drawn as soon as it is laid out.
measure "outbox, {page} only" "$WORK/outbox1.pdf" "$BIN" render --text-file "$WORK/text.txt" --out "$WORK/outbox1.pdf" \
    --job-name benchmark --font 'DejaVu Sans Mono 9' --line-spacing 1 --insets 36 --footer-height 20 --footer-center '{page}'
measure "enscript | ps2pdf" "$WORK/enscript.pdf" sh -c "enscript -q -M A4 -p - '$WORK/text.txt' | ps2pdf - '$WORK/enscript.pdf'"
measure "paps | ps2pdf" "$WORK/paps.pdf" sh -c "paps --paper a4 '$WORK/paps.txt' | ps2pdf - '$WORK/paps.pdf'"
