"""Run context abuse through the real `langgraph dev`: no client makes the server read files."""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fake_openai import fake_openai
from langgraph_sdk import get_client
from server_utils import ROOT, langgraph_dev

from graph.agent.budget import recursion_limit_for

pytestmark = [pytest.mark.server, pytest.mark.slow]

QUESTION = "Which dock does the Orrin ferry leave from?"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    log = Path(tmp_path_factory.mktemp("langgraph-dev")) / "server.log"
    saved = {name: os.environ.pop(name, None) for name in ("AGENT_ALLOWED_MODELS", "AGENT_MODEL")}
    try:
        with langgraph_dev(log) as url:
            yield url
    finally:
        os.environ.update({name: value for name, value in saved.items() if value is not None})


async def _run(url: str, model: str) -> dict[str, Any]:
    client = get_client(url=url)
    thread = await client.threads.create()
    result = await client.runs.wait(
        thread["thread_id"],
        "agent",
        input={"question": QUESTION},
        context={"model": model, "max_steps": 3},
        config={"recursion_limit": recursion_limit_for(3)},
    )
    assert isinstance(result, dict)
    return result


def run(url: str, model: str) -> dict[str, Any]:
    return asyncio.run(asyncio.wait_for(_run(url, model), timeout=60))


def test_a_client_cannot_read_server_files_through_a_scripted_model(
    server: str, tmp_path: Path
) -> None:
    secret = tmp_path / "turns.json"
    secret.write_text(json.dumps([{"content": "SECRET-ON-THE-SERVER"}]), encoding="utf-8")
    present = run(server, f"scripted:{secret}")
    assert present["stopped"] == "error" and present["answer"] is None
    assert "scripted models are for the CLI" in present["error"]
    assert "SECRET" not in json.dumps(present)
    missing = run(server, f"scripted:{tmp_path / 'absent.json'}")
    assert missing["error"] == present["error"]  # nothing tells existing from missing files


def test_a_named_pipe_does_not_block_the_server(server: str, tmp_path: Path) -> None:
    pipe = tmp_path / "pipe.json"
    os.mkfifo(pipe)
    assert run(server, f"scripted:{pipe}")["stopped"] == "error"
    assert run(server, "policy")["error"] is None  # the worker is still free


def test_an_unconfigured_provider_is_refused_by_name(server: str) -> None:
    result = run(server, "openai:gpt-4o-mini")
    assert result["stopped"] == "error"
    assert "'openai:gpt-4o-mini' is not allowed on this server; allowed: policy" in result["error"]


def test_langgraph_dev_reads_the_env_file_named_in_langgraph_json(tmp_path: Path) -> None:
    config = json.loads((ROOT / "langgraph.json").read_text(encoding="utf-8"))
    config["dependencies"] = [str(ROOT)]
    config["graphs"] = {"agent": f"{ROOT}/graph/app/served.py:make_graph"}
    (tmp_path / "langgraph.json").write_text(json.dumps(config), encoding="utf-8")
    with fake_openai([{"answer": "From the north pier."}]) as fake:
        (tmp_path / ".env").write_text(
            f"AGENT_ALLOWED_MODELS=openai:fake-*\nOPENAI_BASE_URL={fake.base_url}\n",
            encoding="utf-8",
        )
        with langgraph_dev(tmp_path / "server.log", cwd=tmp_path) as url:
            refused = run(url, "policy")
            answered = run(url, "openai:fake-model")  # a remote model under its deadline
    assert refused["stopped"] == "error"
    assert "'policy' is not allowed on this server; allowed: openai:fake-*" in refused["error"]
    assert answered["stopped"] == "answer" and answered["answer"] == "From the north pier."
    assert fake.requests[0]["model"] == "fake-model"
