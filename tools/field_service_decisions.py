"""The flow's deterministic decisions: which fault, which part, how it is sourced.

``diagnose``, ``select_part`` and ``sourcing`` are pure: the same input always gives the same
output, and nothing in them calls a tool.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from typing_extensions import TypedDict

from corpora.field_service import FieldServiceData, load
from tools.field_service_lookups import ticket_index

AMBIGUITY_FLOOR = 0.02
"""Two fault codes whose normalised scores are this close (or closer) cannot be told apart."""


class Diagnosis(TypedDict):
    """The result of ``diagnose``."""

    fault_code: str | None
    """The leading fault code (None when no ticket matched); check ``ambiguous`` first."""
    margin: float
    """Normalised score of the leader minus that of the runner-up (1.0 with a single code)."""
    top: list[tuple[str, float]]
    """Every fault code seen, with its normalised score (they sum to 1), best first."""
    ambiguous: bool
    """True when nothing matched or the top two are within ``AMBIGUITY_FLOOR``."""


def diagnose(symptom: str, tickets: Sequence[Mapping[str, Any]]) -> Diagnosis:
    """Score fault codes from the tickets that matched ``symptom``.

    Each fault code scores the BM25 score of its best-matching ticket (one strong match is the
    evidence; many weak ones do not add up to it). Scores are divided by their sum, so they are
    shares in [0, 1] and a margin means the same whatever the query's length. A ticket without
    a ``score`` is scored against ``symptom`` with the ticket index. The result is ambiguous
    when nothing matched or the top two codes are within ``AMBIGUITY_FLOOR``.
    """
    fallback: np.ndarray | None = None
    best: dict[str, float] = defaultdict(float)
    for ticket in tickets:
        score = ticket.get("score")
        if score is None:
            index = ticket_index()
            if fallback is None:
                fallback = index.get_scores(symptom)
            score = float(fallback[list(index.doc_ids).index(ticket["id"])])
        code = ticket["fault_code"]
        best[code] = max(best[code], float(score))
    total = sum(best.values())
    if total <= 0:
        return {"fault_code": None, "margin": 0.0, "top": [], "ambiguous": True}
    shares = sorted(((code, s / total) for code, s in best.items()), key=lambda c: (-c[1], c[0]))
    margin = shares[0][1] - (shares[1][1] if len(shares) > 1 else 0.0)
    return {
        "fault_code": shares[0][0],
        "margin": round(margin, 4),
        "top": [(code, round(share, 4)) for code, share in shares],
        "ambiguous": round(margin, 6) <= AMBIGUITY_FLOOR,
    }


def select_part(fault_code: str, variant: str, data: FieldServiceData | None = None) -> str | None:
    """Return the first catalogued part that fixes ``fault_code`` on exactly ``variant``.

    Never substitutes across variants: a part listed for AC-250-A is not offered for AC-250-S,
    however similar. Returns None when no part fits.
    """
    data = data or load()
    for part in data.parts.values():
        if part["fixes"] == fault_code and variant in part["fits"]:
            return part["part_no"]
    return None


def sourcing(part_no: str, data: FieldServiceData | None = None) -> str:
    """Return how a part is sourced (supplier and channel); KeyError for an unknown part."""
    part = (data or load()).parts.get(part_no)
    if part is None:
        raise KeyError(f"unknown part number {part_no!r}")
    return part["sourcing"]
