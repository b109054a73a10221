"""Short seeded runs of the fuzzers in scripts/ (a few hundred inputs each), so CI keeps them.

Longer runs: `python3 scripts/fuzz_engine.py --iterations 20000` and
`python3 scripts/fuzz_server.py --iterations 5000` (docs/PERFORMANCE.md).
"""

import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "scripts"))

from fuzz_engine import FuzzFailure as EngineFailure  # noqa: E402
from fuzz_engine import fuzz_engine
from fuzz_server import FuzzFailure as ServerFailure  # noqa: E402
from fuzz_server import fuzz_server


@pytest.mark.parametrize("seed", [1, 2])
def test_engine_answers_every_fuzzed_line_with_one_json_reply(cardtable, seed):
    try:
        counts = fuzz_engine(cardtable, iterations=400, seed=seed, timeout=20)
    except EngineFailure as failure:
        pytest.fail(
            f"seed {seed}, line {failure.iteration}: {failure}; input {failure.line!r:.300}"
        )
    assert counts["replies"] + counts["skipped"] == 400
    assert counts["ok"] > 0 and counts["refused"] > 0


@pytest.mark.parametrize("seed", [1, 2])
def test_server_survives_fuzzed_websocket_traffic(cardtable, seed):
    try:
        result = fuzz_server(cardtable, iterations=300, seed=seed, timeout=20)
    except ServerFailure as failure:
        pytest.fail(f"seed {seed}: {failure}")
    assert result["scenarios"] == 300
