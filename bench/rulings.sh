#!/usr/bin/env bash
# bench/rulings.sh — can each side still mate: arbiter beside chasolver, on the same positions,
# in one run.
#
# Usage:  bench/rulings.sh            (from any directory)
#
# Environment:
#   ARBITER_TESTDATA  the shared test data (default /work/shared/testdata)
#   PEER_DIR          the chasolver yardstick's folder (default $ARBITER_TESTDATA/../bench/
#                     peer-chasolver); it is copied to target/peer-chasolver and built there
#   PEER              a chasolver yardstick already built (its binary): then nothing is copied
#                     or built for it
#   SETS              which sets to run (default "lichess hard vector master lichess-games")
#
# Needs cargo, python3 and GNU time (`/usr/bin/time`, Debian package `time`).
#
# What it does, for each set of positions:
#   1. chasolver's full search (`peer-chasolver FILE`) and its fast test (`--fast`), and
#      `arbiter moves --file` with the default limit (1,000,000 positions per side) and with
#      `--limit 0` (the static proofs only: arbiter's fast tier), each timed as a whole process
#      (user CPU, peak memory);
#   2. the answers of each against the labels where the set has them: sides decided, undecided,
#      wrong, positions refused (arbiter refuses impossible positions, naming why);
#   3. arbiter's tier table, from the `proof` field of its output: how many sides each stage
#      decided (the time per stage comes from `cargo bench -p arbiter-rules --bench rulings`).
#
# The sets: chasolver's lichess positions (65,536; from the crate's tests folder, which
# bench/chasolver-sets.sh finds or fetches, or ARBITER_CHASOLVER) and hard positions (3,414,
# testdata/chasolver), the public vector of the shared data (1,803), and the final positions of
# the shared lichess sample and master games (every game's final position, no labels: they show
# the cost and what is left undecided).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DATA=${ARBITER_TESTDATA:-/work/shared/testdata}
PEER_DIR=${PEER_DIR:-$(cd "$DATA/.." && pwd)/bench/peer-chasolver}
SETS=${SETS:-lichess hard vector master lichess-games}

for tool in cargo python3 /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "bench/rulings.sh: $tool is missing" >&2; exit 2; }
done
[ -n "${PEER:-}" ] || [ -d "$PEER_DIR" ] || { echo "bench/rulings.sh: the yardstick is missing at $PEER_DIR" >&2; exit 2; }

echo "building arbiter and the yardstick (release)..." >&2
(cd "$ROOT" && cargo build --release --quiet)
if [ -z "${PEER:-}" ]; then
    rm -rf "$ROOT/target/peer-chasolver" && cp -r "$PEER_DIR" "$ROOT/target/peer-chasolver"
    chmod -R u+w "$ROOT/target/peer-chasolver"
    (cd "$ROOT/target/peer-chasolver" && cargo build --release --quiet)
    PEER=$ROOT/target/peer-chasolver/target/release/peer-chasolver
fi
ARBITER=$ROOT/target/release/arbiter

TMP=$(mktemp -d "${TMPDIR:-/tmp}/arbiter-rulings.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# Each set as labelled lines (`XX FEN`, or `?? FEN` without labels) for the yardstick, and the
# bare FENs for arbiter.
labelled() { grep -v '^#' "$1" | grep -v '^[[:space:]]*$' || true; }
finals() {
    "$ARBITER" export --format jsonl -q --rulings-budget 0 "$@" |
        python3 -c 'import json,sys
for l in sys.stdin:
    r = json.loads(l)
    if r["valid"] and r["final_fen"]: print("??", r["final_fen"])'
}
for set in $SETS; do
    case $set in
        lichess) labelled "${ARBITER_CHASOLVER:-$(bash "$ROOT/bench/chasolver-sets.sh" "$PEER_DIR")}/lichess.txt" >"$TMP/$set.lab" ;;
        hard) labelled "$ROOT/testdata/chasolver/positions.txt" >"$TMP/$set.lab" ;;
        vector) labelled "$DATA/unwinnable/test-vector.txt" >"$TMP/$set.lab" ;;
        master) finals "$DATA"/corpora/pgnmentor-players/*.pgn >"$TMP/$set.lab" ;;
        lichess-games) finals "$DATA/corpora/samples/lichess_db_1000k.pgn" >"$TMP/$set.lab" ;;
        *) echo "bench/rulings.sh: unknown set $set" >&2; exit 2 ;;
    esac
    cut -c4- "$TMP/$set.lab" >"$TMP/$set.fen"
done

# `time_of CMD...`: runs CMD, its stdout to $OUT, and prints "USER_SECONDS PEAK_KB".
time_of() {
    /usr/bin/time -f "%U %M" -o "$TMP/time" "$@" >"$OUT" 2>/dev/null || true
    tail -1 "$TMP/time"
}

echo "machine load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| set | sides | tool | user CPU (s) | µs per side | peak RSS (MB) | decided | undecided | wrong | refused positions |"
echo "| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for set in $SETS; do
    for tool in chasolver chasolver-fast arbiter arbiter-static; do
        OUT=$TMP/$set.$tool
        case $tool in
            chasolver) t=$(time_of "$PEER" "$TMP/$set.lab") ;;
            chasolver-fast) t=$(time_of "$PEER" --fast "$TMP/$set.lab") ;;
            arbiter) t=$(time_of "$ARBITER" moves --file "$TMP/$set.fen") ;;
            arbiter-static) t=$(time_of "$ARBITER" moves --file "$TMP/$set.fen" --limit 0) ;;
        esac
        python3 - "$set" "$tool" "$TMP/$set.lab" "$OUT" $t <<'EOF'
import json, sys
name, tool, labels, out, user, peak = sys.argv[1:]
labels = [l.split(" ", 1)[0] for l in open(labels)]
rows = open(out).read().splitlines()
decided = undecided = wrong = refused = 0
for label, row in zip(labels, rows):
    if tool.startswith("chasolver"):
        got = [None if c == "?" else c != "-" for c in row[:2]]
        if row.startswith("xx"):
            refused += 1
            continue
    else:
        record = json.loads(row)
        if "error" in record:
            refused += 1
            continue
        got = [record["can_mate"]["white"], record["can_mate"]["black"]]
    for side, answer in enumerate(got):
        if answer is None:
            undecided += 1
        else:
            decided += 1
            if label[side] != "?" and answer != (label[side] != "-"):
                wrong += 1
sides = decided + undecided
print(f"| {name} | {sides} | {tool} | {float(user):.2f} | {1e6 * float(user) / max(sides, 1):.1f} "
      f"| {int(peak) / 1024:.0f} | {decided} | {undecided} | {wrong} | {refused} |")
EOF
    done
done

echo
echo "arbiter's tiers (which stage decided how many sides, default limit):"
echo
echo "| set | over | material | blocked | look_ahead | dive | quick | search | undecided |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for set in $SETS; do
    python3 - "$set" "$TMP/$set.arbiter" <<'EOF'
import collections, json, sys
name, out = sys.argv[1:]
count = collections.Counter()
for row in open(out):
    record = json.loads(row)
    if "error" in record:
        continue
    for side in ("white", "black"):
        count[record["proof"][side] or "undecided"] += 1
tiers = ["over", "material", "blocked", "look_ahead", "dive", "quick", "search", "undecided"]
print(f"| {name} | " + " | ".join(str(count[t]) for t in tiers) + " |")
EOF
done
