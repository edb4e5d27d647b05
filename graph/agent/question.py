"""The question a run is asked: the one check every entry point makes, and how it is stored.

`check_question` is called where a question enters: `Session.ask` (the Python API, and the CLI
through it) raises its one-line ValueError before a thread is touched; the `reason` node calls
`question_problem` for a run that enters through the graph itself (the LangGraph server, a chat
panel), whose input nothing has checked, and ends that turn with the same line as its error.
"""

from __future__ import annotations

import re
from typing import Any

MAX_QUESTION_CHARS = 20_000
"""The longest question a run takes."""
CONTROL_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
ESCAPE_RE = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]|\x9b[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"
)
"""A terminal escape sequence (CSI "ESC [ 2 J", its one-byte form, or OSC "ESC ] 0;title BEL"):
dropped whole, so the text it was pasted into reads as typed ("\\x1b[2JQuillmere" is
"Quillmere", not the word "2JQuillmere" no document holds)."""


def question_problem(question: Any) -> str | None:
    """Why a question cannot be asked (one line), or None when it can."""
    if not isinstance(question, str):
        return f"the question must be text, got {type(question).__name__}"
    if not question.strip():
        return "the question is empty"
    if len(question) > MAX_QUESTION_CHARS:
        return f"the question is {len(question):,} characters; the limit is {MAX_QUESTION_CHARS:,}"
    try:
        question.encode("utf-8")
    except UnicodeEncodeError:
        return "the question is not valid UTF-8 text"
    if "\x00" in question:
        return "the question contains a NUL character"
    return None


def check_question(question: Any) -> str:
    """`question` when it can be asked, else a ValueError with `question_problem`'s line."""
    problem = question_problem(question)
    if problem is not None:
        raise ValueError(problem)
    return question


def printable(text: str) -> str:
    """`text` with escape sequences dropped and other controls but newline and tab blanked."""
    return CONTROL_RE.sub(" ", ESCAPE_RE.sub("", text))
