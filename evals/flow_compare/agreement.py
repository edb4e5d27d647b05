"""Whether a system's plain result agrees with the expected outcome of a request.

An answer *agrees* with the request set when the outcome is the expected one and: for an
expected answer, it names the expected fault code and part and no other catalogued fault code
or part (or, for an off-topic question, contains the expected text and cites the expected
documents); for an expected escalation, the flow paused on the expected candidates, or at the
part stage with the expected fault code.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from corpora.field_service import load


@cache
def _catalogue() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Every catalogued fault code and part number (to see which ones an answer names)."""
    data = load()
    return tuple(data.faults), tuple(data.parts)


def named(text: str, names: Sequence[str]) -> set[str]:
    """The names from ``names`` that occur in ``text`` as whole tokens."""
    return {n for n in names if re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", text)}


def agrees(expected: Mapping[str, Any], result: Mapping[str, Any]) -> bool:
    """Whether a plain result agrees with the expected outcome (see the module docstring)."""
    outcome = result.get("outcome")
    if outcome != expected.get("outcome"):
        return False
    answer = str(result.get("answer") or "")
    if outcome == "answered":
        if "fault_code" in expected:
            codes, parts = _catalogue()
            return named(answer, codes) == {expected["fault_code"]} and named(answer, parts) == {
                expected["part_no"]
            }
        contains = str(expected.get("answer_contains", ""))
        cited = set(result.get("citations") or [])
        return (
            contains.casefold() in answer.casefold() and set(expected.get("doc_ids", [])) <= cited
        )
    if outcome == "escalated":
        payload = result.get("interrupt") or {}
        if "candidates" in expected:
            return set(payload.get("candidates") or []) == set(expected["candidates"])
        if "fault_code" in expected:
            return (
                payload.get("stage") == "part"
                and payload.get("fault_code") == expected["fault_code"]
            )
        return True
    return True
