#!/usr/bin/env bash
# bench/memory.sh — peak memory of arbiter export on the inputs that make it grow, one or more builds.
#
# Usage:  bench/memory.sh [BINARY...]     (from any directory; default: target/release/arbiter)
#
# Environment:
#   ARBITER_TESTDATA  the shared test data (default /work/shared/testdata)
#   BIG_MB            size of the lichess-style input, in MB (default 1000; 0 skips it)
#   CASES             a regular expression: only the cases whose name matches run (default: all)
#   TMPDIR            where the inputs are made (default /tmp)
#
# Needs python3 and GNU time (`/usr/bin/time`, Debian package `time`).
#
# What it does: makes, in a temporary folder removed on exit,
#   - tiny.pgn: 1,000,000 games of one token each (`*` a line, 2 MB): each game's record is
#     hundreds of times the size of its input, so the output of a part is what grows;
#   - fen60.pgn: one game whose FEN tag value is 60 MiB;
#   - tag63.pgn: one game whose Event tag value is 63 MiB (just under the 64 MiB game limit);
#   - big.pgn: the shared lichess sample repeated up to BIG_MB (an ordinary archive);
# then runs `BINARY export` on each with `--jobs 1` and `--jobs 2`, as JSON Lines to /dev/null and
# as Parquet to a file (tiny.pgn also with 100 extra `--tags`), under `/usr/bin/time -v`, and prints
# a Markdown table of the peak resident set (MB) and the wall-clock time of each run, one column
# pair per BINARY.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DATA=${ARBITER_TESTDATA:-/work/shared/testdata}/corpora
BIG_MB=${BIG_MB:-1000}
CASES=${CASES:-.}
BINARIES=("$@")
[ ${#BINARIES[@]} -gt 0 ] || BINARIES=("$ROOT/target/release/arbiter")
for binary in "${BINARIES[@]}"; do
    [ -x "$binary" ] || { echo "bench/memory.sh: no binary at $binary (build it first)" >&2; exit 2; }
done
for tool in python3 /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "bench/memory.sh: $tool is missing" >&2; exit 2; }
done

TMP=$(mktemp -d "${TMPDIR:-/tmp}/arbiter-memory.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

echo "making inputs in $TMP..." >&2
python3 - "$TMP" <<'EOF'
import sys
tmp = sys.argv[1]
with open(f"{tmp}/tiny.pgn", "w") as f:
    f.write("*\n" * 1_000_000)
with open(f"{tmp}/fen60.pgn", "w") as f:
    f.write('[FEN "' + "x" * (60 << 20) + '"]\n\n*\n')
with open(f"{tmp}/tag63.pgn", "w") as f:
    f.write('[Event "' + "x" * (63 << 20) + '"]\n\n*\n')
with open(f"{tmp}/tags.txt", "w") as f:
    f.write(",".join(f"Extra{i}" for i in range(100)))
EOF
if [ "$BIG_MB" -gt 0 ]; then
    sample=$DATA/samples/lichess_db_1000k.pgn
    copies=$(((BIG_MB * 1000000 + $(stat -c %s "$sample") - 1) / $(stat -c %s "$sample")))
    for _ in $(seq "$copies"); do cat "$sample"; done >"$TMP/big.pgn"
fi
TAGS=$(cat "$TMP/tags.txt")

# The cases: name, input, export options.
CASE_LIST=(
    "tiny jsonl|tiny.pgn|--format jsonl -o /dev/null"
    "tiny parquet|tiny.pgn|--format parquet -o $TMP/out.parquet"
    "tiny jsonl, 100 --tags|tiny.pgn|--format jsonl -o /dev/null --tags $TAGS"
    "tiny parquet, 100 --tags|tiny.pgn|--format parquet -o $TMP/out.parquet --tags $TAGS"
    "fen60 jsonl|fen60.pgn|--format jsonl -o /dev/null"
    "fen60 parquet|fen60.pgn|--format parquet -o $TMP/out.parquet"
    "tag63 jsonl|tag63.pgn|--format jsonl -o /dev/null"
    "tag63 parquet|tag63.pgn|--format parquet -o $TMP/out.parquet"
    "lichess ${BIG_MB} MB jsonl|big.pgn|--format jsonl -o /dev/null"
    "lichess ${BIG_MB} MB parquet|big.pgn|--format parquet -o $TMP/out.parquet"
)

header="| input, output | jobs |"
rule="| --- | ---: |"
for binary in "${BINARIES[@]}"; do
    header+=" $(basename "$binary") peak (MB) | time (s) |"
    rule+=" ---: | ---: |"
done
echo "$header"
echo "$rule"
for case in "${CASE_LIST[@]}"; do
    IFS='|' read -r name input options <<<"$case"
    [[ $name =~ $CASES ]] || continue
    [ -f "$TMP/$input" ] || continue
    for jobs in 1 2; do
        row="| $name | $jobs |"
        for binary in "${BINARIES[@]}"; do
            # shellcheck disable=SC2086 # the options are words
            /usr/bin/time -v "$binary" export $options --jobs "$jobs" -q "$TMP/$input" \
                >/dev/null 2>"$TMP/time.txt" || true
            kb=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$TMP/time.txt")
            wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$TMP/time.txt")
            seconds=$(echo "$wall" | awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; printf "%.1f", s }')
            row+=" $(awk -v kb="$kb" 'BEGIN { printf "%.1f", kb / 1024 }') | $seconds |"
        done
        echo "$row"
    done
done
