"""What ``--mcp SPEC`` names: a streamable HTTP URL or a command to start over stdio.

``http://127.0.0.1:8765/mcp`` (or https) is a running server; ``stdio:COMMAND ARGS...`` is a
server this process starts and talks to over its standard input and output (the words are
split the way a shell splits them, without running a shell). Tool and server names are made
safe for every model provider (letters, digits, ``_`` and ``-``); a server's name is cut to
``MAX_SERVER_NAME`` characters, so a prefixed tool name keeps room for the tool's own. A URL's
password is never printed: ``label`` and every error show it as ``***``.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import urlsplit

SPEC_HELP = "http://HOST:PORT/mcp or stdio:COMMAND ARGS..."
"""What a spec looks like, for help texts and errors."""
MAX_NAME = 64
"""Longest tool name the model providers accept."""
MAX_SERVER_NAME = 24
"""Longest server name kept (the prefix of a tool that would shadow another)."""
_PASSWORD = re.compile(r"(://[^/:@\s]*:)[^/\s]*@")
_UNSAFE = re.compile(r"[^A-Za-z0-9_-]+")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


@dataclass(frozen=True)
class ServerSpec:
    """One MCP server to connect to."""

    transport: Literal["stdio", "http"]
    url: str = ""
    """The streamable HTTP endpoint (``http`` transport)."""
    command: tuple[str, ...] = ()
    """The program and its arguments (``stdio`` transport)."""

    @property
    def label(self) -> str:
        """The server as a user wrote it, for messages."""
        if self.transport == "http":
            return redacted(self.url)
        return "stdio:" + shlex.join(self.command)


def redacted(text: str) -> str:
    """``text`` with the password of every URL's user part (``user:pass@``) shown as ``***``."""
    return _PASSWORD.sub(r"\1***@", text)


def parse_spec(text: str) -> ServerSpec:
    """Parse ``--mcp SPEC``; a ValueError (one line) says what is wrong with it."""
    raw = text.strip()
    if raw.startswith("stdio:"):
        try:
            words = shlex.split(raw.removeprefix("stdio:"))
        except ValueError as error:
            raise ValueError(f"--mcp {raw!r}: cannot split the command ({error})") from None
        if not words:
            raise ValueError(f"--mcp {raw!r}: no command after stdio:; expected {SPEC_HELP}")
        return ServerSpec("stdio", command=tuple(words))
    raw_shown = redacted(raw)
    try:
        parts = urlsplit(raw)
    except ValueError as error:
        raise ValueError(f"--mcp {raw_shown!r}: not a URL ({error})") from None
    if parts.scheme in ("http", "https"):
        if not parts.hostname:
            raise ValueError(f"--mcp {raw_shown!r}: the URL has no host; expected {SPEC_HELP}")
        try:
            parts.port  # noqa: B018 - raises ValueError for a bad port
        except ValueError:
            raise ValueError(f"--mcp {raw_shown!r}: the URL has a bad port") from None
        return ServerSpec("http", url=raw)
    raise ValueError(f"--mcp {raw_shown!r}: expected {SPEC_HELP}")


def server_name(name: str) -> str:
    """A server's name from ``initialize``, made safe and cut to ``MAX_SERVER_NAME``."""
    return safe_name(name)[:MAX_SERVER_NAME].rstrip("_-") or "mcp"


def safe_name(name: str, fallback: str = "mcp") -> str:
    """``name`` with every run of unsafe characters replaced by ``_`` (never empty)."""
    cleaned = _UNSAFE.sub("_", name).strip("_-")
    return (cleaned or fallback)[:MAX_NAME]


def clean(value: Any) -> Any:
    """A server's value made safe to print.

    Control and bidi characters in every string (keys, list items and nested values included)
    become spaces; newlines and tabs stay.
    """
    if isinstance(value, str):
        return _CONTROL.sub(" ", value)
    if isinstance(value, dict):
        return {clean(str(key)): clean(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [clean(item) for item in value]
    return value


__all__ = [
    "MAX_NAME",
    "MAX_SERVER_NAME",
    "SPEC_HELP",
    "ServerSpec",
    "clean",
    "parse_spec",
    "redacted",
    "safe_name",
    "server_name",
]
