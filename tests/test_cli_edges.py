"""Edges between the commands: threads made by another graph, forks after forks, output that
must not start before an error, and exit codes that match the result.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import run_cli

from graph.app.persistence import open_checkpointer
from graph.app.session import Session

VAGUE = "AC-250-B is dripping water from the indoor unit."
Q = "Which company builds the charging docks in the office where the Fleet Platform team sits?"


def test_asking_on_a_paused_flow_thread_is_refused_and_the_escalation_survives(
    agent_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_cli(capsys, "flow", VAGUE, "--thread", "f1")[0] == 0
    code, out, err = run_cli(capsys, "ask", "what's our refund window?", "--thread", "f1")
    assert code == 1 and out == ""
    assert err.strip().startswith("error: thread 'f1' was made by another graph")
    code, out, _ = run_cli(capsys, "resume", "f1", "--with", "F-109")
    assert code == 0 and "F-109" in out


def test_replay_of_a_flow_thread_prints_its_stage_log(
    agent_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run_cli(capsys, "flow", VAGUE, "--thread", "f2")
    code, out, _ = run_cli(capsys, "replay", "f2")
    assert code == 0
    assert "[parse" in out and "[diagnose" in out and "ESCALATED at diagnose" in out


def test_threads_lists_flow_threads_with_their_request_and_outcome(
    agent_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run_cli(capsys, "flow", VAGUE, "--thread", "f3")
    with open_checkpointer() as saver:
        (row,) = Session(saver).threads()
    assert row.thread_id == "f3" and row.question == VAGUE
    assert row.stopped == "paused" and row.steps >= 3


def test_forking_twice_never_adds_steps(agent_home: Path) -> None:
    with open_checkpointer() as saver:
        session = Session(saver)
        thread = session.ask(Q)["thread_id"]
        assert len(session.fork_points(thread)) == 3
        session.fork(thread, 2)
        session.fork(thread, 3)
        assert len(session.fork_points(thread)) == 3
        with pytest.raises(ValueError, match="has steps 1 to 3; cannot fork at 4"):
            session.check_fork(thread, 4, 6)


def test_a_bad_fork_step_prints_nothing_before_the_error(
    agent_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run_cli(capsys, "ask", Q, "--json")
    thread = json.loads(out)["thread_id"]
    code, out, err = run_cli(capsys, "replay", thread, "--fork", "9")
    assert code == 1 and out == "" and "cannot fork at 9" in err


@pytest.mark.parametrize("argv", [["ask", ""], ["ask", "hello", "--thread", "a/b"]])
def test_a_bad_question_or_thread_prints_nothing_before_the_error(
    agent_home: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    code, out, err = run_cli(capsys, *argv)
    assert code == 1 and out == "" and err.startswith("error: ")


def test_json_output_exits_non_zero_when_the_run_stopped_on_an_error(
    agent_home: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    script = tmp_path / "one-turn.json"
    script.write_text(json.dumps([{"tool": "search_notes", "args": {"query": "Atlas"}}]))
    code, out, _ = run_cli(
        capsys, "ask", "Who owns Atlas?", "--model", f"scripted:{script}", "--json"
    )
    result = json.loads(out)
    assert result["stopped"] == "error" and code == 1
