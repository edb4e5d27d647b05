"""The plain lookups behind the field-service tools: tickets, stock, manual passages.

Each returns a typed result dict; problems with the arguments (an unknown variant, part or
family) come back as data, ``{"ok": False, "error": ...}``, never as exceptions. The flow calls
these directly; `tools.field_service` wraps them as LangChain tools.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np
from typing_extensions import TypedDict

from corpora.field_service import VARIANT_RE, ManualPassage, family_of, load
from tools.bm25 import BM25


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


@cache
def ticket_index() -> BM25:
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
    for row, score in _ranked(ticket_index(), symptom, keep, limit):
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
