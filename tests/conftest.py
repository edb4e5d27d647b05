"""Shared fixtures for the agent tests: checkpointers, the state directory, scripted models.

One fake model only: `graph.models.scripted.ScriptedModel`, fed turns. A turn is written as
`("tool_name", {args})` for a tool call, a plain string for a final answer in content, or a
ScriptedModel dict (`{"thought", "tool", "args"}` / `{"content"}`).
"""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from langchain_core.callbacks import BaseCallbackHandler
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.memory import InMemorySaver

from graph.app.home import HOME_ENV
from graph.app.persistence import open_checkpointer
from graph.models.scripted import ScriptedModel

PG_DSN = os.environ.get("AGENT_TEST_PG_DSN")
needs_postgres = pytest.mark.skipif(
    not PG_DSN, reason="no PostgreSQL server: set AGENT_TEST_PG_DSN"
)

ScriptTurn = tuple[str, dict[str, Any]] | str | dict[str, Any]


def to_turn(turn: ScriptTurn, index: int) -> dict[str, Any]:
    """A ScriptedModel turn from the compact forms the tests write."""
    if isinstance(turn, dict):
        return turn
    if isinstance(turn, str):
        return {"content": turn}
    tool, args = turn
    return {"thought": f"thought {index + 1}", "tool": tool, "args": args}


def script(*turns: ScriptTurn) -> ScriptedModel:
    """A ScriptedModel playing `turns` in order (see the module docstring for the forms)."""
    return ScriptedModel(turns=[to_turn(turn, index) for index, turn in enumerate(turns)])


@pytest.fixture
def scripted() -> Callable[..., ScriptedModel]:
    """Build a ScriptedModel from turns: `scripted(("search_notes", {"query": "x"}), "done")`."""
    return script


@pytest.fixture
def script_file(tmp_path: Path) -> Callable[..., str]:
    """Write turns to a JSON file in the test's temp dir; returns the "scripted:<path>" spec."""
    written: list[Path] = []

    def write(*turns: ScriptTurn) -> str:
        path = tmp_path / f"script-{len(written) + 1}.json"
        path.write_text(
            json.dumps([to_turn(turn, index) for index, turn in enumerate(turns)]),
            encoding="utf-8",
        )
        written.append(path)
        return f"scripted:{path}"

    return write


def _postgres_schema(dsn: str, schema: str, create: bool) -> None:
    """Create or drop a scratch schema, so each test has its own checkpoint tables."""
    import psycopg

    with psycopg.connect(dsn, autocommit=True) as conn:
        if create:
            conn.execute(f'CREATE SCHEMA "{schema}"')
        else:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


POSTGRES_PARAM = pytest.param("postgres", marks=[pytest.mark.postgres, needs_postgres])


@contextmanager
def open_test_store(kind: str, tmp_path: Path) -> Iterator[BaseCheckpointSaver]:
    """A checkpointer: in memory, a SQLite file in `tmp_path`, or PostgreSQL (its own schema)."""
    if kind == "memory":
        yield InMemorySaver()
    elif kind == "sqlite":
        with open_checkpointer(str(tmp_path / "checkpoints.sqlite")) as saver:
            yield saver
    else:
        assert PG_DSN is not None
        schema = f"agent_test_{uuid.uuid4().hex[:12]}"
        _postgres_schema(PG_DSN, schema, create=True)
        separator = "&" if "?" in PG_DSN else "?"
        try:
            with open_checkpointer(f"{PG_DSN}{separator}options=-csearch_path%3D{schema}") as saver:
                yield saver
        finally:
            _postgres_schema(PG_DSN, schema, create=False)


@pytest.fixture(params=["memory", "sqlite", POSTGRES_PARAM])
def checkpointer(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[BaseCheckpointSaver]:
    """A checkpointer: in memory, a SQLite file per test, or PostgreSQL (a schema per test)."""
    with open_test_store(request.param, tmp_path) as saver:
        yield saver


@pytest.fixture(params=["sqlite", POSTGRES_PARAM])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[BaseCheckpointSaver]:
    """A checkpointer on a real database: a SQLite file per test, or PostgreSQL."""
    with open_test_store(request.param, tmp_path) as saver:
        yield saver


@pytest.fixture(autouse=True)
def _never_the_real_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every test (and every process it starts) keeps its state out of the user's home.

    AGENT_HOME and the application-data root (`XDG_CONFIG_HOME`, where `click.get_app_dir`
    looks when AGENT_HOME is unset) point at a temp folder outside the test's `tmp_path`.
    """
    root = tmp_path_factory.mktemp("home")
    monkeypatch.setenv(HOME_ENV, str(root / "agent-home"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(root / "config"))


@pytest.fixture
def agent_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point AGENT_HOME at a fresh directory for this test (restored afterwards)."""
    home = tmp_path / "agent-home"
    monkeypatch.setenv(HOME_ENV, str(home))
    return home


class ToolRuns(BaseCallbackHandler):
    """Records the tools that actually ran (name and input), via LangChain callbacks."""

    def __init__(self) -> None:
        self.runs: list[tuple[str, str]] = []

    def on_tool_start(self, serialized: dict[str, Any], input_str: str, **kwargs: Any) -> None:
        """Note a tool run."""
        self.runs.append((str((serialized or {}).get("name", kwargs.get("name"))), input_str))


class ModelInputs(BaseCallbackHandler):
    """Records the messages each chat-model call was given."""

    def __init__(self) -> None:
        self.calls: list[list[Any]] = []

    def on_chat_model_start(
        self, serialized: dict[str, Any], messages: list[list[Any]], **kwargs: Any
    ) -> None:
        """Note the messages of a model call."""
        self.calls.extend(messages)


@pytest.fixture
def tool_runs() -> ToolRuns:
    """A callback handler to pass in `config["callbacks"]`, recording the tools that ran."""
    return ToolRuns()


@pytest.fixture
def model_inputs() -> ModelInputs:
    """A callback handler to pass in `config["callbacks"]`, recording what the model saw."""
    return ModelInputs()
