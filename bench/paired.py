#!/usr/bin/env python3
"""bench/paired.py — two or more arbiter builds on one input, in paired runs in random order.

Usage:  bench/paired.py ROUNDS FILE BINARY [BINARY...]

Each round runs `BINARY export --format jsonl --jobs 1 -q -o /dev/null FILE` once per binary, in
a fresh random order, and measures its CPU time (user + system). For each binary it prints the
median, the tenth percentile and the minimum, and its throughput relative to the first binary
(above 1: faster) from the medians and from the tenth percentiles.

Why: `bench/run.sh` runs every tool once per round in a fixed order, and on a shared machine the
place in the round shows in the times (a run right after `--jobs 2` often comes out faster). To
compare two builds of arbiter within a few percent (the 95% targets), pair them and shuffle. On
this shared machine the times also spread upwards by a third or more when other work runs: the
tenth percentile, the speed the runs reach when left alone, is the steadiest figure. A small input
(16 MB) and many rounds (60 or more) give steadier figures than a few long runs.
"""
import os
import random
import statistics
import subprocess
import sys


def cpu_seconds(command: list[str]) -> float:
    """The CPU time (user + system) of one run of `command`."""
    process = subprocess.Popen(command)
    _, status, usage = os.wait4(process.pid, 0)
    if status != 0:
        raise SystemExit(f"{command[0]} failed (status {status})")
    return usage.ru_utime + usage.ru_stime


def tenth_percentile(times: list[float]) -> float:
    return sorted(times)[(len(times) - 1) // 10]


def main() -> int:
    if len(sys.argv) < 4:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    rounds, path, binaries = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
    times = {binary: [] for binary in binaries}
    for _ in range(rounds):
        order = binaries[:]
        random.shuffle(order)
        for binary in order:
            command = [binary, "export", "--format", "jsonl", "--jobs", "1", "-q", "-o",
                       "/dev/null", path]
            times[binary].append(cpu_seconds(command))
    first = times[binaries[0]]
    median0, low0 = statistics.median(first), tenth_percentile(first)
    for binary in binaries:
        median, low = statistics.median(times[binary]), tenth_percentile(times[binary])
        print(f"{binary}: median {median * 1000:.1f} ms, 10th percentile {low * 1000:.1f} ms, "
              f"min {min(times[binary]) * 1000:.1f} ms; throughput vs the first: "
              f"{median0 / median:.3f}x (medians), {low0 / low:.3f}x (10th percentiles)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
