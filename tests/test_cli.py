"""The `agent` command line: CliRunner for output, `python -m graph` for exact errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from graph.cli.main import cli, main

ROOT = Path(__file__).parents[1]
ScriptFile = Callable[..., str]
STOCK = [
    {"id": "w1", "text": "The Zephyr widget ships from the Oslo warehouse."},
    {"id": "w2", "text": "The Quasar gadget ships from the Dublin warehouse."},
    {"id": "w3", "text": "Warehouse staff take lunch at noon."},
    {"id": "w4", "text": "The Oslo warehouse is open on weekdays."},
    {"id": "w5", "text": "Widgets are packed in recycled boxes."},
]


def invoke(*args: str) -> Result:
    """Run the CLI in-process (AGENT_HOME comes from the `agent_home` fixture)."""
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def ok(*args: str) -> list[str]:
    """Run the CLI, expect success, return the output lines."""
    result = invoke(*args)
    assert result.exit_code == 0, result.output
    return result.output.splitlines()


def thread_of(lines: list[str]) -> str:
    """The thread id from the `  thread: ID` line of `agent ask`."""
    return next(line.split()[-1] for line in lines if line.startswith("  thread: "))


@pytest.fixture
def stock_corpus(tmp_path: Path) -> Path:
    """A user corpus file of five passages."""
    path = tmp_path / "stock.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in STOCK), encoding="utf-8")
    return path


# --- demo ----------------------------------------------------------------------------------


def test_demo_runs_the_three_seed_goals(agent_home: Path) -> None:
    lines = ok("demo")
    text = "\n".join(lines)
    actions = [line.strip() for line in lines if line.strip().startswith("Action: ")]
    assert actions[0] == 'Action: search_products("who acquired Acme")'
    assert actions[1].startswith("Action: search_products(")
    assert "Globex" in actions[1] and "warranty" in actions[1]
    assert actions[2].startswith("Action: finish(") and "2-year" in actions[2]
    assert actions[3] == 'Action: calculator("0.18 * 250")'
    assert actions[4] == 'Action: finish("18% of a $250 order is $45.00.")'
    assert actions[5] == 'Action: search_policy("refund window")'
    assert "30 days" in actions[6]
    assert len(actions) == 7
    assert "  ANSWER: 18% of a $250 order is $45.00." in lines
    assert any(line.startswith("  ANSWER: Refunds are accepted within 30 days") for line in lines)
    assert "  CITATIONS: prod-1, prod-3" in lines or "  CITATIONS: prod-2, prod-3" in lines
    assert "  CITATIONS: pol-1" in lines
    footers = [
        line.strip() for line in lines if line.strip().endswith(("retrieval)", "retrievals)"))
    ]
    assert footers == [
        "(3 steps, 2 retrievals)",
        "(2 steps, 0 retrievals)",
        "(2 steps, 1 retrieval)",
    ]
    assert "Traceback" not in text
    assert (agent_home / "checkpoints.sqlite").is_file()


# --- ask -------------------------------------------------------------------------------------


def test_ask_json_prints_exactly_the_result_keys(agent_home: Path) -> None:
    lines = ok("ask", "what's our refund window?", "--json")
    assert len(lines) == 1
    result = json.loads(lines[0])
    assert list(result) == [
        *("answer", "short_answer", "citations", "unsupported", "steps", "stopped"),
        *("grounded", "ungrounded", "support", "confident", "doubts", "thread_id"),
    ]
    assert result["citations"] == ["pol-1"] and result["unsupported"] == []
    assert result["grounded"] == 1.0 and result["ungrounded"] is False
    assert (result["steps"], result["stopped"]) == (2, "answer")
    assert "30 days" in result["answer"]


def test_ask_prints_the_trace_and_the_answer(agent_home: Path) -> None:
    lines = ok("ask", "What is 18% of a $250 order?")
    assert lines[0] == "GOAL: What is 18% of a $250 order?"
    assert '    Action: calculator("0.18 * 250")' in lines
    assert "    Observation: 45.0" in lines
    assert "  ANSWER: 18% of a $250 order is $45.00." in lines
    assert "  (2 steps, 0 retrievals)" in lines
    assert thread_of(lines).startswith("t-")


def test_ask_with_a_corpus_adds_a_search_tool_and_answers_from_it(
    agent_home: Path, stock_corpus: Path
) -> None:
    question = "Which warehouse does the Zephyr widget ship from?"
    lines = ok("ask", question, "--corpus", f"stock={stock_corpus}")
    assert any(line.strip().startswith('Action: search_stock("') for line in lines)
    result = json.loads(ok("ask", question, "--corpus", f"stock={stock_corpus}", "--json")[0])
    assert "Oslo" in result["answer"]
    assert result["citations"] == ["w1"]
    without = json.loads(ok("ask", question, "--json")[0])
    assert "w1" not in without["citations"]


def test_ask_max_steps_and_thread(agent_home: Path) -> None:
    question = "Who leads the team that owns the Atlas scheduler?"
    stopped = json.loads(ok("ask", question, "--max-steps", "1", "--json", "--thread", "t-x1")[0])
    # one step leaves no room to search and answer: the policy declines instead of stopping
    assert stopped == {
        "answer": None,
        "short_answer": None,
        "citations": [],
        "unsupported": [],
        "steps": 1,
        "stopped": "no_answer",
        "grounded": 0.0,
        "ungrounded": False,
        "support": 0.0,
        "confident": False,
        "doubts": [],
        "thread_id": "t-x1",
    }
    reused = json.loads(ok("ask", question, "--json", "--thread", "t-x1")[0])
    # the thread's budget of 1 step lives with it: again one step and no search
    assert reused["steps"] == 1 and reused["citations"] == []
    again = json.loads(ok("ask", question, "--json", "--thread", "t-x1", "--max-steps", "6")[0])
    assert again["stopped"] == "answer" and "Priya Raman" in again["answer"]


def test_ask_with_a_scripted_model(agent_home: Path, script_file: ScriptFile) -> None:
    model = script_file(("finish", {"answer": "forty-two", "citations": ["d1"]}))
    result = json.loads(ok("ask", "anything?", "--model", model, "--json")[0])
    assert (result["answer"], result["citations"], result["unsupported"]) == (
        "forty-two",
        [],
        ["d1"],
    )


# --- threads, replay -------------------------------------------------------------------------


def test_threads_lists_newest_first(agent_home: Path) -> None:
    assert ok("threads") == ["no threads yet: run `agent ask QUESTION` or `agent demo`"]
    first = json.loads(ok("ask", "what's our refund window?", "--json")[0])["thread_id"]
    second = json.loads(ok("ask", "What is 18% of a $250 order?", "--json")[0])["thread_id"]
    text = "\n".join(ok("threads"))
    assert text.index(second) < text.index(first)
    assert "refund window" in text and "$45.00" in text


@pytest.mark.parametrize(
    "question",
    [
        "Who leads the team that owns Beacon?",
        "What is 18% of a $250 order?",
        "what's our refund window?",
    ],
)
def test_replay_prints_the_same_trace_as_the_live_ask(agent_home: Path, question: str) -> None:
    live = ok("ask", question)
    thread = thread_of(live)
    assert ok("replay", thread) == live[:-1]


def test_replay_of_a_budget_stop_equals_the_live_ask(
    agent_home: Path, script_file: ScriptFile
) -> None:
    model = script_file(("search_notes", {"query": "Beacon owner"}))  # never finishes
    live = ok("ask", "Who leads the team that owns Beacon?", "--max-steps", "1", "--model", model)
    assert "  STOPPED: the step budget ran out after 1 model call; no answer." in live
    assert ok("replay", thread_of(live)) == live[:-1]


def test_replay_shows_every_turn_of_a_thread(agent_home: Path) -> None:
    first = ok("ask", "what's our refund window?", "--thread", "two-turns")
    second = ok("ask", "What is 18% of a $250 order?", "--thread", "two-turns")
    assert '    Action: calculator("0.18 * 250")' in second
    assert not any("search_policy" in line for line in second)
    replayed = ok("replay", "two-turns")
    # an earlier turn is replayed as its goal and steps (its result is not stored)
    answer_at = next(i for i, line in enumerate(first) if line.startswith("  ANSWER: "))
    assert first[answer_at - 1] == ""
    assert replayed == [*first[: answer_at - 1], "", *second[:-1]]


def test_replay_fork_reruns_with_another_model(agent_home: Path, script_file: ScriptFile) -> None:
    original = script_file(
        ("search_notes", {"query": "Atlas owner"}),
        ("search_notes", {"query": "Fleet Platform lead"}),
        ("finish", {"answer": "Priya Raman", "citations": ["d1", "d2"]}),
    )
    shortcut = script_file(
        ("search_notes", {"query": "Atlas owner"}),
        ("finish", {"answer": "Fleet Platform", "citations": ["d1"]}),
    )
    live = ok("ask", "Who leads the team that owns Atlas?", "--model", original)
    thread = thread_of(live)
    forked = ok("replay", thread, "--fork", "2", "--model", shortcut)
    assert forked[0] == f"[fork] thread {thread} from step 2; the old branch is kept"
    assert forked[1] == f"[settings] --model {shortcut} overrides the thread's {original}"
    assert forked[2:7] == live[:5]  # goal and step 1, as stored
    assert '    Action: finish("Fleet Platform", citations=[d1])' in forked
    assert "  ANSWER: Fleet Platform" in forked
    assert "  (2 steps, 1 retrieval)" in forked
    after = ok("replay", thread)
    assert "  ANSWER: Fleet Platform" in after and "  ANSWER: Priya Raman" not in after


# --- errors: one line on stderr, non-zero exit, no traceback ------------------------------------


def test_openai_without_a_key_is_a_clean_error(
    agent_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    result = CliRunner().invoke(cli, ["ask", "q", "--model", "openai:gpt-4o-mini"])
    assert result.exit_code == 1
    assert "OPENAI_API_KEY" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def _bad_corpus(home: Path) -> str:
    path = home / "bad.jsonl"
    path.write_text('{"id": "a1", "text": "ok"}\nnot json\n', encoding="utf-8")
    return f"bad={path}"


# Run through `python -m graph` (a real process: exit code, stderr, no traceback).
SUBPROCESS_CASES: dict[str, tuple[Callable[[Path], list[str]], str]] = {
    "unknown-thread": (lambda h: ["replay", "never-seen"], "no thread 'never-seen'"),
    "unknown-model": (lambda h: ["ask", "q", "--model", "gpt-9"], "unknown model 'gpt-9'"),
    "openai-no-key": (
        lambda h: ["ask", "q", "--model", "openai:gpt-4o-mini"],
        "needs OPENAI_API_KEY",
    ),
    "bad-corpus": (lambda h: ["ask", "q", "--corpus", _bad_corpus(h)], "bad.jsonl:2:"),
    "max-steps-0": (lambda h: ["ask", "q", "--max-steps", "0"], "--max-steps"),
    "max-steps-negative": (lambda h: ["ask", "q", "--max-steps", "-1"], "--max-steps"),
    "max-steps-abc": (lambda h: ["ask", "q", "--max-steps", "abc"], "--max-steps"),
    "k-0": (lambda h: ["ask", "q", "--k", "0"], "--k"),
    "thread-path": (lambda h: ["ask", "q", "--thread", "../../etc/passwd"], "bad thread id"),
}
# The same checks through `main()` in this process (cheaper: no interpreter start-up).
IN_PROCESS_CASES: dict[str, tuple[Callable[[Path], list[str]], str]] = {
    "unknown-thread-resume": (lambda h: ["resume", "never-seen"], "no thread 'never-seen'"),
    "unknown-thread-fork": (lambda h: ["replay", "never-seen", "--fork", "1"], "no thread"),
    "missing-script": (
        lambda h: ["ask", "q", "--model", "scripted:/nonexistent.json"],
        "not found",
    ),
    "missing-corpus": (lambda h: ["ask", "q", "--corpus", f"x={h}/nope.jsonl"], "nope.jsonl"),
    "bad-corpus-name": (lambda h: ["ask", "q", "--corpus", f"Bad-Name={h}/x.jsonl"], "Bad-Name"),
    "fork-step-0": (lambda h: ["replay", "t1", "--fork", "0"], "--fork"),
    "replay-thread-path": (lambda h: ["replay", "a/b"], "bad thread id"),
    "thread-newline": (lambda h: ["ask", "q", "--thread", "t1\n"], "bad thread id"),
    "empty-question": (lambda h: ["ask", "   "], "the question is empty"),
    "db-is-a-directory": (lambda h: ["threads", "--db", str(h)], "is a directory"),
    "unknown-command": (lambda h: ["frobnicate"], "frobnicate"),
}
PYTHON_M_GRAPH_OK = ["ask", "What is 18% of a $250 order?", "--json"]


@pytest.fixture(scope="module")
def processes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, subprocess.CompletedProcess]:
    """Every subprocess case, and one successful ask, run through `python -m graph` at once."""
    env = {k: v for k, v in os.environ.items() if k not in ("OPENAI_API_KEY", "OPENAI_BASE_URL")}
    argvs = {name: argv for name, (argv, _) in SUBPROCESS_CASES.items()}
    argvs["ok"] = lambda h: PYTHON_M_GRAPH_OK
    running = {}
    for name, argv in argvs.items():
        home = tmp_path_factory.mktemp(name)
        running[name] = subprocess.Popen(
            [sys.executable, "-m", "graph", *argv(home)],
            cwd=home,
            env={**env, "AGENT_HOME": str(home / "state")},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
    done = {}
    for name, process in running.items():
        stdout, stderr = process.communicate(timeout=120)
        done[name] = subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)
    return done


def assert_one_error_line(code: object, stdout: str, stderr: str, expected: str) -> None:
    """A non-zero exit, one `error: ...` line on stderr naming the problem, no traceback."""
    assert code not in (0, None)
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("error: ")
    assert expected in lines[0]
    assert "Traceback" not in stdout + stderr


@pytest.mark.parametrize("case", list(SUBPROCESS_CASES))
def test_errors_are_one_line_on_stderr(
    processes: dict[str, subprocess.CompletedProcess], case: str
) -> None:
    run = processes[case]
    assert_one_error_line(run.returncode, run.stdout, run.stderr, SUBPROCESS_CASES[case][1])


@pytest.mark.parametrize("case", list(IN_PROCESS_CASES))
def test_main_reports_errors_in_one_line(
    agent_home: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    case: str,
) -> None:
    argv, expected = IN_PROCESS_CASES[case]
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exit_info:
        main(argv(tmp_path))
    out, err = capsys.readouterr()
    assert_one_error_line(exit_info.value.code, out, err, expected)


def test_python_m_graph_runs_the_cli(processes: dict[str, subprocess.CompletedProcess]) -> None:
    done = processes["ok"]
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert json.loads(done.stdout)["answer"] == "18% of a $250 order is $45.00."
