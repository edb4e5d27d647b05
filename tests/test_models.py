"""Chat models by name or object: providers through init_chat_model, one-line errors, defaults."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import run_cli
from fake_openai import fake_openai
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from langgraph.checkpoint.memory import InMemorySaver

from graph.agent.budget import run_config
from graph.agent.context import Context
from graph.agent.graph import build_agent
from graph.app.session import Session
from graph.models import ModelSpecError, as_chat_model, load_model
from graph.models.providers import KNOWN_PROVIDERS, Provider

QUESTION = "Where is the Tamsin observatory?"


@pytest.fixture
def no_keys(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for name in ("AGENT_MODEL", "OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY"):
        monkeypatch.setenv(name, "x")  # recorded, so the test's changes are undone
        monkeypatch.delenv(name)
    return monkeypatch


def write_script(tmp_path: Path, answer: str) -> str:
    path = tmp_path / "turns.json"
    path.write_text(json.dumps([{"content": answer}]), encoding="utf-8")
    return f"scripted:{path}"


def test_a_missing_provider_package_names_what_to_install(no_keys: pytest.MonkeyPatch) -> None:
    no_keys.setitem(
        KNOWN_PROVIDERS,
        "anthropic",
        Provider("not_installed_pkg", "langchain-anthropic", "anthropic", "ANTHROPIC_API_KEY"),
    )
    with pytest.raises(ModelSpecError) as raised:
        load_model("anthropic:claude-3-5-haiku-latest")
    assert str(raised.value) == (
        "model 'anthropic:claude-3-5-haiku-latest' needs the langchain-anthropic package: "
        "pip install 'agentic-rag[anthropic]' (or pip install langchain-anthropic)"
    )


def test_a_missing_api_key_names_the_variable(no_keys: pytest.MonkeyPatch) -> None:
    no_keys.setitem(
        KNOWN_PROVIDERS,
        "anthropic",
        Provider("langchain_openai", "langchain-anthropic", "anthropic", "ANTHROPIC_API_KEY"),
    )
    with pytest.raises(ModelSpecError, match="needs ANTHROPIC_API_KEY: set it in the environment"):
        load_model("anthropic:claude-3-5-haiku-latest")
    with pytest.raises(ModelSpecError, match="needs OPENAI_API_KEY"):
        load_model("openai:gpt-4o-mini")


def test_any_installed_init_chat_model_provider_is_reachable(no_keys: pytest.MonkeyPatch) -> None:
    with pytest.raises(ModelSpecError) as raised:  # langchain-openai is installed, unconfigured
        load_model("azure_openai:gpt-4o")
    assert str(raised.value).startswith("model 'azure_openai:gpt-4o': ")
    assert "\n" not in str(raised.value)
    with pytest.raises(ModelSpecError, match="unknown model 'nosuch:m1': 'nosuch' is not a"):
        load_model("nosuch:m1")


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("anthropic:claude-x", "needs the langchain-anthropic package"),
        ("nosuch:model", "'nosuch' is not a provider LangChain knows"),
        ("gpt-4o", "unknown model 'gpt-4o'"),
        ("scripted:", "a scripted model is 'scripted:<turns.json>'"),
    ],
)
def test_the_cli_says_what_is_wrong_with_a_model_in_one_line(
    no_keys: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    spec: str,
    expected: str,
) -> None:
    if spec.startswith("anthropic"):
        no_keys.setitem(
            KNOWN_PROVIDERS,
            "anthropic",
            Provider("not_installed_pkg", "langchain-anthropic", "anthropic", None),
        )
    db = str(tmp_path / "t.sqlite")
    code, out, err = run_cli(capsys, "ask", QUESTION, "--model", spec, "--db", db)
    assert code == 1 and out == ""
    assert err.startswith("error: ") and expected in err and err.count("\n") == 1


def test_openai_models_go_through_init_chat_model_with_the_env_settings(
    no_keys: pytest.MonkeyPatch,
) -> None:
    with fake_openai([{"answer": "On Brannock Hill."}]) as fake:
        no_keys.setenv("OPENAI_BASE_URL", fake.base_url)
        no_keys.setenv("AGENT_MODEL_RETRIES", "1")
        model = load_model("openai:gpt-test")
        assert model.openai_api_base == fake.base_url  # type: ignore[attr-defined]
        assert model.max_retries == 1  # type: ignore[attr-defined]
        result = Session(InMemorySaver(), model="openai:gpt-test").ask(QUESTION)
    assert result["answer"] == "On Brannock Hill."
    assert fake.requests[0]["model"] == "gpt-test"


def test_a_model_that_cannot_call_tools_is_refused_at_once() -> None:
    plain = GenericFakeChatModel(messages=iter([AIMessage("hi")]))
    for build in (lambda: build_agent(model=plain), lambda: Session(InMemorySaver(), model=plain)):
        with pytest.raises(ModelSpecError) as raised:
            build()
        assert str(raised.value) == (
            "the chat model GenericFakeChatModel cannot call tools (it has no bind_tools); "
            "the agent needs a model with tool calling"
        )


@pytest.mark.parametrize("bad", [42, object(), ["policy"], {"model": "policy"}])
def test_anything_but_a_name_or_a_chat_model_is_a_type_error(bad: Any) -> None:
    with pytest.raises(TypeError, match="model must be a model name .* or a LangChain"):
        build_agent(model=bad)
    with pytest.raises(TypeError, match="model must be a model name"):
        Session(InMemorySaver(), model=bad)


def test_build_agent_takes_a_model_name(tmp_path: Path) -> None:
    graph = build_agent(model=write_script(tmp_path, "By the harbour."))
    result = graph.invoke({"question": QUESTION}, run_config(6), context=Context())
    assert result["answer"] == "By the harbour."
    assert as_chat_model(None) is None


def test_agent_model_sets_the_default_everywhere(
    no_keys: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    spec = write_script(tmp_path, "Past the salt flats.")
    no_keys.setenv("AGENT_MODEL", spec)
    assert Context().model == spec
    assert Session(InMemorySaver()).ask(QUESTION)["answer"] == "Past the salt flats."
    code, out, _ = run_cli(capsys, "ask", QUESTION, "--db", str(tmp_path / "t.sqlite"))
    assert code == 0 and "Past the salt flats." in out
    no_keys.delenv("AGENT_MODEL")
    assert Context().model == "policy"
