"""The field-service domain: variants, fault codes, tickets, parts, stock and manual passages.

The data files beside this module are written by ``build_data.py`` (see its docstring for the
domain and its deliberate gaps). ``load()`` reads and cross-checks them once per process; a file
that is malformed or refers to something that does not exist raises ``CorpusError`` with a
one-line ``<file>:<line>: <problem>`` message.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from typing_extensions import TypedDict

from corpora.model import CorpusError

DATA_DIR = Path(__file__).resolve().parent

VARIANT_RE = re.compile(r"\b([A-Z]{2}-\d{2,3})-([ABS])\b", re.IGNORECASE)
"""A model variant as written on a rating plate: family (``AC-250``), dash, suffix A, B or S."""
FAMILY_RE = re.compile(r"\b([A-Z]{2}-\d{2,3})\b(?!-)", re.IGNORECASE)
"""A family name standing alone, without a suffix."""
FAULT_CODE_RE = re.compile(r"^F-\d{3}$")
"""A fault code (``F-109``)."""


class Fault(TypedDict):
    """A fault code and what points to it."""

    code: str
    name: str
    families: list[str]
    symptoms: list[str]
    shared_symptoms: list[str]
    shares_symptoms_with: list[str]
    repair: str


class Ticket(TypedDict):
    """A closed service ticket."""

    id: str
    variant: str
    symptom: str
    fault_code: str
    resolution: str


class Part(TypedDict):
    """A catalogued spare part."""

    part_no: str
    name: str
    fits: list[str]
    fixes: str
    sourcing: str


class StockRecord(TypedDict):
    """Stock on hand for one part."""

    part_no: str
    qty: int
    lead_time_days: int


class ManualPassage(TypedDict):
    """One page of a service manual."""

    id: str
    doc_title: str
    page: int
    product_family: str
    section: str
    fault_codes: list[str]
    text: str


@dataclass(frozen=True)
class FieldServiceData:
    """Everything in the domain, cross-checked."""

    families: Mapping[str, str]
    """Family name -> one-line description."""
    suffixes: Mapping[str, str]
    """Suffix letter -> what the build differs in."""
    variants: tuple[str, ...]
    """Every model variant, e.g. ``AC-250-S``."""
    faults: Mapping[str, Fault]
    """Fault code -> fault."""
    tickets: tuple[Ticket, ...]
    """The ticket history, in file order."""
    parts: Mapping[str, Part]
    """Part number -> part."""
    stock: Mapping[str, StockRecord]
    """Part number -> stock record."""
    manual: tuple[ManualPassage, ...]
    """Manual passages, in file order."""


def family_of(variant: str) -> str:
    """Return the family of a model variant (``AC-250-S`` -> ``AC-250``)."""
    match = VARIANT_RE.fullmatch(variant.strip())
    if match is None:
        raise ValueError(f"not a model variant of the form AC-250-S: {variant!r}")
    return match.group(1).upper()


def load(data_dir: str | Path | None = None) -> FieldServiceData:
    """Load and cross-check the domain (cached for the default data directory)."""
    if data_dir is None:
        return _load_default()
    return _load(Path(data_dir))


@cache
def _load_default() -> FieldServiceData:
    """Load the committed data once per process."""
    return _load(DATA_DIR)


def _load(root: Path) -> FieldServiceData:
    """Read every file under ``root`` and check the references between them."""
    catalog_path = root / "catalog.json"
    catalog = _read_json(catalog_path)
    variants = tuple(catalog["variants"])
    families = dict(catalog["families"])
    faults: dict[str, Fault] = {}
    for fault in catalog["faults"]:
        if not FAULT_CODE_RE.match(fault["code"]):
            raise CorpusError(f"bad fault code {fault['code']!r}", catalog_path)
        faults[fault["code"]] = fault
    for variant in variants:
        if VARIANT_RE.fullmatch(variant) is None or family_of(variant) not in families:
            raise CorpusError(f"bad variant {variant!r}", catalog_path)

    tickets_path = root / "tickets.jsonl"
    tickets: list[Ticket] = []
    for line, row in _read_jsonl(tickets_path):
        if row["variant"] not in variants:
            raise CorpusError(f"unknown variant {row['variant']!r}", tickets_path, line)
        if row["fault_code"] not in faults:
            raise CorpusError(f"unknown fault code {row['fault_code']!r}", tickets_path, line)
        tickets.append(row)  # type: ignore[arg-type]

    parts_path = root / "parts.json"
    parts: dict[str, Part] = {}
    for row in _read_json(parts_path):
        unknown = [v for v in row["fits"] if v not in variants]
        if row["fixes"] not in faults:
            unknown.append(row["fixes"])
        if unknown:
            raise CorpusError(f"part {row['part_no']} refers to unknown {unknown}", parts_path)
        parts[row["part_no"]] = row

    stock_path = root / "stock.json"
    stock: dict[str, StockRecord] = {row["part_no"]: row for row in _read_json(stock_path)}
    missing = sorted(set(parts) - set(stock))
    if missing:
        raise CorpusError(f"no stock record for {', '.join(missing)}", stock_path)

    manual_path = root / "manual.jsonl"
    manual: list[ManualPassage] = []
    for line, row in _read_jsonl(manual_path):
        if row["product_family"] not in families:
            raise CorpusError(f"unknown family {row['product_family']!r}", manual_path, line)
        if any(code not in faults for code in row["fault_codes"]):
            raise CorpusError(f"unknown fault code in {row['fault_codes']}", manual_path, line)
        manual.append(row)  # type: ignore[arg-type]

    return FieldServiceData(
        families=families,
        suffixes=dict(catalog["suffixes"]),
        variants=variants,
        faults=faults,
        tickets=tuple(tickets),
        parts=parts,
        stock=stock,
        manual=tuple(manual),
    )


def _read_json(path: Path) -> Any:
    """Parse one JSON file, as a one-line ``CorpusError`` when it cannot be read."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise CorpusError(str(exc), path) from exc


def _read_jsonl(path: Path) -> list[tuple[int, dict[str, Any]]]:
    """Parse a JSON-lines file into (line number, object) pairs, skipping blank lines."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise CorpusError(str(exc), path) from exc
    rows = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            rows.append((number, json.loads(raw)))
        except json.JSONDecodeError as exc:
            raise CorpusError(f"invalid JSON: {exc.msg}", path, number) from exc
    return rows


__all__ = [
    "DATA_DIR",
    "FAMILY_RE",
    "FAULT_CODE_RE",
    "VARIANT_RE",
    "Fault",
    "FieldServiceData",
    "ManualPassage",
    "Part",
    "StockRecord",
    "Ticket",
    "family_of",
    "load",
]
