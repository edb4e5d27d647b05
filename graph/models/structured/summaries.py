"""The sentences of a structured answer: the leading finding, and what each later result said."""

from __future__ import annotations

from graph.models.structured.findings import Lead, Result, label_of, mentions, shorten
from graph.models.structured.schemas import is_identifier
from graph.models.structured.tuning import QUOTED_RESULT_CHARS


def lead_sentence(lead: Lead) -> str:
    """The leading finding, with its support and the call it came from."""
    subject = ", ".join(
        str(v) for v in lead.result.args.values() if is_identifier(v)
    )  # e.g. the variant the records were searched for
    count = f"{len(lead.records)} of {lead.total} {lead.result.collection}"
    prefix = f"{subject}: " if subject else ""
    return (
        f"{prefix}{lead.value} is the best-supported {lead.field} "
        f"({count}, {lead.share:.0%} of the evidence)"
    )


def describe(result: Result, lead: Lead | None) -> tuple[str, list[str]]:
    """One sentence about a later result, and the record ids it cites."""
    records = result.records
    if records:
        if lead is not None:
            about = [r for r in records if mentions(r, lead.value)]
            if not about:
                return (f"No {result.collection} record from {result.tool} mentions "
                        f"{lead.value}", [])  # fmt: skip
        else:
            about = records[:1]
        cited = [str(r["id"]) for r in about[:1] if "id" in r]
        return f"Reference: {label_of(about[0])}", cited
    scalars = result.scalars()
    if not scalars:
        return f"{result.tool}: {shorten(result.content, QUOTED_RESULT_CHARS)}", []
    subject = next((str(v) for v in scalars.values() if is_identifier(v)), "")
    rest = [
        f"{' '.join(str(key).split('_'))} {value}"
        for key, value in scalars.items()
        if str(value) != subject
    ]
    head = f"{subject}: " if subject else f"{result.tool}: "
    return head + ", ".join(rest), []
