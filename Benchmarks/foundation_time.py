"""Runs a command R times and prints the median wall time in milliseconds (and its exit codes)."""
import os
import statistics
import subprocess
import sys
import time

runs = int(sys.argv[1])
stdin_text = os.environ.get("BENCH_STDIN")
command = sys.argv[2:]
times = []
for _ in range(runs):
    start = time.perf_counter()
    result = subprocess.run(command, input=(stdin_text or "").encode(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    times.append((time.perf_counter() - start) * 1000)
    if result.returncode != 0:
        print(f"command failed with exit {result.returncode}: {' '.join(command)}", file=sys.stderr)
        sys.exit(1)
print(f"{statistics.median(times):.1f}")
