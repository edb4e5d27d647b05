"""`.env` files: read by the CLI and by langgraph.json; `.env.example` lists every variable."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from cli_helpers import run_cli
from dotenv import dotenv_values

from graph.models.providers import KNOWN_PROVIDERS

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / ".env.example"
QUESTION = "When does the Vellum library open?"
SOURCES = ("graph", "tools", "corpora", "evals")
READ_RE = re.compile(r'(?:_ENV\s*=\s*|environ(?:\.get)?[\[(]\s*|getenv\(\s*)"([A-Z][A-Z0-9_]+)"')


def variables_read() -> set[str]:
    """Every environment variable the project's code names (and the provider keys)."""
    names: set[str] = set()
    for package in SOURCES:
        for path in (ROOT / package).rglob("*.py"):
            names.update(READ_RE.findall(path.read_text(encoding="utf-8")))
    names.update(p.key_env for p in KNOWN_PROVIDERS.values() if p.key_env)
    names.update(READ_RE.findall((ROOT / "tests" / "conftest.py").read_text(encoding="utf-8")))
    return names


def test_the_scan_finds_the_variables_it_should() -> None:
    assert {"AGENT_HOME", "AGENT_MODEL", "OPENAI_BASE_URL", "AGENT_TEST_PG_DSN"} <= variables_read()


def test_env_example_lists_every_variable_with_a_comment() -> None:
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()
    listed = {
        match.group(1): index
        for index, line in enumerate(lines)
        if (match := re.match(r"# ([A-Z][A-Z0-9_]+)=", line))
    }
    missing = sorted(variables_read() - set(listed))
    assert missing == [], f".env.example does not list {missing}"
    for name, index in listed.items():
        assert explained(lines, index), f"{name} has no comment above it"


def explained(lines: list[str], index: int) -> bool:
    """Whether a prose comment sits above line `index`, in its block (past other settings)."""
    for line in reversed(lines[:index]):
        if not line.startswith("#"):
            return False
        if not re.match(r"# [A-Z][A-Z0-9_]+=", line):
            return True
    return False


def test_a_copy_of_the_example_sets_nothing_and_leaves_tracing_off() -> None:
    assert dotenv_values(EXAMPLE) == {}


def test_langgraph_json_reads_the_env_file() -> None:
    assert json.loads((ROOT / "langgraph.json").read_text(encoding="utf-8"))["env"] == ".env"


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working directory of its own; AGENT_MODEL restored however .env changes it."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("AGENT_MODEL", "x")
    monkeypatch.delenv("AGENT_MODEL")
    (tmp_path / "turns.json").write_text(json.dumps([{"content": "At nine."}]), encoding="utf-8")
    return tmp_path


def test_the_cli_reads_dotenv_from_the_working_directory(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (workdir / ".env").write_text(f"AGENT_MODEL=scripted:{workdir / 'turns.json'}\n")
    code, out, _ = run_cli(capsys, "ask", QUESTION, "--db", str(workdir / "t.sqlite"))
    assert code == 0 and "At nine." in out


def test_the_shell_wins_over_dotenv(
    workdir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (workdir / ".env").write_text(f"AGENT_MODEL=scripted:{workdir / 'turns.json'}\n")
    monkeypatch.setenv("AGENT_MODEL", "policy")
    code, out, _ = run_cli(capsys, "ask", QUESTION, "--db", str(workdir / "t.sqlite"))
    assert code == 0 and "At nine." not in out


@pytest.mark.parametrize("kind", ["folder", "pipe", "binary"])
def test_an_unreadable_dotenv_is_one_line(
    workdir: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    path = workdir / ".env"
    if kind == "folder":
        path.mkdir()
    elif kind == "pipe":
        os.mkfifo(path)  # opened, it would block the command
    else:
        path.write_bytes(b"AGENT_MODEL=\xff\xfe\n")
    code, out, err = run_cli(capsys, "ask", QUESTION, "--db", str(workdir / "t.sqlite"))
    assert code == 1 and out == ""
    assert err.startswith("error: ") and "cannot read the .env file" in err
    assert err.count("\n") == 1
