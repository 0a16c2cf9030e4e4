"""Shared fixtures: the shared test data (ARBITER_TESTDATA) and the `arbiter` command line the
package is compared with (ARBITER_BIN, else the workspace's target/ci/arbiter, which the README's
test command builds)."""

import os
import pathlib
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def testdata() -> pathlib.Path:
    path = os.environ.get("ARBITER_TESTDATA")
    if not path or not pathlib.Path(path).is_dir():
        pytest.fail("set ARBITER_TESTDATA to the shared test data folder")
    return pathlib.Path(path)


@pytest.fixture(scope="session")
def cli() -> pathlib.Path:
    path = pathlib.Path(os.environ.get("ARBITER_BIN", REPO / "target" / "ci" / "arbiter"))
    if not path.is_file():
        pytest.fail(f"no arbiter binary at {path}: run `cargo build --profile ci` or set ARBITER_BIN")
    return path


@pytest.fixture(scope="session")
def run_cli(cli):
    """Runs the command line with `args`; returns the completed process (output as bytes)."""

    def run(*args, check=True):
        done = subprocess.run([str(cli), *map(str, args)], capture_output=True)
        if check and done.returncode not in (0, 1):
            raise AssertionError(f"arbiter {' '.join(map(str, args))}: {done.stderr.decode()}")
        return done

    return run
