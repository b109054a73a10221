"""Shared fixtures for the end-to-end tests: the built `cardtable` binary."""
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def cardtable() -> str:
    """Path of the debug `cardtable` binary (built by `make test`)."""
    path = os.environ.get("CARDTABLE_BIN")
    if not path:
        bin_dir = subprocess.run(
            ["swift", "build", "--show-bin-path"], cwd=ROOT, check=True,
            capture_output=True, text=True).stdout.strip()
        path = os.path.join(bin_dir, "cardtable")
    assert os.access(path, os.X_OK), f"build cardtable first: {path}"
    return path
