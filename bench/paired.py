#!/usr/bin/env python3
"""bench/paired.py — two or more arbiter builds on one input, in paired runs in random order.

Usage:  bench/paired.py ROUNDS FILE BINARY [BINARY...]

Each round runs `BINARY export --format jsonl --jobs 1 -q -o /dev/null FILE` once per binary, in
a fresh random order, and times the whole process. The medians and minimums over the rounds are
printed with each binary's throughput relative to the first (above 1: faster).

Why: `bench/run.sh` runs every tool once per round in a fixed order, and on a shared machine the
place in the round shows in the times (a run right after `--jobs 2` often comes out faster). To
compare two builds of arbiter within a few percent (the 95% targets), pair them and shuffle.
"""
import random
import statistics
import subprocess
import sys
import time


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
            start = time.perf_counter()
            subprocess.run(command, check=True)
            times[binary].append(time.perf_counter() - start)
    first = binaries[0]
    median0, min0 = statistics.median(times[first]), min(times[first])
    for binary in binaries:
        median, least = statistics.median(times[binary]), min(times[binary])
        print(f"{binary}: median {median * 1000:.1f} ms, min {least * 1000:.1f} ms; "
              f"throughput vs the first: {median0 / median:.3f}x (median), "
              f"{min0 / least:.3f}x (min)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
