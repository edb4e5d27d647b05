"""Commands started together on a new SQLite store all open it (none fails as "locked").

Switching a new file to WAL fails at once, without the busy timeout, while another process sets
the same file up; `graph.app.sqlite_store` tries the setup again. Three processes open each of
twenty new files at the same instant.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parent.parent
ROUNDS = 20
GAP_S = 0.25

WORKER = """
import sys, time
from pathlib import Path
from graph.app.sqlite_store import open_sqlite
folder, start = Path(sys.argv[1]), float(sys.argv[2])
rounds, gap = int(sys.argv[3]), float(sys.argv[4])
failed = []
for i in range(rounds):
    while time.time() < start + i * gap:
        pass
    try:
        with open_sqlite(folder / f"store{i}.sqlite"):
            pass
    except Exception as error:
        failed.append(f"{i}: {error}")
print(len(failed), *failed[:3], sep="\\n")
"""


def test_processes_opening_a_new_store_together_all_open_it(tmp_path: Path) -> None:
    start = time.time() + 3.0  # every worker has imported the store by then
    args = [str(tmp_path), str(start), str(ROUNDS), str(GAP_S)]
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, *args],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(3)
    ]
    for worker in workers:
        out, err = worker.communicate(timeout=120)
        assert worker.returncode == 0, err[-2000:]
        assert out.splitlines()[0] == "0", out
    assert len(list(tmp_path.glob("store*.sqlite"))) == ROUNDS
