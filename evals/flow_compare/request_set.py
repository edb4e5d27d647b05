"""The field-service request set: one request a line, with its kind and expected outcome."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from corpora.field_service import VARIANT_RE

DATASET = Path(__file__).resolve().parents[1] / "datasets" / "field_service_requests.jsonl"
"""The field-service request set with expected outcomes."""


@dataclass(frozen=True)
class Request:
    """One request of the set, with what should come of it."""

    id: str
    request: str
    expected: Mapping[str, Any]
    kind: str
    """clear, vague, no_variant, no_part, no_manual or off_topic."""

    @property
    def flow_shaped(self) -> bool:
        """Whether the request names a model variant (the router sends it to the flow)."""
        return VARIANT_RE.search(self.request) is not None


def load_requests(path: str | Path = DATASET) -> list[Request]:
    """Read the request set (one JSON object a line: id, request, expected, kind)."""
    requests = []
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            requests.append(Request(row["id"], row["request"], row["expected"], row["kind"]))
        except (json.JSONDecodeError, KeyError, TypeError) as error:
            raise ValueError(f"{path}:{number}: not a request row ({error})") from None
    return requests


def spread(requests: Sequence[Request], limit: int | None) -> list[Request]:
    """At most ``limit`` requests, taken in turn from each kind so every kind is represented."""
    if limit is None or limit >= len(requests):
        return list(requests)
    by_kind: dict[str, list[Request]] = {}
    for request in requests:
        by_kind.setdefault(request.kind, []).append(request)
    chosen: list[Request] = []
    queues = [list(reversed(rows)) for rows in by_kind.values()]
    while len(chosen) < limit:
        for queue in queues:
            if queue and len(chosen) < limit:
                chosen.append(queue.pop())
    order = {request.id: index for index, request in enumerate(requests)}
    return sorted(chosen, key=lambda r: order[r.id])
