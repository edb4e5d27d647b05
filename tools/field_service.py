"""Field-service tools over ``corpora.field_service``, and the pure functions the flow uses.

Three LangChain tools (``response_format="content_and_artifact"``: a compact text for a model,
the structured result as the artifact; invoke them with a tool call to get the artifact):

* ``search_tickets(model_variant, symptom, limit=8, include_family=False)``: BM25 over ticket
  symptom text, restricted to the variant (or its whole family when asked);
* ``check_availability(part_no)``: stock quantity and lead time;
* ``search_manual(query, product_family, k=1)``: BM25 over the family's manual passages.

Problems with the arguments (an unknown variant, part or family) come back as data:
``{"ok": False, "error": ...}`` and a content line starting ``error:``, never as exceptions.

The pure functions ``diagnose``, ``select_part`` and ``sourcing`` are deterministic: the same
input always gives the same output, and nothing in them calls a tool.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

import numpy as np
from langchain_core.tools import BaseTool, tool
from typing_extensions import TypedDict

from corpora.field_service import VARIANT_RE, FieldServiceData, ManualPassage, family_of, load
from tools.bm25 import BM25

AMBIGUITY_FLOOR = 0.02
"""Two fault codes whose normalised scores are this close (or closer) cannot be told apart."""

ERROR_TEMPLATE = "error: {error}"
"""Content line for a result that is an error."""


class TicketHit(TypedDict):
    """A ticket returned by ``search_tickets``, with its BM25 score for the symptom."""

    id: str
    variant: str
    symptom: str
    fault_code: str
    resolution: str
    score: float


class TicketSearch(TypedDict):
    """The artifact of ``search_tickets``."""

    ok: bool
    model_variant: str
    scope: str
    """``"variant"`` or ``"family"``: which tickets were searched."""
    tickets: list[TicketHit]
    error: str | None


class Availability(TypedDict):
    """The artifact of ``check_availability``."""

    ok: bool
    part_no: str
    stock_qty: int | None
    lead_time_days: int | None
    error: str | None


class PassageHit(ManualPassage):
    """A manual passage returned by ``search_manual``, with its BM25 score."""

    score: float


class ManualSearch(TypedDict):
    """The artifact of ``search_manual``."""

    ok: bool
    product_family: str
    passages: list[PassageHit]
    error: str | None


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


@cache
def _ticket_index() -> BM25:
    """BM25 over every ticket's symptom text (built once per process)."""
    return BM25({t["id"]: t["symptom"] for t in load().tickets})


@cache
def _manual_index() -> BM25:
    """BM25 over every manual passage, section heading and text (built once per process)."""
    return BM25({p["id"]: f"{p['section']}. {p['text']}" for p in load().manual})


def _ranked(index: BM25, query: str, keep: Sequence[bool], k: int) -> list[tuple[int, float]]:
    """Return the ``k`` best (row, score) pairs among rows where ``keep`` is true, score > 0.

    Ties are ordered by document id, so the order never depends on the sort algorithm.
    """
    scores = index.get_scores(query)
    rows = np.flatnonzero((scores > 0) & np.asarray(keep, dtype=bool))
    ids = index.doc_ids
    ordered = sorted(rows.tolist(), key=lambda i: (-scores[i], ids[i]))
    return [(i, float(scores[i])) for i in ordered[:k]]


def find_tickets(
    model_variant: str, symptom: str, limit: int = 8, include_family: bool = False
) -> TicketSearch:
    """Search the ticket history for ``symptom`` on one variant (or its family); errors as data."""
    data = load()
    variant = model_variant.strip().upper()
    scope = "family" if include_family else "variant"

    def error(message: str) -> TicketSearch:
        return {"ok": False, "model_variant": variant, "scope": scope, "tickets": [],
                "error": message}  # fmt: skip

    if VARIANT_RE.fullmatch(variant) is None:
        return error(f"{model_variant!r} is not a model variant of the form AC-250-S")
    if variant not in data.variants:
        return error(f"unknown model variant {variant}; known: {', '.join(data.variants)}")
    if limit < 1:
        return error(f"limit must be at least 1, got {limit}")
    family = family_of(variant)
    keep = [
        (family_of(t["variant"]) == family) if include_family else (t["variant"] == variant)
        for t in data.tickets
    ]
    hits: list[TicketHit] = []
    for row, score in _ranked(_ticket_index(), symptom, keep, limit):
        ticket = data.tickets[row]
        hits.append({**ticket, "score": round(score, 6)})
    return {"ok": True, "model_variant": variant, "scope": scope, "tickets": hits, "error": None}


