#!/usr/bin/env bash
# bench/chasolver-sets.sh — prints the folder holding chasolver's test sets (`lichess.txt`,
# `positions.txt`: the `tests/` folder of the published crate `chasolver` 3.0.0, MIT), fetching
# the crate into cargo's registry first if it is not there. chasolver's lichess set (3.4 MB) is
# not copied into the repository (its small hard set is, in testdata/chasolver/): the tests and
# benchmarks that read it find it through `ARBITER_CHASOLVER`, which `.ci/run` sets from this.
#
# Usage:  bench/chasolver-sets.sh [PEER_DIR]
#
# PEER_DIR is the yardstick's folder (`bench/peer-chasolver` of the shared folder, whose
# Cargo.lock pins chasolver 3.0.0), by default beside `ARBITER_TESTDATA`. Only its manifest is
# used, copied to a scratch folder for `cargo fetch --locked` (nothing is built).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DATA=${ARBITER_TESTDATA:-$(cd "$ROOT/.." && pwd)/shared/testdata}
PEER_DIR=${1:-$(cd "$DATA/.." && pwd)/bench/peer-chasolver}
REGISTRY=${CARGO_HOME:-$HOME/.cargo}/registry/src

find_sets() {
    find "$REGISTRY" -maxdepth 4 -path '*/chasolver-3.0.0/tests/lichess.txt' -print -quit 2>/dev/null || true
}

found=$(find_sets)
if [ -z "$found" ]; then
    [ -f "$PEER_DIR/Cargo.toml" ] || {
        echo "bench/chasolver-sets.sh: the yardstick's manifest is missing at $PEER_DIR" >&2
        exit 2
    }
    scratch=$(mktemp -d)
    trap 'rm -rf "$scratch"' EXIT
    cp "$PEER_DIR/Cargo.toml" "$PEER_DIR/Cargo.lock" "$scratch/"
    mkdir -p "$scratch/src" && cp -r "$PEER_DIR/src/." "$scratch/src/"
    (cd "$scratch" && cargo fetch --locked --quiet) >&2
    found=$(find_sets)
    [ -n "$found" ] || { echo "bench/chasolver-sets.sh: chasolver 3.0.0 not found after cargo fetch" >&2; exit 1; }
fi
dirname "$found"
