"""The state directory (threads, indexes, eval reports): one place, whatever the working directory.

`$AGENT_HOME` wins; otherwise the user's application data folder (`click.get_app_dir`, as
simonw/llm does: `~/.config/agentic-rag` on Linux), so threads and indexes do not vanish on
`cd`. Before, the default was `./.agent` of the working directory; `legacy_home_notice` is the
one line that says so when such a folder is found, shown once per folder.
"""

from __future__ import annotations

import os
from pathlib import Path

import click

HOME_ENV = "AGENT_HOME"
APP_NAME = "agentic-rag"
"""The application folder's name: the distribution's, so no other `agent` tool shares it."""
LEGACY_HOME = ".agent"
"""The old default: `./.agent` of the working directory."""
NOTICES_FILE = "moved-notices"
"""In the default home: the old `./.agent` folders already told about, one path a line."""


def default_home() -> Path:
    """The user's application data folder for this tool (`click.get_app_dir`)."""
    return Path(click.get_app_dir(APP_NAME))


def agent_home() -> Path:
    """The state directory: `$AGENT_HOME`, or `default_home()`."""
    return Path(os.environ.get(HOME_ENV) or default_home())


def home_folder() -> Path:
    """`agent_home`, refused in one line (ValueError) when it names something not a folder."""
    home = agent_home()
    if home.exists() and not home.is_dir():
        raise ValueError(f"{HOME_ENV}={str(home)!r} is not a folder (the state directory)")
    return home


def legacy_home_notice(cwd: Path | None = None) -> str | None:
    """The one line to show when `./.agent` exists here and `$AGENT_HOME` is not set.

    None when there is nothing to say, or when it was already said for this folder (the
    folders told about are noted in the default home, `NOTICES_FILE`).
    """
    legacy = (cwd or Path.cwd()) / LEGACY_HOME
    if os.environ.get(HOME_ENV) or not legacy.is_dir():
        return None
    home = default_home()
    where = str(legacy.resolve())
    notes = home / NOTICES_FILE
    try:
        if where in notes.read_text(encoding="utf-8").splitlines():
            return None
    except (OSError, UnicodeDecodeError):
        pass
    try:
        home.mkdir(parents=True, exist_ok=True)
        with notes.open("a", encoding="utf-8") as file:
            file.write(where + "\n")
    except OSError:
        pass  # cannot note it: the line is shown again next time, nothing else changes
    return (
        f"the default store is now {home} (not ./{LEGACY_HOME}); "
        f"to keep using {where}, set AGENT_HOME={where}"
    )
