"""Field-service tools over ``corpora.field_service``, for an agent to bind.

Three LangChain tools (``response_format="content_and_artifact"``: a compact text for a model,
the structured result as the artifact; invoke them with a tool call to get the artifact):

* ``search_tickets(model_variant, symptom, limit=8, include_family=False)``: BM25 over ticket
  symptom text, restricted to the variant (or its whole family when asked);
* ``check_availability(part_no)``: stock quantity and lead time;
* ``search_manual(query, product_family, k=1)``: BM25 over the family's manual passages.

Problems with the arguments (an unknown variant, part or family) come back as data:
``{"ok": False, "error": ...}`` and a content line starting ``error:``, never as exceptions.
The lookups themselves are in `tools.field_service_lookups`; the flow's pure decisions
(``diagnose``, ``select_part``, ``sourcing``) in `tools.field_service_decisions`.
"""

from __future__ import annotations

from langchain_core.tools import BaseTool, tool

from corpora.field_service import family_of
from tools.field_service_lookups import (
    Availability,
    ManualSearch,
    TicketSearch,
    find_manual_passages,
    find_tickets,
    lookup_availability,
)

ERROR_TEMPLATE = "error: {error}"
"""Content line for a result that is an error."""


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


__all__ = [
    "ERROR_TEMPLATE",
    "check_availability",
    "field_service_tools",
    "search_manual",
    "search_tickets",
]
