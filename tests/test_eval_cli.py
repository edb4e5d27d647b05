import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import run_cli as shared_run_cli

from graph.app.home import HOME_ENV

ROOT = Path(__file__).resolve().parent.parent
RETRIEVAL_LINE = (
    r"retrieval: agent \d\.\d{3} vs single-shot BM25 \d\.\d{3} at equal budget "
    r"\(\d+\.\d paragraphs/question\)"
)


def agent_env(home: Path) -> dict[str, str]:
    """The environment for a subprocess: AGENT_HOME in the test's temp dir, no API keys."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
    env[HOME_ENV] = str(home)
    return env


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Run `agent` in-process; return (exit code, stdout, stderr)."""
    return shared_run_cli(capsys, *argv)


def test_eval_notes_end_to_end(tmp_path: Path) -> None:
    home = tmp_path / "home"
    proc = subprocess.run(
        [sys.executable, "-m", "graph", "eval", "--dataset", "notes", "--run-id", "e2e"],
        cwd=tmp_path,
        env=agent_env(home),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "accuracy" in proc.stdout and "1.000" in proc.stdout
    assert any(re.fullmatch(RETRIEVAL_LINE, line) for line in proc.stdout.splitlines())
    out = home / "evals" / "notes-e2e"
    assert f"report: {out / 'report.html'}" in proc.stdout
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert [r["question_id"] for r in rows] == ["q1", "q2", "q3", "q4", "q5"]
    # the threads are in the default store, so `agent replay` shows them
    replay = subprocess.run(
        [sys.executable, "-m", "graph", "replay", rows[0]["thread_id"]],
        cwd=tmp_path,
        env=agent_env(home),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert replay.returncode == 0, replay.stderr
    assert replay.stdout.startswith("GOAL: Who leads the team that owns the Atlas scheduler?")
    assert "ANSWER: " in replay.stdout


def test_compare_prints_both_columns(
    agent_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "cmp"
    argv = ["eval", "--dataset", "seed_runs", "--compare", "policy,policy", "--out", str(out)]
    code, stdout, stderr = run_cli(argv, capsys)
    assert code == 0, stderr
    header = next(line for line in stdout.splitlines() if "metric" in line)
    assert "policy #1" in header and "policy #2" in header
    accuracy = next(line for line in stdout.splitlines() if "accuracy" in line)
    assert accuracy.count("1.000") == 2
    assert "policy #1: retrieval: agent" in stdout and "policy #2: retrieval: agent" in stdout
    assert (out / "compare.md").is_file()
    for name in ("1-policy", "2-policy"):
        assert (out / name / "report.html").is_file()
    first = json.loads((out / "1-policy" / "results.jsonl").read_text().splitlines()[0])
    second = json.loads((out / "2-policy" / "results.jsonl").read_text().splitlines()[0])
    assert first["thread_id"] != second["thread_id"]  # each model run has its own threads


def test_options_flow_through(
    agent_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [
        "eval",
        "--dataset",
        "hotpotqa-hard",
        "--limit",
        "3",
        "--k",
        "2",
        "--max-steps",
        "2",
        "--concurrency",
        "1",
        "--run-id",
        "opts",
        "--db",
        str(tmp_path / "own.sqlite"),
    ]
    code, stdout, stderr = run_cli(argv, capsys)
    assert code == 0, stderr
    out = agent_home / "evals" / "hotpotqa-hard-opts"
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert len(rows) == 3
    assert all(r["steps"] <= 2 for r in rows)
    assert all(len(r["retrieved"]) <= 2 for r in rows)  # one search of k=2 fits in 2 steps
    assert (tmp_path / "own.sqlite").is_file()
    assert not (agent_home / "checkpoints.sqlite").exists()
    md = (out / "report.md").read_text()
    assert "questions: 3 of 100" in md and "max steps: 2" in md and "k: 2" in md


BAD_FILES = {
    "duplicate.jsonl": (
        '{"id": "q1", "question": "a?", "answers": ["x"]}\n'
        '{"id": "q1", "question": "b?", "answers": ["y"]}\n',
        "duplicate.jsonl:2: duplicate id 'q1' (first on line 1)",
    ),
    "broken.jsonl": ('{"id": "q1", "question": \n', "broken.jsonl:1: malformed JSON"),
    "typo.jsonl": (
        '{"id": "q1", "question": "a?", "answer": ["x"]}\n',
        "typo.jsonl:1: unknown key 'answer'",
    ),
    "ghost.jsonl": (
        '{"dataset": "g", "corpus": "notes"}\n'
        '{"id": "q1", "question": "a?", "answers": ["x"], "supporting": ["d99"]}\n',
        "ghost.jsonl:2: supporting id 'd99' is not in corpus notes",
    ),
    "empty.jsonl": ("\n", "empty.jsonl:1: empty dataset"),
}


def test_bad_dataset_files_give_one_line_errors(tmp_path: Path) -> None:
    home = tmp_path / "home"
    for name, (text, _) in BAD_FILES.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    cases = {name: [str(tmp_path / name)] for name in BAD_FILES}
    cases["missing"] = [str(tmp_path / "missing.jsonl")]
    cases["unknown"] = ["no_such_dataset"]
    procs = {
        name: subprocess.Popen(
            [sys.executable, "-m", "graph", "eval", "--dataset", *args],
            cwd=tmp_path,
            env=agent_env(home),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name, args in cases.items()
    }
    expected = {name: want for name, (_, want) in BAD_FILES.items()}
    expected["missing"] = "missing.jsonl: no such file"
    expected["unknown"] = "unknown dataset 'no_such_dataset'"
    for name, proc in procs.items():
        stdout, stderr = proc.communicate(timeout=120)
        assert proc.returncode != 0, name
        assert "Traceback" not in stderr, stderr
        lines = stderr.strip().splitlines()
        assert len(lines) == 1, (name, stderr)
        assert lines[0].startswith("error: "), (name, stderr)
        assert expected[name] in lines[0], (name, stderr)
        assert stdout == ""
    assert not (home / "evals").exists()  # nothing ran, nothing written


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--model", "nope"], "error: unknown model 'nope'"),
        (["--compare", "policy,nope"], "error: unknown model 'nope'"),
        (["--k", "0"], "error: Invalid value for '--k'"),
        (["--concurrency", "many"], "error: Invalid value for '--concurrency'"),
        (["--limit", "-1"], "error: Invalid value for '--limit'"),
        (["--model", "policy", "--compare", "policy"], "error: give --model or --compare"),
        (["--compare", "policy,,policy"], "error: --compare takes model names"),
        (["--run-id", "../up"], "error: bad --run-id '../up'"),
    ],
)
def test_bad_options_give_one_line_errors(
    agent_home: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, stdout, stderr = run_cli(["eval", "--dataset", "notes", *args], capsys)
    assert code != 0
    assert stderr.startswith(message), stderr
    assert len(stderr.strip().splitlines()) == 1
    assert stdout == ""


def test_eval_server_that_is_not_there_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    import socket

    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    argv = ("eval", "--dataset", "notes", "--server", url, "--out", str(tmp_path / "r"))
    code, out, err = run_cli(list(argv), capsys)
    assert code == 1 and out == ""
    assert err.startswith(f"error: cannot reach a LangGraph server at {url}: ")
    assert len(err.splitlines()) == 1
    code, _, err = run_cli(["eval", "--dataset", "notes", "--assistant", "agent"], capsys)
    assert code == 2 and "--assistant needs --server" in err
