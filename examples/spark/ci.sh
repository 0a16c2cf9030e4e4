#!/usr/bin/env bash
# The Spark example's test, as .ci/run calls it after the test suite (target/ci/arbiter built):
# installs what it needs when missing (java from Debian's openjdk-17-jre-headless when root can
# apt-get; pyspark and duckdb from requirements.txt into a virtual environment kept in
# ~/.cache/arbiter-spark, made again when requirements.txt changes), then runs
# test_arbiter_spark.py, which says how long it took. Under CI=true the test fails when something
# is still missing.
#
# `ci.sh install` only installs (.ci/run starts it in the background before the test suite, so
# that the download overlaps the build); `ci.sh test` only runs the test; `ci.sh` does both.
set -euo pipefail
step="${1:-all}"

cd "$(dirname "$0")/../.."

requirements=examples/spark/requirements.txt
venv="${ARBITER_SPARK_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/arbiter-spark}"

install() {
    if ! command -v java >/dev/null 2>&1; then
        if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
            started=$(date +%s)
            apt-get update -qq
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openjdk-17-jre-headless >/dev/null
            echo "spark: installed openjdk-17-jre-headless in $(( $(date +%s) - started )) s"
        else
            echo "spark: java is missing and cannot be installed here (needs root and apt-get)"
        fi
    fi

    if ! cmp -s "$requirements" "$venv/requirements.txt" \
        || ! "$venv/bin/python" -c 'import pyspark, duckdb' 2>/dev/null; then
        started=$(date +%s)
        rm -rf "$venv"
        if python3 -m venv "$venv" && "$venv/bin/pip" install -q -r "$requirements"; then
            cp "$requirements" "$venv/requirements.txt"
            echo "spark: installed $(tr '\n' ' ' <"$requirements")in $(( $(date +%s) - started )) s"
        else
            echo "spark: could not install $requirements into $venv"
        fi
    fi
}

case "$step" in
install | all) install ;;
test) ;;
*)
    echo "usage: ci.sh [install|test]" >&2
    exit 2
    ;;
esac
if [ "$step" = install ]; then
    exit 0
fi
python="$venv/bin/python"
[ -x "$python" ] || python=python3
exec "$python" examples/spark/test_arbiter_spark.py
