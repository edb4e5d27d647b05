"""Reading the results of earlier calls: their records, and the leading finding among them.

`observation_result` reads an observation as a `Result` (its artifact, else its hits). A
result that is a list of records is read for its *leading finding* (`find_lead`): the value of
a categorical identifier field (not the records' id, not an echo of an argument) with the
strongest evidence (its best record's score, or rank), with the records that support it.
Nothing here knows a domain: fields are recognised by their names and by the shape of their
values.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from graph.models.actions import Observation
from graph.models.structured.schemas import is_identifier, name_parts
from graph.models.structured.tuning import ERROR_CHARS, QUOTED_RECORD_CHARS

ERROR_PREFIX = "error"


@dataclass
class Result:
    """One earlier call, read as structured data."""

    tool: str
    args: dict[str, Any]
    data: Any
    """The artifact (a dict or a list of records), or None when the tool returned only text."""
    content: str
    ok: bool
    raised: bool
    """True when the tool raised (an error tool message): worth one retry."""

    @property
    def collection(self) -> str:
        """The name of the list of records in the result (``"results"`` for a bare list)."""
        return records_of(self.data)[0]

    @property
    def records(self) -> list[dict[str, Any]]:
        """The records the result holds (empty for a single dict result)."""
        return records_of(self.data)[1]

    def scalars(self) -> dict[str, Any]:
        """Top-level fields of a dict result that are not lists, status flags or empty."""
        if not isinstance(self.data, Mapping):
            return {}
        return {
            key: value
            for key, value in self.data.items()
            if key not in {"ok", "error"} and value is not None and not isinstance(value, list)
        }


@dataclass(frozen=True)
class Lead:
    """The leading finding of a result: a categorical value and the records behind it."""

    field: str
    value: str
    records: tuple[dict[str, Any], ...]
    """The records with that value, most supported first."""
    share: float
    """Its support divided by all records' support (0..1)."""
    total: int
    """How many records the result held."""
    runner_up: str | None
    result: Result


def records_of(data: Any) -> tuple[str, list[dict[str, Any]]]:
    """The list of records a result holds: ``(name, records)``, or ``("", [])`` for none."""
    if isinstance(data, list):
        return "results", [item for item in data if isinstance(item, dict)]
    if isinstance(data, Mapping):
        for key, value in data.items():
            if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
                return str(key), list(value)
    return "", []


def observation_result(observation: Observation) -> Result:
    """An observation read as structured data (its artifact, else its hits)."""
    data = getattr(observation, "artifact", None)
    if data is None and observation.hits:
        data = list(observation.hits)
    content = observation.content.strip()
    ok = observation.ok and not content.lower().startswith(ERROR_PREFIX)
    if isinstance(data, Mapping) and (data.get("ok") is False or data.get("error")):
        ok = False
    return Result(
        tool=observation.tool,
        args=dict(observation.args),
        data=data,
        content=content,
        ok=ok,
        raised=not observation.ok,
    )


def error_text(result: Result) -> str:
    """The one-line error a failed result reports."""
    if isinstance(result.data, Mapping) and result.data.get("error"):
        return " ".join(str(result.data["error"]).split())
    text = " ".join(result.content.split())
    return text[:ERROR_CHARS] or "no result"


def weights(records: Sequence[Mapping[str, Any]]) -> list[float]:
    """Each record's support: a score field all records share, else 1 / rank."""
    if records:
        for key, value in records[0].items():
            if isinstance(value, float) and all(
                isinstance(r.get(key), int | float) and not isinstance(r.get(key), bool)
                for r in records
            ):
                return [max(float(r[key]), 0.0) for r in records]
    return [1.0 / (rank + 1) for rank in range(len(records))]


def key_field(records: Sequence[Mapping[str, Any]], echoed: set[str]) -> str | None:
    """The categorical identifier field records can be grouped by, if one exists.

    A candidate holds an identifier in every record, is not named as the records' own id
    (``id``, ``ticket_id``) and does not just echo an argument of the call. Fields whose values
    repeat across records are preferred (a value unique to each record may still be an id);
    among those, the one with the fewest distinct values (the coarsest grouping) wins, ties in
    field order.
    """
    if len(records) < 2:
        return None
    best: tuple[bool, int, str] | None = None
    for key in records[0]:
        if "id" in name_parts(str(key)):
            continue
        values = [record.get(key) for record in records]
        if not all(is_identifier(value) for value in values):
            continue
        distinct = {str(value).casefold() for value in values}
        if distinct <= echoed:
            continue
        rank = (len(distinct) == len(records), len(distinct), str(key))
        if best is None or rank[:2] < best[:2]:
            best = rank
    return None if best is None else best[2]


def find_lead(result: Result) -> Lead | None:
    """The best-supported value of a result's categorical field, with its records.

    A value's support is its best record's weight (one strong match is evidence; many weak
    ones do not add up to it), then the weights summed, then its best rank.
    """
    records = result.records
    echoed = {str(v).casefold() for v in result.args.values() if isinstance(v, str)}
    key = key_field(records, echoed)
    if key is None:
        return None
    best: dict[str, float] = {}
    summed: dict[str, float] = {}
    first_rank: dict[str, int] = {}
    for rank, (record, weight) in enumerate(zip(records, weights(records), strict=True)):
        value = str(record[key])
        best[value] = max(best.get(value, 0.0), weight)
        summed[value] = summed.get(value, 0.0) + weight
        first_rank.setdefault(value, rank)
    ranked = sorted(best, key=lambda v: (-best[v], -summed[v], first_rank[v], v))
    total = sum(best.values())
    lead = ranked[0]
    members = [r for r in records if str(r[key]) == lead]
    return Lead(
        field=key,
        value=lead,
        records=tuple(members),
        share=best[lead] / total if total > 0 else 0.0,
        total=len(records),
        runner_up=ranked[1] if len(ranked) > 1 else None,
        result=result,
    )


def mentions(record: Mapping[str, Any], value: str) -> bool:
    """Whether any field of a record holds ``value`` (as a value, a list item or a word)."""
    pattern = re.compile(rf"(?<![A-Za-z0-9]){re.escape(value)}(?![A-Za-z0-9])", re.IGNORECASE)
    for item in record.values():
        items = item if isinstance(item, list) else [item]
        if any(isinstance(i, str) and pattern.search(i) for i in items):
            return True
    return False


def label_of(record: Mapping[str, Any]) -> str:
    """A short name for a record: its id, a title field and a page, when it has them."""
    parts = [f"[{record['id']}]"] if "id" in record else []
    for key, value in record.items():
        if "title" in name_parts(str(key)) and isinstance(value, str):
            parts.append(value)
            break
    page = record.get("page")
    if isinstance(page, int) and not isinstance(page, bool):
        parts.append(f"p.{page}")
    return " ".join(parts) or shorten(record)


def shorten(value: Any, limit: int = QUOTED_RECORD_CHARS) -> str:
    """A one-line, bounded rendering of a value."""
    text = " ".join(str(value).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."