def lookup_availability(part_no: str) -> Availability:
    """Return stock quantity and lead time for a part; an unknown part is an error result."""
    record = load().stock.get(part_no.strip().upper())
    if record is None:
        return {"ok": False, "part_no": part_no, "stock_qty": None, "lead_time_days": None,
                "error": f"unknown part number {part_no!r}"}  # fmt: skip
    return {"ok": True, "part_no": record["part_no"], "stock_qty": record["qty"],
            "lead_time_days": record["lead_time_days"], "error": None}  # fmt: skip


def find_manual_passages(query: str, product_family: str, k: int = 1) -> ManualSearch:
    """Search one product family's manual passages for ``query``; errors as data."""
    data = load()
    family = product_family.strip().upper()
    if family not in data.families:
        return {"ok": False, "product_family": family, "passages": [],
                "error": f"unknown product family {product_family!r}; "
                         f"known: {', '.join(data.families)}"}  # fmt: skip
    if k < 1:
        return {"ok": False, "product_family": family, "passages": [],
                "error": f"k must be at least 1, got {k}"}  # fmt: skip
    keep = [p["product_family"] == family for p in data.manual]
    passages: list[PassageHit] = []
    for row, score in _ranked(_manual_index(), query, keep, k):
        passages.append({**data.manual[row], "score": round(score, 6)})
    return {"ok": True, "product_family": family, "passages": passages, "error": None}


@tool("search_tickets", response_format="content_and_artifact", parse_docstring=True)
def search_tickets(
    model_variant: str, symptom: str, limit: int = 8, include_family: bool = False
) -> tuple[str, TicketSearch]:
    """Search closed service tickets whose symptoms match, for one model variant.

    Args:
        model_variant: the exact variant from the rating plate, e.g. AC-250-S.
        symptom: the fault as described, in plain words.
        limit: at most this many tickets, best match first.
        include_family: also search the other variants of the same family.

    """
    result = find_tickets(model_variant, symptom, limit, include_family)
    if not result["ok"]:
        return ERROR_TEMPLATE.format(error=result["error"]), result
    if not result["tickets"]:
        variant = result["model_variant"]
        scope = variant if result["scope"] == "variant" else f"the {family_of(variant)} family"
        return f"no ticket for {scope} matches the symptom", result
    lines = [
        f"[{t['id']} {t['variant']} {t['fault_code']} score={t['score']:.2f}] {t['symptom']}"
        f" -> {t['resolution']}"
        for t in result["tickets"]
    ]
    return "\n".join(lines), result


@tool("check_availability", response_format="content_and_artifact", parse_docstring=True)
def check_availability(part_no: str) -> tuple[str, Availability]:
    """Check stock on hand and the lead time in days for a part number, e.g. PN-80150.

    Args:
        part_no: the catalogue part number.

    """
    result = lookup_availability(part_no)
    if not result["ok"]:
        return ERROR_TEMPLATE.format(error=result["error"]), result
    content = (
        f"{result['part_no']}: {result['stock_qty']} in stock, "
        f"lead time {result['lead_time_days']} days"
    )
    return content, result


@tool("search_manual", response_format="content_and_artifact", parse_docstring=True)
def search_manual(query: str, product_family: str, k: int = 1) -> tuple[str, ManualSearch]:
    """Search the service manual of one product family (e.g. AC-250) for a procedure.

    Args:
        query: what to look for, e.g. a fault code and the part to replace.
        product_family: the family without its suffix, e.g. AC-250 for AC-250-S.
        k: at most this many passages, best match first.

    """
    result = find_manual_passages(query, product_family, k)
    if not result["ok"]:
        return ERROR_TEMPLATE.format(error=result["error"]), result
    if not result["passages"]:
        return f"no passage in the {result['product_family']} manual matches", result
    lines = [f"[{p['doc_title']} p.{p['page']}] {p['text']}" for p in result["passages"]]
    return "\n".join(lines), result


def field_service_tools() -> list[BaseTool]:
    """Return the three field-service tools, in a stable order, for an agent to bind."""
    return [search_tickets, check_availability, search_manual]


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
            index = _ticket_index()
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


__all__ = [
    "AMBIGUITY_FLOOR",
    "Availability",
    "Diagnosis",
    "ManualSearch",
    "PassageHit",
    "TicketHit",
    "TicketSearch",
    "check_availability",
    "diagnose",
    "field_service_tools",
    "find_manual_passages",
    "find_tickets",
    "lookup_availability",
    "search_manual",
    "search_tickets",
    "select_part",
    "sourcing",
]
