"""The one error a checkpoint store raises to the user: `CheckpointerError`, one line."""

from __future__ import annotations


class CheckpointerError(RuntimeError):
    """A checkpoint store that cannot be opened or used (one line, for the user)."""


def first_line(error: BaseException) -> str:
    """The first line of an error message."""
    return (str(error).strip().splitlines() or [type(error).__name__])[0]
