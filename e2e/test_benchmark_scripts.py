"""The benchmark scripts that compare CardTable with a baseline still run (at a tiny size, with
no figure asserted), so that none can stop working unseen (docs/PERFORMANCE.md)."""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_memory_beside_its_c_copy_plays_the_same_actions(cardtable):
    done = subprocess.run(
        [sys.executable, os.path.join(ROOT, "scripts", "bench_memory_c.py"), "--smoke"]
        + ["--bin", cardtable],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stdout.splitlines() if line.startswith("memory ")]
    assert [line.split(":")[0] for line in lines] == ["memory easy", "memory medium", "memory hard"]
    assert all("Swift / C" in line for line in lines)
