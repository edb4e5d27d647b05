"""CLI habits: bare `agent` prints help, --version, -m, --quiet, and the one-line thread list."""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import run_cli
from rich.cells import cell_len

from graph.app.thread_heads import is_eval_thread
from graph.app.thread_list import ThreadSummary
from graph.cli.thread_lines import thread_line

ScriptFile = Callable[..., str]
LONG_QUESTION = "What is the refund window " + "for a very long order " * 10 + "?"


def answer_script(script_file: ScriptFile, answer: str) -> str:
    """A scripted model that finishes at once with `answer`."""
    return script_file(
        {"thought": "I know this.", "tool": "finish", "args": {"answer": answer, "citations": []}}
    )


def test_bare_agent_prints_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "Usage: agent [OPTIONS] COMMAND [ARGS]..."
    assert "Commands:" in lines
    assert any(line.strip().startswith("threads") for line in lines)


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "--version")
    assert code == 0
    assert out == f"agent, version {version('agentic-rag')}\n"


@pytest.mark.parametrize("command", ["ask", "replay", "resume", "eval", "compare-flow"])
def test_every_model_option_has_the_short_form(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    code, out, _ = run_cli(capsys, command, "--help")
    assert code == 0 and "-m, --model" in out


def test_short_model_option_picks_the_model(
    agent_home: Path, capsys: pytest.CaptureFixture[str], script_file: ScriptFile
) -> None:
    model = answer_script(script_file, "Forty-two parcels.")
    code, out, err = run_cli(capsys, "ask", "How many parcels shipped?", "-m", model)
    assert code == 0, err
    assert "  ANSWER: Forty-two parcels." in out


# -- --quiet ----------------------------------------------------------------------------------


def test_quiet_prints_only_the_answer(
    agent_home: Path, capsys: pytest.CaptureFixture[str], script_file: ScriptFile
) -> None:
    model = answer_script(script_file, "Forty-two parcels.")
    code, out, err = run_cli(capsys, "ask", "How many parcels shipped?", "-m", model, "--quiet")
    assert (code, out, err) == (0, "Forty-two parcels.\n", "")
    code, out, err = run_cli(capsys, "ask", "what's our refund window?", "-q")
    assert code == 0 and err == "" and len(out.splitlines()) == 1
    assert "30 days" in out and "GOAL" not in out and "Step" not in out


def test_quiet_without_an_answer_is_one_error_line(
    agent_home: Path, capsys: pytest.CaptureFixture[str], script_file: Any
) -> None:
    model = script_file(("search_policy", {"query": "refund"}))  # searches, never answers
    argv = ("ask", "Who leads the team that owns Beacon?", "-q", "-m", model, "--max-steps", "1")
    code, out, err = run_cli(capsys, *argv)
    assert code == 1 and out == ""
    assert err == "error: no answer: the step budget ran out after 1 model call\n"


def test_quiet_resume_prints_only_the_answer(
    agent_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run_cli(capsys, "ask", "what's our refund window?", "--json")
    thread = json.loads(out)["thread_id"]
    code, out, err = run_cli(capsys, "resume", thread, "--quiet")
    assert code == 0 and err == "" and len(out.splitlines()) == 1 and "30 days" in out


# -- agent threads ----------------------------------------------------------------------------


def test_threads_one_line_each_cut_to_the_terminal_width(
    agent_home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    run_cli(capsys, "ask", LONG_QUESTION, "--thread", "t-long")
    run_cli(capsys, "ask", "What is 18% of a $250 order?", "--thread", "t-short")
    monkeypatch.setenv("COLUMNS", "72")
    code, out, err = run_cli(capsys, "threads")
    assert code == 0, err
    lines = out.splitlines()
    assert [line.split()[0] for line in lines] == ["t-short", "t-long"]
    assert all(cell_len(line) <= 72 for line in lines)
    assert lines[1].startswith("t-long  answer") and "What is the refund…" in lines[1]
    assert "…" in lines[1] and " -> " in lines[1]
    assert "What is 18% of a" in lines[0] and " -> 18% of a" in lines[0]


def test_threads_hide_eval_threads_unless_all_and_honour_limit(
    agent_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run_cli(capsys, "ask", "what's our refund window?", "--thread", "eval-notes-r1-q1")
    _, out, _ = run_cli(capsys, "threads")
    assert out == "no threads but those `agent eval` made: add --all to list them\n"
    run_cli(capsys, "ask", "what's our refund window?", "--thread", "mine-1")
    run_cli(capsys, "ask", "What is 18% of a $250 order?", "--thread", "mine-2")
    _, out, _ = run_cli(capsys, "threads")
    assert [line.split()[0] for line in out.splitlines()] == ["mine-2", "mine-1"]
    _, out, _ = run_cli(capsys, "threads", "--all")
    assert [line.split()[0] for line in out.splitlines()] == [
        "mine-2",
        "mine-1",
        "eval-notes-r1-q1",
    ]
    _, out, _ = run_cli(capsys, "threads", "--limit", "1")
    assert [line.split()[0] for line in out.splitlines()] == ["mine-2"]


def test_eval_marker_in_metadata_counts_as_an_eval_thread() -> None:
    assert is_eval_thread("eval-x", {})
    assert is_eval_thread("t-123", {"eval": {"dataset": "notes"}})
    assert not is_eval_thread("t-123", {"source": "loop"})
    assert not is_eval_thread("evaluation", None)


def test_thread_line_keeps_the_answer_visible_beside_a_long_question() -> None:
    row = ThreadSummary("t-1", "why " * 50, "Because.", 3, "answer")
    line = thread_line(row, 60)
    assert cell_len(line) <= 60 and line.endswith(" -> Because.")
    running = thread_line(ThreadSummary("t-2", "q?", None, 0, None), 60)
    assert running == "t-2  running   0 steps  q? -> -"


def test_thread_line_shows_date_and_model_when_the_terminal_has_room() -> None:
    row = ThreadSummary(
        "t-3",
        "A made-up question?",
        "A made-up answer.",
        2,
        "answer",
        updated="2026-12-01T23:55:12.345678+00:00",
        model="openai:gpt-4o-mini",
    )
    wide = thread_line(row, 140)
    assert wide.startswith("t-3  2026-12-01 23:55  openai:gpt-4o-mini  answer ")
    assert wide.endswith("A made-up question? -> A made-up answer.")
    medium = thread_line(row, 120)
    assert medium.startswith("t-3  2026-12-01 23:55  answer ") and "gpt" not in medium
    narrow = thread_line(row, 100)
    assert narrow.startswith("t-3  answer ") and "2026" not in narrow
