#!/usr/bin/env bash
# The Python package's test, as .ci/run calls it after the test suite (target/ci/arbiter built):
# a virtual environment kept in ~/.cache/arbiter-python (made again when requirements-test.txt
# changes) with maturin, pytest, pyarrow, polars, duckdb, pandas and python-chess; the package
# installed into it as the README says (`pip install ./python`), built with the workspace's `ci`
# profile (no fat LTO) in the workspace's target directory; then pytest on python/tests.
#
# `ci.sh install` only makes the environment (.ci/run starts it in the background, so that the
# download overlaps the Rust build); `ci.sh test` builds the package and runs the tests.
set -euo pipefail
step="${1:-all}"

cd "$(dirname "$0")/.."

requirements=python/requirements-test.txt
venv="${ARBITER_PYTHON_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/arbiter-python}"

install() {
    if cmp -s "$requirements" "$venv/requirements-test.txt" \
        && "$venv/bin/python" -c 'import maturin, pytest, pyarrow, polars, duckdb, chess' 2>/dev/null; then
        return 0
    fi
    local started
    started=$(date +%s)
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q -r "$requirements"
    cp "$requirements" "$venv/requirements-test.txt"
    echo "python: installed $(tr '\n' ' ' <"$requirements")in $(( $(date +%s) - started )) s"
}

case "$step" in
install) install; exit 0 ;;
test | all) [ "$step" = all ] && install ;;
*)
    echo "usage: ci.sh [install|test]" >&2
    exit 2
    ;;
esac

started=$(date +%s)
# The build backend from the environment (no download per build), the `ci` profile.
PATH="$venv/bin:$PATH" MATURIN_PEP517_ARGS="--profile ci" "$venv/bin/pip" install -q --no-build-isolation ./python
echo "python: built and installed the package in $(( $(date +%s) - started )) s"
export ARBITER_BIN="${ARBITER_BIN:-$PWD/target/ci/arbiter}"
exec "$venv/bin/python" -m pytest -q -p no:cacheprovider --rootdir python python/tests
