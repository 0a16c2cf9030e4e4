#!/usr/bin/env bash
# bench/run.sh — arbiter against its yardsticks, whole process, side by side, in one run.
#
# Usage:  bench/run.sh [ROUNDS]          (from any directory; ROUNDS defaults to 5)
#
# Environment:
#   ARBITER_TESTDATA  the shared test data (default /work/shared/testdata)
#   BIG_MB            size of the big input for the memory check, in MB (default 1024; 0 skips it)
#   PERFT_DEPTH       perft depth from the start position (default 6)
#   BASELINE          an arbiter binary to compare export with (say, one built before a change):
#                     its export jsonl --jobs 1 joins the lichess×64 and master×8 groups
#   TMPDIR            where the concatenated corpora are made (default /tmp)
#
# Needs cargo, hyperfine, python3, GNU time (`/usr/bin/time`, Debian package `time`) and
# pgn-extract (Debian package `pgn-extract`, installed in /usr/games).
#
# What it does:
#   1. builds `arbiter`, the yardstick (`bench/yardstick`, pgn-reader 0.29 + shakmaty 0.30) and
#      the peer (`bench/peer-shakmaty` of the shared data, the strongest plain pgn-reader +
#      shakmaty program for the main-line work, built from a copy in target/) in release mode;
#   2. makes, in a temporary folder removed on exit: master×8 (the 13,163 pgnmentor master games
#      concatenated 8 times), lichess×64 (the lichess sample, with its %clk/%eval comments, 64
#      times), a 10 MB file and a ~BIG_MB file for the peak-memory check;
#   3. runs the tools alternately: ROUNDS hyperfine invocations (`--export-json`), each timing
#      every command of a group once, so that the load of a shared machine falls on all of them
#      alike; the table shows medians over the rounds;
#   4. measures peak RSS with `/usr/bin/time -v` on the 10 MB and the big file;
#   5. prints a Markdown table: games/s, plies/s, MB/s, peak RSS, and the ratios (arbiter export
#      vs the yardstick, --jobs 2 vs --jobs 1, arbiter validate vs `pgn-extract -r`, perft, ply
#      rows per second, Parquet game rows vs JSON Lines, and BASELINE's export vs this one's).
set -euo pipefail

ROUNDS=${1:-5}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DATA=${ARBITER_TESTDATA:-/work/shared/testdata}/corpora
BIG_MB=${BIG_MB:-1024}
PERFT_DEPTH=${PERFT_DEPTH:-6}
PGN_EXTRACT=$(command -v pgn-extract || echo /usr/games/pgn-extract)

for tool in cargo hyperfine python3 /usr/bin/time "$PGN_EXTRACT"; do
    command -v "$tool" >/dev/null || { echo "bench/run.sh: $tool is missing" >&2; exit 2; }
done

echo "building release binaries..." >&2
(cd "$ROOT" && cargo build --release --quiet)
(cd "$ROOT/bench/yardstick" && cargo build --release --quiet)
PEER_SRC=$(cd "$DATA/../.." && pwd)/bench/peer-shakmaty
[ -d "$PEER_SRC" ] || { echo "bench/run.sh: the peer is missing at $PEER_SRC" >&2; exit 2; }
rm -rf "$ROOT/target/peer-shakmaty" && cp -r "$PEER_SRC" "$ROOT/target/peer-shakmaty"
(cd "$ROOT/target/peer-shakmaty" && cargo build --release --quiet)
PEER=$ROOT/target/peer-shakmaty/target/release/peer-shakmaty
ARBITER=$ROOT/target/release/arbiter
YARDSTICK=$ROOT/bench/yardstick/target/release/yardstick

