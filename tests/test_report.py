import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from evals.datasets import load_dataset
from evals.metrics import summarize
from evals.report import HTML_FILE, MARKDOWN_FILE, RESULTS_FILE, write_report
from evals.report_data import EvalRun, format_metric, summary_of
from evals.run_threads import compare_retrieval
from evals.runner import run_dataset


def report_for(name: str, out: Path, limit: int | None = None) -> EvalRun:
    dataset = load_dataset(name)
    saver = InMemorySaver()
    records = run_dataset(dataset, checkpointer=saver, run_id="rep", limit=limit)
    run = EvalRun(dataset=dataset, model="policy", run_id="rep", records=records, wall_s=0.5)
    write_report(run, out, saver)
    return run


def test_report_files_hold_every_question(tmp_path: Path) -> None:
    run = report_for("notes", tmp_path / "out")
    out = tmp_path / "out"
    ids = [r["question_id"] for r in run.records]

    lines = (out / RESULTS_FILE).read_text(encoding="utf-8").splitlines()
    rows = [json.loads(line) for line in lines]
    assert [row["question_id"] for row in rows] == ids
    for row in rows:
        for key in ("answer", "citations", "unsupported", "retrieved", "steps", "stopped"):
            assert key in row
        assert row["latency_s"] > 0 and row["thread_id"].startswith("eval-notes-rep-")

    md = (out / MARKDOWN_FILE).read_text(encoding="utf-8")
    assert "| accuracy | 1.000 |" in md
    assert compare_retrieval(run.dataset, run.records).line() in md
    for record in run.records:
        assert f"| {record['question_id']} | yes |" in md

    page = (out / HTML_FILE).read_text(encoding="utf-8")
    assert page.count("<details") == len(ids)
    for record in run.records:
        assert f'<details id="q-{record["question_id"]}">' in page
    # the transcript of each question is inside its row
    assert page.count("GOAL: ") == len(ids)
    assert "Action: search_notes(" in page
    assert "<svg" in page and "<style>" in page


def test_html_is_self_contained(tmp_path: Path) -> None:
    report_for("seed_runs", tmp_path)
    page = (tmp_path / HTML_FILE).read_text(encoding="utf-8")
    assert "<script" not in page
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)
    assert "@import" not in page and "url(" not in page


def test_transcripts_and_questions_are_escaped(tmp_path: Path) -> None:
    data = tmp_path / "odd.jsonl"
    data.write_text(
        '{"dataset": "odd", "corpus": "notes"}\n'
        + json.dumps(
            {
                "id": "q<1>",
                "question": "Who leads <b>Beacon</b> & its team?",
                "answers": ["Tomas Ekberg"],
                "supporting": ["d3", "d4"],
            }
        )
        + "\n",
        encoding="utf-8",
    )
    dataset = load_dataset(str(data))
    saver = InMemorySaver()
    records = run_dataset(dataset, checkpointer=saver, run_id="e")
    write_report(EvalRun(dataset, "policy", "e", records), tmp_path / "out", saver)
    page = (tmp_path / "out" / HTML_FILE).read_text(encoding="utf-8")
    assert "<b>Beacon" not in page
    assert "&lt;b&gt;Beacon&lt;/b&gt; &amp; its team?" in page
    assert 'id="q-q&lt;1&gt;"' in page


def test_recall_by_hop_ends_at_the_agent_recall(tmp_path: Path) -> None:
    run = report_for("hotpotqa-hard", tmp_path, limit=15)
    md = (tmp_path / MARKDOWN_FILE).read_text(encoding="utf-8")
    hop_rows = re.findall(r"^\| (\d) \| (\d+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \|$", md, re.M)
    assert hop_rows and hop_rows[0][1] == "15"  # every question searched at least once
    agent = [float(row[3]) for row in hop_rows]
    assert agent == sorted(agent)  # more searches never lose a paragraph
    assert agent[-1] == pytest.approx(summarize(run.records)["retrieval_recall"], abs=5e-4)


def test_error_runs_show_in_the_report(tmp_path: Path, script_file: Callable[..., str]) -> None:
    dataset = load_dataset("notes")
    saver = InMemorySaver()
    spec = script_file(("search_notes", {"query": "Atlas"}))
    records = run_dataset(dataset, model=spec, checkpointer=saver, limit=2)
    write_report(EvalRun(dataset, spec, "x", records), tmp_path, saver)
    assert summary_of(records)["errors"] == 2
    page = (tmp_path / HTML_FILE).read_text(encoding="utf-8")
    assert page.count("ERROR: ScriptExhausted") == 2
    assert "| errors | 2 |" in (tmp_path / MARKDOWN_FILE).read_text(encoding="utf-8")


def test_format_metric() -> None:
    assert format_metric("accuracy", 0.5) == "0.500"
    assert format_metric("latency_p50_s", 0.0123) == "12.3 ms"
    assert format_metric("n", 500) == "500"
    assert format_metric("tokens_total", 12345) == "12,345"
    assert format_metric("mean_steps", 2.6) == "2.60"
    assert format_metric("tools_ok_rate", None) == "-"
