#!/usr/bin/python3
"""Reads `logs -f --timestamps` output on stdin; for each line, how long after its kubelet
timestamp it arrived here. Prints: lines, seconds, lines/s, mean and p50/p99 latency (ms)."""
import sys
import time
from datetime import datetime, timezone


def stamp_seconds(text):
    base, _, frac = text.rstrip("Z").partition(".")
    t = datetime.strptime(base, "%Y-%m-%dT%H:%M:%S").replace(tzinfo=timezone.utc).timestamp()
    return t + (float("0." + frac) if frac else 0.0)


def main():
    latencies = []
    first = last = None
    for line in sys.stdin:
        now = time.time()
        first = first or now
        last = now
        text = line.split("] ", 1)[1] if line.startswith("[") else line
        latencies.append(now - stamp_seconds(text.split(" ", 1)[0]))
    if not latencies:
        print("no lines")
        return
    latencies.sort()
    n = len(latencies)
    span = max(last - first, 1e-9)
    print("%d lines in %.3f s: %.0f lines/s; latency mean %.2f ms, p50 %.2f ms, p99 %.2f ms" % (
        n, span, n / span, 1000 * sum(latencies) / n, 1000 * latencies[n // 2], 1000 * latencies[int(n * 0.99)]))


if __name__ == "__main__":
    main()
