"""Human escalation: what the flow shows a human, and what it accepts back.

A paused thread is resumed with ``Command(resume=value)`` where ``value`` is one of:

* a fault code, ``"F-109"`` or ``{"fault_code": "F-109"}``: continue from the part stage with it;
* a close decision, ``{"action": "close", "note": "..."}`` (or the string ``"close: <note>"``).

Anything else is a ``ResumeError``: ``resume_flow`` raises it before touching the thread, and
the escalation node, given a bad value through the API, pauses again with the error in the
payload, so the thread stays resumable.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from corpora.field_service import FAULT_CODE_RE, FieldServiceData, family_of
from graph.flow.state import HumanDecision
from tools.field_service_decisions import AMBIGUITY_FLOOR

RESUME_HELP = (
    'resume with a fault code (e.g. "F-109") to continue from the part stage, '
    'or {"action": "close", "note": "..."} to close the request'
)
"""One line telling a human what a resume value may be."""


class ResumeError(ValueError):
    """A resume value the flow cannot act on; ``str(e)`` is one line."""


def parse_decision(
    value: Any, *, stage: str, model_variant: str | None, data: FieldServiceData
) -> HumanDecision:
    """Validate a resume value and turn it into a ``HumanDecision``; ``ResumeError`` if bad.

    A fault code must exist and apply to the variant's family.
    """
    if isinstance(value, str):
        head, sep, note = value.strip().partition(":")
        if head.strip().lower() == "close":
            return {"action": "close", "fault_code": None, "note": note.strip(), "stage": stage}
        return _choose(value, "", stage=stage, model_variant=model_variant, data=data)
    if isinstance(value, Mapping):
        note = value.get("note", "")
        if not isinstance(note, str):
            raise ResumeError(f"note must be a string, got {type(note).__name__}; {RESUME_HELP}")
        action = value.get("action")
        keys = set(value) - {"action", "note", "fault_code"}
        if keys:
            raise ResumeError(
                f"unexpected keys {_short(sorted(keys))} in resume value; {RESUME_HELP}"
            )
        if action == "close":
            return {"action": "close", "fault_code": None, "note": note.strip(), "stage": stage}
        if action in (None, "fault_code") and "fault_code" in value:
            code = value["fault_code"]
            if not isinstance(code, str):
                raise ResumeError(f"fault_code must be a string like F-109; {RESUME_HELP}")
            return _choose(code, note.strip(), stage=stage, model_variant=model_variant, data=data)
        raise ResumeError(f"cannot act on {_short(value)}; {RESUME_HELP}")
    raise ResumeError(f"cannot act on {_short(value)} ({type(value).__name__}); {RESUME_HELP}")


def _choose(
    code: str, note: str, *, stage: str, model_variant: str | None, data: FieldServiceData
) -> HumanDecision:
    """Check a chosen fault code against the catalogue and the variant's family."""
    if not FAULT_CODE_RE.match(code.strip().upper()):
        raise ResumeError(f"{_short(code)} is not a fault code like F-109; {RESUME_HELP}")
    code = code.strip().upper()
    fault = data.faults.get(code)
    if fault is None:
        raise ResumeError(f"unknown fault code {code}; known: {', '.join(data.faults)}")
    if model_variant is not None:
        family = family_of(model_variant)
        if family not in fault["families"]:
            raise ResumeError(f"{code} ({fault['name']}) does not occur on the {family} family")
    return {"action": "fault_code", "fault_code": code, "note": note, "stage": stage}


def parse_resume_text(text: str) -> Any:
    """Turn a command-line ``--with`` value into a resume value.

    ``F-109`` stays a string; ``close`` or ``close: <note>`` becomes a close decision; text that
    starts with ``{`` is parsed as JSON. The result still goes through ``parse_decision``.
    """
    text = text.strip()
    if text.startswith("{"):
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise ResumeError(f"--with is not valid JSON: {exc.msg}; {RESUME_HELP}") from exc
    head, sep, note = text.partition(":")
    if head.strip().lower() == "close":
        return {"action": "close", "note": note.strip() if sep else ""}
    return text


def candidates(top_faults: Sequence[Sequence[Any]], fault_code: str | None) -> list[str]:
    """Return the fault codes a human should choose between.

    The codes tied with the leader (within ``AMBIGUITY_FLOOR``) when there is a tie, else the
    top three; the current fault code always comes first when there is one.
    """
    scored = [(str(code), float(score)) for code, score in top_faults]
    if scored:
        lead = scored[0][1]
        tied = [code for code, score in scored if lead - score <= AMBIGUITY_FLOOR + 1e-9]
        chosen = tied if len(tied) > 1 else [code for code, _ in scored[:3]]
    else:
        chosen = []
    if fault_code is not None:
        chosen = [fault_code, *[c for c in chosen if c != fault_code]]
    return chosen


def _short(value: Any) -> str:
    """A one-line, bounded repr of a value for an error message."""
    text = " ".join(repr(value).split())
    return text if len(text) <= 60 else text[:57] + "..."


__all__ = [
    "RESUME_HELP",
    "ResumeError",
    "candidates",
    "parse_decision",
    "parse_resume_text",
]
