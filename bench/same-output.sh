#!/usr/bin/env bash
# bench/same-output.sh — does a change keep arbiter's output byte for byte? A snapshot and a check.
#
# Usage:  bench/same-output.sh save  DIR [BINARY]    write the snapshot of BINARY's output to DIR
#         bench/same-output.sh check DIR [BINARY]    run again and compare with the snapshot in DIR
#
# BINARY defaults to the release binary of this checkout (target/release/arbiter, or
# $CARGO_TARGET_DIR/release/arbiter when that is set); build it first, the script does not.
#
# Environment:
#   ARBITER_TESTDATA  the shared test data (default /work/shared/testdata)
#
# What it runs, for every PGN file under $ARBITER_TESTDATA (`*.pgn`, compressed `*.pgn.*`, and the
# `.txt` files that hold PGN, recognised by a line starting with `[Event `):
#   - `arbiter export --format jsonl --jobs 1 -q FILE`   (records on standard output)
#   - `arbiter validate --format jsonl --jobs 1 -q FILE` (diagnostics and summary)
#   - `arbiter select --jobs 1 -q FILE`                  (every valid game rewritten as clean PGN)
# and once over all the files together, in one invocation: `export`, `validate`, `select` and
# `select --dedup game --eco --fix-result --no-comments --keep-commands --no-nags` with --jobs 1 at
# `save`, with --jobs 2 at `check`, so that the check also proves --jobs 2 writes what --jobs 1 writes
# (cheaply: one run each rather than one per file).
#
# Paths are given relative to $ARBITER_TESTDATA (the command runs there), so the `file`/`path` fields
# do not depend on where the data lives. The summary's `elapsed_seconds` and `games_per_second` are
# removed, since they change from run to run; everything else is kept, with standard error and the
# exit status appended to each output file.
#
# `check` exits 1 and names every file whose output differs (a `diff` of the first ones follows),
# 0 when all are byte-identical, 2 on a usage error.
set -euo pipefail

usage() {
    echo "usage: bench/same-output.sh save|check DIR [BINARY]" >&2
    exit 2
}

[ $# -ge 2 ] && [ $# -le 3 ] || usage
MODE=$1
case "$MODE" in save | check) ;; *) usage ;; esac
DIR=$(mkdir -p "$2" && cd "$2" && pwd)
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BINARY=${3:-${CARGO_TARGET_DIR:-$ROOT/target}/release/arbiter}
BINARY=$(cd "$(dirname "$BINARY")" && pwd)/$(basename "$BINARY")
DATA=${ARBITER_TESTDATA:-/work/shared/testdata}
[ -x "$BINARY" ] || { echo "bench/same-output.sh: no binary at $BINARY (build it first)" >&2; exit 2; }
[ -d "$DATA" ] || { echo "bench/same-output.sh: no test data at $DATA" >&2; exit 2; }

cd "$DATA"
mapfile -t FILES < <(
    {
        find . -type f \( -name '*.pgn' -o -name '*.pgn.*' \)
        find . -type f -name '*.txt' -exec grep -l '^\[Event ' {} +
    } | sed 's|^\./||' | LC_ALL=C sort
)
[ ${#FILES[@]} -gt 0 ] || { echo "bench/same-output.sh: no PGN files under $DATA" >&2; exit 2; }

# run OUT COMMAND...: standard output (timings removed), standard error and exit status into OUT.
run() {
    local out=$1 status=0
    shift
    mkdir -p "$(dirname "$out")"
    "$@" 2>"$out.err" | sed -E 's/"elapsed_seconds":[^,}]*,?//; s/"games_per_second":[^,}]*,?//' >"$out" \
        || status=$? # with pipefail, the binary's status (sed does not fail)
    { echo "# stderr"; cat "$out.err"; echo "# exit $status"; } >>"$out"
    rm -f "$out.err"
}

if [ "$MODE" = save ]; then
    OUT=$DIR
    JOBS_ALL=1
else
    OUT=$(mktemp -d "${TMPDIR:-/tmp}/same-output.XXXXXX")
    trap 'rm -rf "$OUT"' EXIT
    JOBS_ALL=2
fi

for f in "${FILES[@]}"; do
    run "$OUT/export/$f.jsonl" "$BINARY" export --format jsonl --jobs 1 -q "$f"
    run "$OUT/validate/$f.jsonl" "$BINARY" validate --format jsonl --jobs 1 -q "$f"
    run "$OUT/select/$f.pgn" "$BINARY" select --jobs 1 -q "$f"
done
run "$OUT/all/export.jsonl" "$BINARY" export --format jsonl --jobs "$JOBS_ALL" -q "${FILES[@]}"
run "$OUT/all/validate.jsonl" "$BINARY" validate --format jsonl --jobs "$JOBS_ALL" -q "${FILES[@]}"
run "$OUT/all/select.pgn" "$BINARY" select --jobs "$JOBS_ALL" -q "${FILES[@]}"
run "$OUT/all/select-lean.pgn" "$BINARY" select --dedup game --eco --fix-result --no-comments \
    --keep-commands --no-nags --jobs "$JOBS_ALL" -q "${FILES[@]}"

if [ "$MODE" = save ]; then
    echo "saved the output of ${#FILES[@]} files ($BINARY) in $DIR" >&2
    exit 0
fi

mapfile -t DIFFERENT < <(diff -rq "$DIR" "$OUT" | sed -E "s|^Files $DIR/(.*) and .* differ$|\1|; s|^Only in |only in |")
if [ ${#DIFFERENT[@]} -eq 0 ]; then
    echo "same output: ${#FILES[@]} files, export, validate and select, --jobs 1 and 2 ($BINARY)" >&2
    exit 0
fi
echo "bench/same-output.sh: the output differs for ${#DIFFERENT[@]} file(s):" >&2
printf '  %s\n' "${DIFFERENT[@]}" >&2
diff -r "$DIR" "$OUT" | head -40 >&2 || true
exit 1
