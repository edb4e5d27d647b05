"""The state directory does not move with the working directory; an old `./.agent` is told once.

The autouse fixture in conftest points XDG_CONFIG_HOME (where `click.get_app_dir` looks) at a
temp folder, so "the user's application data folder" here is that folder.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_helpers import run_cli

from graph.app.home import APP_NAME, HOME_ENV, agent_home


def test_the_default_home_is_the_app_data_folder_and_agent_home_wins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(HOME_ENV)
    config = Path(os.environ["XDG_CONFIG_HOME"])
    monkeypatch.chdir(tmp_path)
    assert agent_home() == config / APP_NAME
    monkeypatch.setenv(HOME_ENV, str(tmp_path / "mine"))
    assert agent_home() == tmp_path / "mine"


def test_threads_are_kept_in_the_default_home_whatever_the_working_directory(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    script_file: Callable[..., str],
) -> None:
    monkeypatch.delenv(HOME_ENV)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    monkeypatch.chdir(tmp_path / "a")
    model = script_file("Made-up answer.")
    code, _, err = run_cli(capsys, "ask", "a made-up question?", "--thread", "t-a", "-m", model)
    assert code == 0, err
    monkeypatch.chdir(tmp_path / "b")
    code, out, err = run_cli(capsys, "threads")
    assert code == 0 and out.split()[0] == "t-a", err
    assert os.listdir(tmp_path / "a") == [] and os.listdir(tmp_path / "b") == []
    assert (Path(os.environ["XDG_CONFIG_HOME"]) / APP_NAME / "checkpoints.sqlite").is_file()


def test_an_old_dot_agent_folder_is_told_about_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv(HOME_ENV)
    (tmp_path / ".agent").mkdir()
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(capsys, "threads")
    assert code == 0 and "no threads yet" in out
    (line,) = err.splitlines()
    assert line.startswith("note: the default store is now ")
    assert f"AGENT_HOME={tmp_path / '.agent'}" in line
    code, _, err = run_cli(capsys, "threads")
    assert code == 0 and err == ""  # once per folder


def test_no_notice_when_agent_home_is_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / ".agent").mkdir()
    monkeypatch.chdir(tmp_path)
    code, _, err = run_cli(capsys, "threads")
    assert code == 0 and err == ""
