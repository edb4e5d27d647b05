"""An offline `agent ask` with bm25 over small corpora starts without numpy (or scipy, torch).

Each run is a fresh interpreter, as a user starts it: the built-in corpora (a computed answer
and a searched one) and a small made-up document given with --corpus are indexed by the
pure-Python `SmallBM25`, and nothing on the way imports the numpy index modules.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fresh_cli import run_fresh

HEAVY = ("numpy", "scipy", "torch", "onnxruntime", "sentence_transformers", "mcp", "openai")
"""Top-level packages an offline bm25 ask over small corpora must not load."""
NOTE = """# Ferry

The Marlow ferry leaves the north pier at 7:40 and carries twelve bicycles.

# Bakery

Odile's bakery by the old harbour closes on Tuesdays.

# Market

The fish market opens at dawn on Saturdays.
"""


def run_ask(argv: list[str], home: Path) -> tuple[dict[str, object], str]:
    """Run `agent ask ARGV --retriever bm25` offline in a fresh interpreter: its report, stdout."""
    report, out, err = run_fresh(["ask", *argv, "--retriever", "bm25"], home, timeout=180)
    assert report["code"] == 0, err
    return report, out


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["what is 12% of 450?"], "54"),
        (["when does the Marlow ferry leave the pier?", "--corpus", "harbour=harbour.md"], "7:40"),
        (["how long is the refund window?"], "search_policy"),
    ],
    ids=["computed", "own-corpus", "built-in-search"],
)
def test_offline_bm25_ask_loads_no_numpy(argv: list[str], expected: str, tmp_path: Path) -> None:
    (tmp_path / "harbour.md").write_text(NOTE, encoding="utf-8")
    report, stdout = run_ask(argv, tmp_path)
    loaded = [m for m in report["modules"] if str(m).startswith(HEAVY)]  # type: ignore[attr-defined]
    assert loaded == [], f"agent ask {' '.join(argv)} loaded {loaded}"
    assert expected in stdout
