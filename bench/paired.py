#!/usr/bin/env python3
"""bench/paired.py — two or more arbiter builds on one input, in paired runs in random order.

Usage:  bench/paired.py ROUNDS FILE BINARY [BINARY...]

Each round runs `BINARY export --format jsonl --jobs 1 -q -o /dev/null FILE` once per binary, in
a fresh random order, and measures its time. For each binary it prints the median, the tenth
percentile and the minimum, and its throughput relative to the first binary (above 1: faster)
from the medians and from the tenth percentiles. A BINARY written `jobs2:PATH` runs with
`--jobs 2` instead, and one written `peer:PATH` is a program run as `PATH FILE` (the peer). A
BINARY followed by `@INPUT` runs on INPUT instead of FILE (the same build on a plain file and on
its compressed copies, say).

The time is CPU time (user + system), but wall-clock time when some command runs `--jobs 2`
(then CPU time would hide what the second core gains).

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
import time


def run(command: list[str]) -> tuple[float, float]:
    """The wall-clock and CPU (user + system) seconds of one run of `command`."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        raise SystemExit(f"{' '.join(command)} failed (status {status})")
    return wall, usage.ru_utime + usage.ru_stime


def seconds(command: list[str], wall: bool) -> float:
    """The wall-clock time of one run of `command` if `wall`, else its CPU time (user + system)."""
    elapsed, cpu = run(command)
    return elapsed if wall else cpu


def tenth_percentile(times: list[float]) -> float:
    return sorted(times)[(len(times) - 1) // 10]


def command(binary: str, path: str) -> list[str]:
    """The command line a BINARY argument stands for."""
    binary, _, own = binary.partition("@")
    path = own or path
    if binary.startswith("peer:"):
        return [binary.removeprefix("peer:"), path]
    jobs = "2" if binary.startswith("jobs2:") else "1"
    return [binary.removeprefix("jobs2:"), "export", "--format", "jsonl", "--jobs", jobs, "-q",
            "-o", "/dev/null", path]


def main() -> int:
    if len(sys.argv) < 4:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    rounds, path, binaries = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
    wall = any(binary.startswith("jobs2:") for binary in binaries)
    times = {binary: [] for binary in binaries}
    for _ in range(rounds):
        order = binaries[:]
        random.shuffle(order)
        for binary in order:
            times[binary].append(seconds(command(binary, path), wall))
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
