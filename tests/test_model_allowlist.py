"""Models named in a run's context: any model from the CLI, only allowed ones on a server."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from graph.agent.budget import run_config
from graph.agent.context import Context
from graph.agent.graph import build_agent
from graph.app.session import Session
from graph.models.allowlist import ModelNotAllowed, allowed_models, check_allowed

QUESTION = "Which dock does the Orrin ferry leave from?"


@pytest.fixture
def bare_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """No provider configured, no allow-list, no default model."""
    for name in ("AGENT_ALLOWED_MODELS", "AGENT_MODEL", "OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def script_file(tmp_path: Path) -> Path:
    path = tmp_path / "secret.json"
    path.write_text(json.dumps([{"content": "SECRET-FILE-CONTENT"}]), encoding="utf-8")
    return path


def server_run(spec: str) -> dict[str, Any]:
    """A run of the graph the server exports (built the same way), naming `spec`."""
    graph = build_agent()
    return graph.invoke({"question": QUESTION}, run_config(6), context=Context(model=spec))


def test_a_server_run_cannot_read_a_file_through_a_scripted_model(
    bare_env: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    result = server_run(f"scripted:{script_file(tmp_path)}")
    assert result["stopped"] == "error" and result["answer"] is None
    assert "scripted models are for the CLI" in result["error"]
    assert "SECRET" not in json.dumps(result, default=str)


def test_missing_and_existing_files_get_the_same_refusal(
    bare_env: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    present = server_run(f"scripted:{script_file(tmp_path)}")["error"]
    missing = server_run(f"scripted:{tmp_path / 'nothing-here.json'}")["error"]
    assert present == missing


def test_a_named_pipe_is_never_opened(bare_env: pytest.MonkeyPatch, tmp_path: Path) -> None:
    pipe = tmp_path / "pipe.json"
    os.mkfifo(pipe)  # opening it would block this test until pytest's timeout
    result = server_run(f"scripted:{pipe}")
    assert result["stopped"] == "error" and "scripted" in result["error"]


def test_the_cli_and_python_api_still_run_scripted_models(
    bare_env: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    result = Session(InMemorySaver()).ask(QUESTION, model=f"scripted:{script_file(tmp_path)}")
    assert result["stopped"] == "answer" and result["answer"] == "SECRET-FILE-CONTENT"


def test_by_default_the_policy_and_configured_providers_are_allowed(
    bare_env: pytest.MonkeyPatch,
) -> None:
    assert allowed_models() == ["policy"]
    assert server_run("policy")["error"] is None
    refused = server_run("openai:gpt-4o-mini")
    assert refused["stopped"] == "error" and "not allowed on this server" in refused["error"]
    bare_env.setenv("OPENAI_API_KEY", "sk-test")
    assert allowed_models() == ["policy", "openai:*"]
    assert check_allowed("openai:gpt-4o-mini") == "openai:gpt-4o-mini"


def test_the_default_model_is_allowed_but_never_a_scripted_one(
    bare_env: pytest.MonkeyPatch,
) -> None:
    bare_env.setenv("AGENT_MODEL", "openai:gpt-4o-mini")
    assert allowed_models() == ["policy", "openai:gpt-4o-mini"]
    bare_env.setenv("AGENT_MODEL", "scripted:/tmp/x.json")
    assert allowed_models() == ["policy"]


def test_the_allow_list_names_models_and_patterns(bare_env: pytest.MonkeyPatch) -> None:
    bare_env.setenv("AGENT_ALLOWED_MODELS", "openai:gpt-4o-*, anthropic:claude-3-5-haiku-latest")
    assert check_allowed("openai:gpt-4o-mini") == "openai:gpt-4o-mini"
    assert check_allowed("anthropic:claude-3-5-haiku-latest")
    for spec in ("policy", "openai:o1", "anthropic:claude-opus", "google_genai:gemini"):
        with pytest.raises(ModelNotAllowed, match="not allowed on this server"):
            check_allowed(spec)


def test_listing_a_scripted_model_does_not_allow_it(
    bare_env: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    spec = f"scripted:{script_file(tmp_path)}"
    bare_env.setenv("AGENT_ALLOWED_MODELS", f"policy,{spec}")
    with pytest.raises(ModelNotAllowed, match="scripted models are for the CLI"):
        check_allowed(spec)
    assert "scripted" not in server_run(spec)["error"].split(";")[1]  # not listed as allowed


def test_the_exported_router_refuses_scripted_models_too(
    bare_env: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from graph.router import build_router, router_config

    router = build_router()
    result = router.invoke(
        {"request": QUESTION},
        router_config("r1"),
        context=Context(model=f"scripted:{script_file(tmp_path)}"),
    )
    assert "SECRET" not in json.dumps(result, default=str)
    assert "scripted models are for the CLI" in json.dumps(result, default=str)
