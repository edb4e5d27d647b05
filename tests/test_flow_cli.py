"""`agent flow`, `agent resume THREAD --with VALUE` and `agent compare-flow`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import run_cli

from evals.flow_compare.agreement import agrees
from evals.flow_compare.compare import compare
from evals.flow_compare.request_set import load_requests, spread
from evals.flow_compare.results import percentile
from evals.flow_compare.tables import markdown_table

CLEAR = "AC-250-A in a server room: the condensate pump isn't running and the float alarm is lit."
VAGUE = "AC-250-B is dripping water from the indoor unit."


def one_line_error(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    return lines[0]


# -- agent flow -----------------------------------------------------------------------------


def test_flow_prints_the_stage_log_and_the_answer(
    agent_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run_cli(capsys, "flow", CLEAR, "--thread", "c1")
    assert code == 0
    stages = [line.split("]")[0].strip(" [") for line in out.splitlines() if "] ok" in line]
    assert stages == ["parse", "history", "diagnose", "part", "stock", "compose"]
    assert "ANSWERED: AC-250-A: F-109" in out and "PN-80150" in out
    assert out.rstrip().endswith("thread: c1")


def test_flow_json(agent_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "flow", "The unit is broken", "--json")
    result = json.loads(out)
    assert code == 0 and result["outcome"] == "aborted"
    assert "no model variant" in result["answer"] and result["steps"] == 1
    assert [entry["stage"] for entry in result["log"]] == ["parse"]


def test_escalation_resumed_from_the_command_line(
    agent_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run_cli(capsys, "flow", VAGUE, "--thread", "v1")
    assert code == 0
    assert "ESCALATED at diagnose" in out
    assert (
        "candidates: F-109 (condensate pump failed), F-110 (condensate drain line blocked)" in out
    )
    assert "agent resume v1 --with F-109" in out

    code, _, err = run_cli(capsys, "resume", "v1")
    assert code == 1 and "add --with VALUE" in one_line_error(err)

    code, _, err = run_cli(capsys, "resume", "v1", "--with", "F-999")
    assert code == 1 and "unknown fault code F-999" in one_line_error(err)

    code, out, _ = run_cli(capsys, "resume", "v1", "--with", "f-110")
    assert code == 0
    assert "human chose F-110" in out and "ANSWERED: AC-250-B: F-110" in out

    code, _, err = run_cli(capsys, "resume", "v1", "--with", "F-110")
    assert code == 1 and "not waiting for a human decision" in one_line_error(err)
    code, _, err = run_cli(capsys, "resume", "v1")
    assert code == 1 and "has finished" in one_line_error(err)


def test_resume_with_close_and_json_values(
    agent_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run_cli(capsys, "flow", VAGUE, "--thread", "v2")
    run_cli(capsys, "flow", VAGUE, "--thread", "v3")
    code, out, _ = run_cli(capsys, "resume", "v2", "--with", "close: sent a technician")
    assert code == 0 and "ESCALATED: Escalated at diagnose" in out
    assert "Closed by a human: sent a technician." in out
    code, out, _ = run_cli(capsys, "resume", "v3", "--with", '{"fault_code": "F-109"}')
    assert code == 0 and "ANSWERED: AC-250-B: F-109" in out
    code, _, err = run_cli(capsys, "resume", "v3", "--with", "{oops")
    assert code == 1 and "--with is not valid JSON" in one_line_error(err)


def test_resume_runs_a_flow_thread_stopped_between_stages_on(
    agent_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from graph.app.flow_runs import flow_config, flow_for
    from graph.app.persistence import open_checkpointer

    with open_checkpointer(None) as saver:  # stopped before part, as a killed process leaves it
        flow_for(saver).invoke({"request": CLEAR}, flow_config("s1"), interrupt_before=["part"])
    code, out, _ = run_cli(capsys, "resume", "s1")
    assert code == 0, out
    stages = [line.split("]")[0].strip(" [") for line in out.splitlines() if "] ok" in line]
    assert stages == ["parse", "history", "diagnose", "part", "stock", "compose"]
    assert "ANSWERED: AC-250-A: F-109" in out
    code, _, err = run_cli(capsys, "resume", "s1")
    assert code == 1 and "has finished" in one_line_error(err)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("resume", "nope", "--with", "F-109"), "unknown thread 'nope'"),
        (("resume", "bad id!", "--with", "F-109"), "bad thread id"),
        (("flow", "  "), "the request is empty"),
        (("flow", CLEAR, "--thread", "bad id!"), "bad thread id"),
        (("compare-flow", "--model", "nope:x"), "unknown model 'nope:x'"),
    ],
)
def test_user_errors_are_one_line(
    agent_home: Path, capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str
) -> None:
    code, _, err = run_cli(capsys, *argv)
    assert code == 1 and message in one_line_error(err)


def test_a_thread_id_is_not_reused(agent_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_cli(capsys, "flow", CLEAR, "--thread", "same")
    code, _, err = run_cli(capsys, "flow", CLEAR, "--thread", "same")
    assert code == 1 and "already exists" in one_line_error(err)


def test_resume_with_on_an_agent_thread(
    agent_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_cli(capsys, "ask", "what's our refund window?", "--thread", "a1")[0] == 0
    code, _, err = run_cli(capsys, "resume", "a1", "--with", "F-109")
    assert code == 1 and "not a flow thread" in one_line_error(err)
    code, out, _ = run_cli(capsys, "resume", "a1")  # an agent thread still resumes as before
    assert code == 0 and "30 days" in out


def test_db_option_keeps_the_thread_in_that_file(
    tmp_path: Path, agent_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "flows.sqlite")
    run_cli(capsys, "flow", VAGUE, "--thread", "d1", "--db", db)
    code, _, err = run_cli(capsys, "resume", "d1", "--with", "F-110")
    assert code == 1 and "unknown thread 'd1'" in one_line_error(err)
    code, out, _ = run_cli(capsys, "resume", "d1", "--with", "F-110", "--db", db)
    assert code == 0 and "PN-80310" in out


# -- agent compare-flow ---------------------------------------------------------------------


def test_compare_flow_prints_one_table(
    agent_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run_cli(capsys, "compare-flow", "--limit", "6")
    assert code == 0
    for column in ("answered", "escalated", "aborted", "agree", "mean steps", "req/s", "p95 ms"):
        assert column in out
    rows = {line.split()[1]: line for line in out.splitlines() if line.startswith("│ ")}
    assert set(rows) >= {"flow", "agent", "router"}
    assert all(" 6 " in rows[name] for name in ("flow", "agent", "router"))


def test_compare_on_a_spread_of_kinds() -> None:
    requests = spread(load_requests(), 12)
    assert len(requests) == 12
    assert {r.kind for r in requests} == {
        "clear", "vague", "no_variant", "no_part", "no_manual", "off_topic"
    }  # fmt: skip
    result = compare(requests)
    flow, agent, router = (result.summary(name) for name in ("flow", "agent", "router"))
    assert flow.agree == 10  # the flow refuses only the off-topic questions
    assert (
        agent.escalated == 0 and agent.agree < flow.agree
    )  # the agent guesses and cannot escalate
    assert router.agree >= max(flow.agree, agent.agree)
    assert all(s.requests == 12 and s.rps > 0 and s.p95_ms >= s.p50_ms for s in result.summaries)
    table = markdown_table(result)
    assert table.splitlines()[0].startswith("| system | requests |") and "| router |" in table


def test_agreement_rules() -> None:
    answered = {"outcome": "answered", "fault_code": "F-109", "part_no": "PN-80150"}
    good = "AC-250-A: F-109 (condensate pump). Fit PN-80150."
    assert agrees(answered, {"outcome": "answered", "answer": good})
    assert not agrees(answered, {"outcome": "answered", "answer": good + " Or F-110."})
    assert not agrees(answered, {"outcome": "answered", "answer": "F-109, part PN-80310"})
    assert not agrees(answered, {"outcome": "escalated", "answer": good})
    vague = {"outcome": "escalated", "candidates": ["F-109", "F-110"]}
    payload = {"stage": "diagnose", "candidates": ["F-110", "F-109"]}
    assert agrees(vague, {"outcome": "escalated", "interrupt": payload})
    no_part = {"outcome": "escalated", "fault_code": "F-104"}
    assert agrees(
        no_part, {"outcome": "escalated", "interrupt": {"stage": "part", "fault_code": "F-104"}}
    )
    assert not agrees(no_part, {"outcome": "escalated", "interrupt": payload})
    off = {"outcome": "answered", "answer_contains": "30 days", "doc_ids": ["pol-1"]}
    assert agrees(off, {"outcome": "answered", "answer": "Within 30 Days.", "citations": ["pol-1"]})
    assert not agrees(off, {"outcome": "answered", "answer": "Within 30 days.", "citations": []})
    assert agrees({"outcome": "aborted"}, {"outcome": "aborted", "answer": ""})


def test_percentile() -> None:
    assert percentile([], 50) == 0.0
    assert percentile([5.0], 95) == 5.0
    assert percentile([1.0, 2.0, 3.0, 4.0], 50) == 2.5
    assert percentile(list(map(float, range(101))), 95) == 95.0
