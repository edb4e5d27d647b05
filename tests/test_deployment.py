"""Deployment: `langgraph dockerfile` from this langgraph.json builds an image without local state.

The generated Dockerfile copies the project directory (`ADD . /deps/...`), so what stays out of
the image is what `.dockerignore` excludes: the test reads both, as Docker would.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from fnmatch import fnmatch
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
KEPT_OUT = [".venv", ".venv/bin/python", ".agent", ".agent/checkpoints.sqlite", "graph/__pycache__",
            ".mypy_cache", ".pytest_cache", ".ruff_cache", "benchmarks/.cache", ".env"]  # fmt: skip
KEPT_IN = [
    "graph/agent/graph.py",
    "langgraph.json",
    "pyproject.toml",
    "corpora/data",
    "tools/bm25.py",
]


def ignored(path: str, patterns: list[str]) -> bool:
    """Whether Docker leaves `path` out of the build context (last matching pattern wins)."""
    result = False
    for pattern in patterns:
        negate = pattern.startswith("!")
        body = pattern.lstrip("!").strip("/")
        parts = path.split("/")
        prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
        hit = any(fnmatch(prefix, body) or fnmatch(prefix, f"**/{body}") for prefix in prefixes)
        hit = hit or ("/" not in body and any(fnmatch(part, body) for part in parts))
        if hit:
            result = not negate
    return result


def dockerignore() -> list[str]:
    lines = (ROOT / ".dockerignore").read_text().splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def test_langgraph_json_names_the_python_version() -> None:
    config = json.loads((ROOT / "langgraph.json").read_text())
    assert config["python_version"] == "3.11"
    assert set(config["graphs"]) == {"agent", "flow", "router"}


@pytest.mark.slow
def test_the_generated_dockerfile_copies_no_venv_or_local_state(tmp_path: Path) -> None:
    cli = Path(sys.executable).parent / "langgraph"
    env = {**os.environ, "LANGGRAPH_CLI_NO_ANALYTICS": "1"}
    dockerfile = tmp_path / "Dockerfile"
    subprocess.run(
        [str(cli), "dockerfile", "-c", str(ROOT / "langgraph.json"), str(dockerfile)],
        cwd=ROOT, env=env, check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    text = dockerfile.read_text()
    assert text.startswith("FROM langchain/langgraph-api:3.11")
    sources = [m.group(1) for m in re.finditer(r"^(?:ADD|COPY)\s+(\S+)\s+\S+", text, re.M)]
    assert sources == ["."]  # the project directory, filtered by .dockerignore
    assert ".venv" not in text
    patterns = dockerignore()
    for path in KEPT_OUT:
        assert ignored(path, patterns), f"{path} would be copied into the image"
    for path in KEPT_IN:
        assert not ignored(path, patterns), f"{path} would be missing from the image"


@pytest.mark.slow
def test_the_deploy_config_carries_saved_indexes_and_the_dense_extra(tmp_path: Path) -> None:
    import tomllib

    cli = Path(sys.executable).parent / "langgraph"
    env = {**os.environ, "LANGGRAPH_CLI_NO_ANALYTICS": "1"}
    dockerfile = tmp_path / "Dockerfile"
    subprocess.run(
        [str(cli), "dockerfile", "-c", str(ROOT / "langgraph.deploy.json"), str(dockerfile)],
        cwd=ROOT, env=env, check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    lines = dockerfile.read_text().splitlines()
    deploy = json.loads((ROOT / "langgraph.deploy.json").read_text())
    served = json.loads((ROOT / "langgraph.json").read_text())
    assert deploy["graphs"] == served["graphs"]  # the same graphs, only the image differs
    copy = lines.index("COPY deploy/indexes /srv/agent/indexes")
    assert lines.index('ARG AGENT_CORPORA=""') < copy
    assert lines[copy + 1] == "ENV AGENT_HOME=/srv/agent AGENT_CORPORA=${AGENT_CORPORA}"
    install = next(line for line in lines if line.startswith("RUN pip install --no-cache-dir '"))
    dense = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = dense["optional-dependencies"]["dense"]
    assert re.findall(r"'([^']+)'", install) == wanted  # the [dense] extra, as pyproject says
    added = next(i for i, line in enumerate(lines) if line.startswith("ADD . /deps/"))
    assert copy < added  # the indexes are in the image before the project is installed
    assert not ignored("deploy/indexes/kb/manifest.json", dockerignore())