TMP=$(mktemp -d "${TMPDIR:-/tmp}/arbiter-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

echo "making corpora in $TMP..." >&2
cat "$DATA"/pgnmentor-players/*.pgn >"$TMP/master1.pgn"
for _ in $(seq 8); do cat "$TMP/master1.pgn"; done >"$TMP/master8.pgn"
for _ in $(seq 64); do cat "$DATA/samples/lichess_db_1000k.pgn"; done >"$TMP/lichess64.pgn"
for _ in $(seq 10); do cat "$DATA/samples/lichess_db_1000k.pgn"; done >"$TMP/10mb.pgn"
if [ "$BIG_MB" -gt 0 ]; then
    copies=$(((BIG_MB * 1000000 + $(stat -c %s "$TMP/master1.pgn") - 1) / $(stat -c %s "$TMP/master1.pgn")))
    for _ in $(seq "$copies"); do cat "$TMP/master1.pgn"; done >"$TMP/big.pgn"
fi

# Games and plies of each corpus, as the yardstick counts them (arbiter agrees; see the tests).
for corpus in master8 lichess64; do
    "$YARDSTICK" "$TMP/$corpus.pgn" >"$TMP/$corpus.counts"
done

export_cmd() { echo "$ARBITER export --format jsonl --jobs $1 -o /dev/null $2"; }

echo "timing, $ROUNDS rounds..." >&2
for round in $(seq "$ROUNDS"); do
    for corpus in master8 lichess64; do
        f=$TMP/$corpus.pgn
        base=()
        if [ -n "${BASELINE:-}" ]; then
            base=(-n baseline "$BASELINE export --format jsonl --jobs 1 -o /dev/null $f")
        fi
        hyperfine --style none -N --runs 1 --export-json "$TMP/$corpus.$round.json" \
            -n yardstick "$YARDSTICK $f" \
            -n peer "$PEER $f" \
            -n "arbiter --jobs 1" "$(export_cmd 1 "$f")" \
            -n "arbiter --jobs 2" "$(export_cmd 2 "$f")" \
            "${base[@]}" >/dev/null
    done
    f=$TMP/lichess64.pgn
    hyperfine --style none -N --runs 1 --export-json "$TMP/analytics.$round.json" \
        -n "games jsonl" "$(export_cmd 1 "$f")" \
        -n "games parquet" "$ARBITER export --format parquet --jobs 1 -o $TMP/games.parquet $f" \
        -n "plies jsonl" "$ARBITER export --plies --format jsonl --jobs 1 -o /dev/null $f" \
        -n "plies parquet" "$ARBITER export --plies --jobs 1 -o $TMP/plies.parquet $f" >/dev/null
    hyperfine --style none -N -i --runs 1 --export-json "$TMP/validate.$round.json" \
        -n "pgn-extract -r" "$PGN_EXTRACT -r $TMP/master8.pgn" \
        -n "arbiter validate --jobs 1" "$ARBITER validate --jobs 1 $TMP/master8.pgn" \
        -n "arbiter validate --jobs 2" "$ARBITER validate --jobs 2 $TMP/master8.pgn" >/dev/null
    hyperfine --style none -N --runs 1 --export-json "$TMP/perft.$round.json" \
        -n "shakmaty perft" "$YARDSTICK --perft $PERFT_DEPTH" \
        -n "arbiter perft" "$ARBITER perft $PERFT_DEPTH" >/dev/null
done

echo "measuring peak memory..." >&2
rss() { # name file command...
    local name=$1 file=$2
    shift 2
    /usr/bin/time -v "$@" >/dev/null 2>"$TMP/time.txt" || true
    echo "$name $file $(awk -F': ' '/Maximum resident set size/ {print $2}' "$TMP/time.txt")" >>"$TMP/rss.txt"
}
: >"$TMP/rss.txt"
for file in 10mb big; do
    [ -f "$TMP/$file.pgn" ] || continue
    rss yardstick "$file" "$YARDSTICK" "$TMP/$file.pgn"
    rss "arbiter --jobs 1" "$file" $(export_cmd 1 "$TMP/$file.pgn")
    rss "arbiter --jobs 2" "$file" $(export_cmd 2 "$TMP/$file.pgn")
    rss "arbiter --plies parquet --jobs 2" "$file" \
        "$ARBITER" export --plies --jobs 2 -o "$TMP/plies.parquet" "$TMP/$file.pgn"
done

python3 - "$TMP" "$ROUNDS" "$PERFT_DEPTH" <<'EOF'
import json, os, statistics, sys

tmp, rounds, depth = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])

def medians(group):
    times = {}
    for r in range(1, rounds + 1):
        with open(f"{tmp}/{group}.{r}.json") as f:
            for res in json.load(f)["results"]:
                times.setdefault(res["command"], []).extend(res["times"])
    return {name: statistics.median(ts) for name, ts in times.items()}

def counts(corpus):
    with open(f"{tmp}/{corpus}.counts") as f:
        fields = dict(kv.split("=") for kv in f.read().split())
    return int(fields["games"]), int(fields["plies"])

print(f"Medians of {rounds} alternating rounds; whole process, wall clock.\n")
print("| corpus | tool | time (s) | games/s | plies/s | MB/s | vs yardstick |")
print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
ratios = []
for corpus, label in [("master8", "master×8"), ("lichess64", "lichess×64")]:
    games, plies = counts(corpus)
    mb = os.path.getsize(f"{tmp}/{corpus}.pgn") / 1e6
    m = medians(corpus)
    base = m["yardstick"]
    for name, t in m.items():
        print(f"| {label} | {name} | {t:.3f} | {games / t:,.0f} | {plies / t / 1e6:.2f} M "
              f"| {mb / t:.1f} | {base / t:.2f}x |")
    ratios.append((f"{label}: arbiter --jobs 1 vs yardstick",
                   base / m["arbiter --jobs 1"]))
    ratios.append((f"{label}: arbiter --jobs 1 vs peer (target ≥ 1.5x)",
                   m["peer"] / m["arbiter --jobs 1"]))
    ratios.append((f"{label}: arbiter --jobs 2 vs --jobs 1 (target ≥ 1.8x)",
                   m["arbiter --jobs 1"] / m["arbiter --jobs 2"]))
    if "baseline" in m:
        ratios.append((f"{label}: export --jobs 1 throughput vs BASELINE (target ≥ 0.95x)",
                       m["baseline"] / m["arbiter --jobs 1"]))

games, plies = counts("lichess64")
m = medians("analytics")
print()
print("| lichess×64, --jobs 1 | time (s) | rows/s | vs games jsonl |")
print("| --- | ---: | ---: | ---: |")
for name, t in m.items():
    rows = plies if name.startswith("plies") else games
    print(f"| export {name} | {t:.3f} | {rows / t:,.0f} | {m['games jsonl'] / t:.2f}x |")
ratios.append(("ply rows jsonl, one core, M plies/s (target ≥ 2)", plies / m["plies jsonl"] / 1e6))
ratios.append(("Parquet game rows vs JSON Lines speed (target ≥ 0.8x)",
               m["games jsonl"] / m["games parquet"]))

games, plies = counts("master8")
mb = os.path.getsize(f"{tmp}/master8.pgn") / 1e6
m = medians("validate")
print()
print("| validate, master×8 | time (s) | games/s | plies/s | MB/s | vs pgn-extract -r |")
print("| --- | ---: | ---: | ---: | ---: | ---: |")
for name, t in m.items():
    print(f"| {name} | {t:.3f} | {games / t:,.0f} | {plies / t / 1e6:.2f} M | {mb / t:.1f} "
          f"| {m['pgn-extract -r'] / t:.2f}x |")
ratios.append(("validate --jobs 1 vs pgn-extract -r (target ≥ 5x)",
               m["pgn-extract -r"] / m["arbiter validate --jobs 1"]))

nodes = {5: 4865609, 6: 119060324, 7: 3195901860}.get(depth)
m = medians("perft")
print()
print(f"| perft {depth}, start position | time (s) | nodes/s |")
print("| --- | ---: | ---: |")
for name, t in m.items():
    rate = f"{nodes / t / 1e6:.0f} M" if nodes else "-"
    print(f"| {name} | {t:.3f} | {rate} |")
ratios.append(("perft: arbiter vs shakmaty (target ≥ 1x)",
               m["shakmaty perft"] / m["arbiter perft"]))

print()
print("| peak RSS (MB) | 10 MB input | big input | target |")
print("| --- | ---: | ---: | --- |")
rss = {}
with open(f"{tmp}/rss.txt") as f:
    for line in f:
        *name, file, kb = line.split()
        rss.setdefault(" ".join(name), {})[file] = int(kb) / 1024
targets = {"arbiter --jobs 1": "≤ 8 MB", "arbiter --jobs 2": "≤ 16 MB", "yardstick": "",
           "arbiter --plies parquet --jobs 2": "≤ 64 MB"}
big = os.path.getsize(f"{tmp}/big.pgn") / 1e9 if os.path.exists(f"{tmp}/big.pgn") else 0
for name, by_file in rss.items():
    cells = [f"{by_file[k]:.1f}" if k in by_file else "-" for k in ("10mb", "big")]
    print(f"| {name} | {cells[0]} | {cells[1]} | {targets.get(name, '')} |")
if big:
    print(f"\n(big input: {big:.2f} GB)")

print()
print("| ratio | value |")
print("| --- | ---: |")
for name, value in ratios:
    unit = "" if "plies/s" in name else "x"
    print(f"| {name} | {value:.2f}{unit} |")
EOF
