"""`report.md` is inert: ids, answers and names from a dataset or a model are HTML-escaped."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from langgraph.checkpoint.memory import InMemorySaver

from evals.datasets import load_dataset
from evals.report import MARKDOWN_FILE, write_report
from evals.report_data import EvalRun
from evals.runner import run_dataset

SVG = "<svg onload=alert(1)>"
IMG = "<img src=x onerror=alert(2)>"


def test_report_md_escapes_ids_answers_and_descriptions(
    tmp_path: Path, script_file: Callable[..., str]
) -> None:
    data = tmp_path / "odd.jsonl"
    header = {"dataset": "odd", "corpus": "notes", "description": f"Made up {IMG} set"}
    row = {
        "id": f"q{SVG}",
        "question": f"Who owns the Atlas scheduler? {SVG}",
        "answers": ["Fleet Platform"],
        "supporting": ["d1"],
    }
    data.write_text(json.dumps(header) + "\n" + json.dumps(row) + "\n", encoding="utf-8")
    dataset = load_dataset(str(data))
    model = script_file(
        {"thought": "t", "tool": "finish", "args": {"answer": f"Fleet | {IMG}", "citations": []}}
    )
    saver = InMemorySaver()
    records = run_dataset(dataset, model=model, checkpointer=saver, run_id="md")
    write_report(EvalRun(dataset, model, "md", records), tmp_path / "out", saver)
    md = (tmp_path / "out" / MARKDOWN_FILE).read_text(encoding="utf-8")
    assert "<svg" not in md and "<img" not in md
    assert "| q&lt;svg onload=alert(1)&gt; |" in md
    assert "Fleet \\| &lt;img src=x onerror=alert(2)&gt;" in md
    assert "Made up &lt;img src=x onerror=alert(2)&gt; set" in md
