"""A deterministic controller for tools whose arguments are structured, read from their schemas.

`PolicyModel` delegates here when the bound tools are not BM25 search tools (no `.index`):
tools such as ``search_tickets(model_variant, symptom)`` or ``check_availability(part_no)``.
Nothing here knows a domain. Everything comes from the model-facing schema of each tool
(argument names, types, descriptions and the tool's description), from the request text and
from the structured results (artifacts) of earlier calls:

- an *identifier* argument (its description gives an identifier-like example such as
  ``e.g. AB-12-C``, or its name says it is an id, number, code, variant ...) is filled with a
  token of the example's shape found in the request, else with the value of a field of the same
  or a similar name in an earlier result, else with a token of that shape inside an earlier
  result;
- a *free-text* argument (a query, a description) gets the request text, without the
  identifiers the same call already carries, and with the leading finding prepended once one
  is known;
- optional arguments keep their defaults; a tool whose required arguments cannot all be filled
  is not called (the answer says so).

Each tool is called once (a call that raised is retried once), in the order the tools were
bound, as soon as its arguments can be filled: a tool that needs a value only a result can
give runs after the tool that gives it. A result that is a list of records is read for its
*leading finding*: the value of a categorical identifier field (not the records' id, not an
echo of an argument) with the strongest evidence (its best record's score, or rank); values for
later calls come from the records that support it, never from records that contradict it.
The answer names the leading finding, what later calls returned about it, and the record that
references it, and cites the records it used.

It does not refuse to guess: when two findings are nearly tied it still takes the leader. That
is the trade-off an explicit flow with an escalation policy is measured against.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from langchain_core.utils.function_calling import convert_to_openai_tool

if TYPE_CHECKING:
    from graph.models.policy import Action, Observation

FINISH = "finish"
CALCULATOR = "calculator"
RESERVED = frozenset({FINISH, CALCULATOR})
"""Tools this controller never calls as structured tools."""
MAX_RECORDS_CITED = 3
"""Most supporting records cited for the leading finding."""
ID_WORDS = frozenset(
    {"id", "ids", "no", "nr", "num", "number", "code", "sku", "ref", "key", "serial", "variant"}
)
"""Name parts that mark an argument or a field as an identifier."""
EXAMPLE_RE = re.compile(
    r"(?:\be\.g\.|\bfor example|\bfor instance|\bsuch as|\blike)\s*[:,]?\s*[\"'`]?"
    r"([^\s\"'`,;()]+)",
    re.IGNORECASE,
)
"""An example in a description: the token after "e.g.", "for example", "such as", "like"."""
IDENTIFIER_RE = re.compile(r"^(?=[^\s]*\d)(?=[^\s]*[A-Za-z-])[A-Za-z0-9][A-Za-z0-9._/-]{0,39}$")
"""An identifier-like token: letters or dashes with digits, no spaces, at most 40 characters."""
ERROR_PREFIX = "error"

ArgKind = Literal["identifier", "text", "number", "flag", "choice", "other"]


@dataclass(frozen=True)
class ArgSpec:
    """One model-facing argument of a tool, classified for filling."""

    name: str
    kind: ArgKind
    required: bool
    description: str
    pattern: re.Pattern[str] | None = None
    """The shape of an identifier (from an example), or None when no example gives one."""
    choices: tuple[str, ...] = ()
    """The allowed values of an enum argument."""


@dataclass(frozen=True)
class ToolSpec:
    """A tool as this controller sees it: its name, description and arguments."""

    name: str
    description: str
    args: tuple[ArgSpec, ...]

    @property
    def required(self) -> tuple[ArgSpec, ...]:
        """The arguments a call cannot leave out."""
        return tuple(arg for arg in self.args if arg.required)


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


@dataclass(frozen=True)
class Fill:
    """A value found for an argument, and where it came from (for the Thought)."""

    value: Any
    source: str


@dataclass
class Plan:
    """What the transcript shows so far: the request, the results and the leading finding."""

    request: str
    results: list[Result] = field(default_factory=list)
    lead: Lead | None = None


# -- reading schemas ------------------------------------------------------------------------

_SPECS: dict[int, tuple[Any, ToolSpec]] = {}
_SPECS_LOCK = threading.Lock()


def structured_tools(tools: Iterable[Any]) -> list[Any]:
    """The tools this controller drives: named tools with a schema, not BM25 search tools.

    ``finish`` and the calculator are left out (the graph and the arithmetic rules own them),
    and so is any tool exposing a BM25 ``index`` (the search policy owns those).
    """
    return [
        tool
        for tool in tools
        if getattr(tool, "name", None) not in RESERVED
        and not hasattr(tool, "index")
        and hasattr(tool, "args")
    ]


def tool_spec(tool: Any) -> ToolSpec:
    """The tool's model-facing schema, classified (cached per tool object)."""
    with _SPECS_LOCK:
        cached = _SPECS.get(id(tool))
        if cached is not None and cached[0] is tool:
            return cached[1]
    function = convert_to_openai_tool(tool)["function"]
    parameters = function.get("parameters") or {}
    required = set(parameters.get("required") or [])
    properties: Mapping[str, Any] = parameters.get("properties") or {}
    description = " ".join(str(function.get("description") or "").split())
    args = [
        classify_arg(name, schema, name in required and "default" not in schema)
        for name, schema in properties.items()
    ]
    args = _borrow_tool_example(args, description)
    spec = ToolSpec(str(function["name"]), description, tuple(args))
    with _SPECS_LOCK:
        _SPECS[id(tool)] = (tool, spec)
    return spec


def classify_arg(name: str, schema: Mapping[str, Any], required: bool) -> ArgSpec:
    """Classify one argument from its JSON schema (type, enum, description) and its name."""
    description = " ".join(str(schema.get("description") or "").split())
    kind_of_type = _json_type(schema)
    if schema.get("enum"):
        choices = tuple(str(value) for value in schema["enum"])
        return ArgSpec(name, "choice", required, description, choices=choices)
    if kind_of_type in {"integer", "number"}:
        return ArgSpec(name, "number", required, description)
    if kind_of_type == "boolean":
        return ArgSpec(name, "flag", required, description)
    if kind_of_type != "string":
        return ArgSpec(name, "other", required, description)
    example = first_identifier_example(description)
    if example is not None:
        return ArgSpec(name, "identifier", required, description, shape_of(example))
    if name_parts(name) & ID_WORDS:
        return ArgSpec(name, "identifier", required, description)
    return ArgSpec(name, "text", required, description)


def _json_type(schema: Mapping[str, Any]) -> str:
    """The JSON type of a schema, looking through ``anyOf`` with null (``str | None``)."""
    kind = schema.get("type")
    if isinstance(kind, str):
        return kind
    for option in schema.get("anyOf") or []:
        if isinstance(option, Mapping) and option.get("type") not in (None, "null"):
            return str(option["type"])
    return "other"


def _borrow_tool_example(args: list[ArgSpec], description: str) -> list[ArgSpec]:
    """Give the one identifier argument without an example the example in the tool's text."""
    bare = [arg for arg in args if arg.kind == "identifier" and arg.pattern is None]
    example = first_identifier_example(description)
    if len(bare) != 1 or example is None:
        return args
    pattern = shape_of(example)
    if any(arg.pattern is not None and arg.pattern.pattern == pattern.pattern for arg in args):
        return args  # the example describes an argument that already has it
    return [
        ArgSpec(a.name, a.kind, a.required, a.description, pattern) if a is bare[0] else a
        for a in args
    ]


def first_identifier_example(text: str) -> str | None:
    """The first identifier-like example a description gives ("e.g. AB-12-C"), if any."""
    for match in EXAMPLE_RE.finditer(text):
        token = match.group(1).rstrip(".:")
        if is_identifier(token):
            return token
    return None


def is_identifier(value: Any) -> bool:
    """Whether a value looks like an identifier (letters or dashes with digits, no spaces)."""
    return isinstance(value, str) and IDENTIFIER_RE.match(value) is not None


def shape_of(example: str) -> re.Pattern[str]:
    r"""A pattern for tokens shaped like ``example``: the same runs of letters and digits.

    ``AB-12-C`` gives ``[A-Za-z]{2}-\d{2}-[A-Za-z]{1}``, matched between non-alphanumerics.
    """
    parts = []
    for run in re.finditer(r"[A-Za-z]+|\d+|.", example):
        text = run.group()
        if text.isdigit():
            parts.append(rf"\d{{{len(text)}}}")
        elif text.isalpha():
            parts.append(rf"[A-Za-z]{{{len(text)}}}")
        else:
            parts.append(re.escape(text))
    return re.compile(r"(?<![A-Za-z0-9])" + "".join(parts) + r"(?![A-Za-z0-9])")


def name_parts(name: str) -> set[str]:
    """The words of a field name (``partNo`` / ``part_no`` -> ``{"part", "no"}``)."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name)
    return {word.lower() for word in re.split(r"[^A-Za-z0-9]+", spaced) if word}


def similar_names(a: str, b: str) -> bool:
    """Whether two field names mean the same thing: the same words, id words counted as one."""
    left, right = name_parts(a), name_parts(b)
    if left == right:
        return True
    core_left, core_right = left - ID_WORDS, right - ID_WORDS
    return bool(core_left) and core_left == core_right


# -- reading results ------------------------------------------------------------------------


def records_of(data: Any) -> tuple[str, list[dict[str, Any]]]:
    """The list of records a result holds: ``(name, records)``, or ``("", [])`` for none."""
    if isinstance(data, list):
        return "results", [item for item in data if isinstance(item, dict)]
    if isinstance(data, Mapping):
        for key, value in data.items():
            if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
                return str(key), list(value)
    return "", []


def result_of(observation: Observation) -> Result:
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
    return text[:200] or "no result"


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
    return " ".join(parts) or _short(record)


def _short(value: Any, limit: int = 80) -> str:
    """A one-line, bounded rendering of a value."""
    text = " ".join(str(value).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


# -- the controller -------------------------------------------------------------------------


class StructuredController:
    """Decides the next call (or the final answer) for structured tools, from their schemas."""

    def __init__(self, tools: Sequence[Any]) -> None:
        self.tools = structured_tools(tools)
        self.specs = [tool_spec(tool) for tool in self.tools]

    def decide(self, request: str, observations: Sequence[Observation]) -> Action:
        """The next step: the first tool (in bound order) that is due and can be filled."""
        plan = self.read(request, observations)
        for spec in self.specs:
            if not self.due(spec, plan):
                continue
            filled = self.fill(spec, plan)
            if filled is None:
                continue
            return self.call(spec, filled, plan)
        return self.finish(plan)

    def read(self, request: str, observations: Sequence[Observation]) -> Plan:
        """The request, every result so far, and the leading finding among them."""
        plan = Plan(request=request, results=[result_of(o) for o in observations])
        for result in plan.results:
            if result.ok:
                plan.lead = find_lead(result)
                if plan.lead is not None:
                    break
        return plan

    @staticmethod
    def due(spec: ToolSpec, plan: Plan) -> bool:
        """Whether a tool still has to run: never called, or called once and it raised."""
        calls = [r for r in plan.results if r.tool == spec.name]
        return not calls or (len(calls) == 1 and calls[0].raised)

    def fill(self, spec: ToolSpec, plan: Plan) -> dict[str, Fill] | None:
        """Values for the tool's arguments, or None when a required one cannot be found.

        Optional identifiers are filled only from the request; other optional arguments keep
        their defaults.
        """
        filled: dict[str, Fill] = {}
        for arg in spec.args:
            found: Fill | None
            if arg.kind == "identifier":
                found = self.fill_identifier(arg, plan, request_only=not arg.required)
            elif arg.kind == "choice":
                found = _choose(arg, plan.request)
            else:
                continue
            if found is not None:
                filled[arg.name] = found
            elif arg.required:
                return None
        identifiers = [fill.value for fill in filled.values()]
        for arg in spec.required:
            if arg.kind == "text":
                filled[arg.name] = self.fill_text(plan, identifiers)
            elif arg.name not in filled:
                return None  # a required number, flag or object: nothing to take it from
        return filled

    def fill_identifier(self, arg: ArgSpec, plan: Plan, request_only: bool = False) -> Fill | None:
        """The request's token of the argument's shape, else a value from earlier results.

        In results, a field of the same or a similar name comes first, then a token of the
        argument's shape in any field. A value already passed to an earlier call under another
        name (the member code the records were searched for) is an echo, not a finding, and is
        skipped by the shape scan.
        """
        if arg.pattern is not None:
            match = arg.pattern.search(plan.request)
            if match is not None:
                return Fill(match.group(), "the request")
        if request_only:
            return None
        sources = list(self.sources(plan))
        for record, where in sources:
            for key, value in record.items():
                if similar_names(key, arg.name) and isinstance(value, str) and value:
                    return Fill(value, f"{key} of {where}")
        if arg.pattern is None:
            return None
        echoes = {
            str(value).casefold()
            for result in plan.results
            for name, value in result.args.items()
            if name != arg.name and isinstance(value, str)
        }
        for record, where in sources:
            for key, value in record.items():
                for text in value if isinstance(value, list) else [value]:
                    if not isinstance(text, str):
                        continue
                    for match in arg.pattern.finditer(text):
                        if match.group().casefold() not in echoes:
                            return Fill(match.group(), f"{key} of {where}")
        return None

    @staticmethod
    def sources(plan: Plan) -> Iterable[tuple[Mapping[str, Any], str]]:
        """Records to take values from, most trusted first.

        The records behind the leading finding, then the scalar fields of every dict result,
        then the records of other results (only those that mention the leading finding, when
        there is one). Records that contradict the leading finding are never used.
        """
        lead = plan.lead
        if lead is not None:
            for record in lead.records:
                yield record, _where(record, lead.result.tool)
        for result in plan.results:
            if result.ok and result.scalars():
                yield result.scalars(), f"the {result.tool} result"
        for result in plan.results:
            if not result.ok or (lead is not None and result is lead.result):
                continue
            for record in result.records:
                if lead is None or mentions(record, lead.value):
                    yield record, _where(record, result.tool)

    @staticmethod
    def fill_text(plan: Plan, identifiers: Sequence[Any]) -> Fill:
        """The request without the call's identifiers, after the leading finding if known.

        A word of the request that contains an identifier the call already carries (the
        variant ``AB-12-C`` when ``AB-12`` is passed) is dropped.
        """
        used = [v.casefold() for v in identifiers if isinstance(v, str) and v]
        words = [
            word
            for word in plan.request.split()
            if not any(value in word.casefold() for value in used)
        ]
        text = " ".join(words).strip(" ,.;:-") or plan.request.strip()
        if plan.lead is not None:
            return Fill(f"{plan.lead.value} {text}", f"{plan.lead.field} and the request")
        return Fill(text, "the request")

    def call(self, spec: ToolSpec, filled: Mapping[str, Fill], plan: Plan) -> Action:
        """A call with the filled arguments; the Thought says where each value came from."""
        from graph.models.policy import Action

        args = {name: fill.value for name, fill in filled.items()}
        if any(r.tool == spec.name for r in plan.results):
            return Action(f"{spec.name} raised an error; call it once more.", spec.name, args)
        kinds = {arg.name: arg.kind for arg in spec.args}
        given = [
            f"{name} {_short(fill.value, 40)} from {fill.source}"
            for name, fill in filled.items()
            if kinds.get(name) != "text"
        ]
        texts = [name for name in filled if kinds.get(name) == "text"]
        thought = f"I can call {spec.name} now"
        if given:
            thought += f": {'; '.join(given)}"
        if texts:
            thought += f"{',' if given else ':'} {' and '.join(texts)} from the request"
        thought += "."
        lead = plan.lead
        if lead is not None:
            runner = f" (next: {lead.runner_up})" if lead.runner_up else ""
            thought = (
                f"The best-supported {lead.field} so far is {lead.value}, {lead.share:.0%} of "
                f"the evidence{runner}; I take it, and its records, from here. {thought}"
            )
        return Action(thought, spec.name, args)

    def finish(self, plan: Plan) -> Action:
        """The final answer: the leading finding, what later calls said about it, citations."""
        from graph.models.policy import Action

        ok = [r for r in plan.results if r.ok]
        failed = [r for r in plan.results if not r.ok and not self._retried(r, plan)]
        missing = [
            spec for spec in self.specs if not any(r.tool == spec.name for r in plan.results)
        ]
        if not ok:
            reasons = [f"{r.tool} failed: {error_text(r)}" for r in failed]
            reasons += [self.unfilled(spec, plan) for spec in missing]
            answer = "Cannot act on this request: " + "; ".join(reasons or ["no tool to call"])
            return Action("Nothing I could call gave a usable result; say so.", FINISH,
                          {"answer": answer + ".", "citations": []})  # fmt: skip
        sentences: list[str] = []
        citations: list[str] = []
        lead = plan.lead
        if lead is not None:
            sentences.append(self.lead_sentence(lead))
            citations += [str(r["id"]) for r in lead.records[:MAX_RECORDS_CITED] if "id" in r]
        for result in ok:
            if lead is not None and result is lead.result:
                continue
            sentence, cited = self.describe(result, lead)
            sentences.append(sentence)
            citations += cited
        sentences += [f"{r.tool} failed: {error_text(r)}" for r in failed]
        sentences += [self.unfilled(spec, plan) for spec in missing]
        answer = " ".join(s.rstrip(".") + "." for s in sentences if s)
        thought = (
            "Every tool I could fill has run; answer from the results, citing what I used."
            if lead is None
            else f"Every tool I could fill has run; answer with {lead.value} and what the "
            "later calls said about it."
        )
        return Action(
            thought, FINISH, {"answer": answer, "citations": list(dict.fromkeys(citations))}
        )

    @staticmethod
    def _retried(result: Result, plan: Plan) -> bool:
        """Whether a failed call was followed by another call of the same tool."""
        calls = [r for r in plan.results if r.tool == result.tool]
        return calls.index(result) < len(calls) - 1

    @staticmethod
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

    @staticmethod
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
            return f"{result.tool}: {_short(result.content, 160)}", []
        subject = next((str(v) for v in scalars.values() if is_identifier(v)), "")
        rest = [
            f"{' '.join(str(key).split('_'))} {value}"
            for key, value in scalars.items()
            if str(value) != subject
        ]
        head = f"{subject}: " if subject else f"{result.tool}: "
        return head + ", ".join(rest), []

    def unfilled(self, spec: ToolSpec, plan: Plan) -> str:
        """Why a tool was not called: the first required argument nothing could fill."""
        filled = self.fill(spec, plan)
        if filled is not None:
            return f"{spec.name} was not called"
        names = [a for a in spec.required if a.kind in {"identifier", "choice"}]
        for arg in names or list(spec.required):
            if arg.kind == "identifier" and self.fill_identifier(arg, plan) is not None:
                continue
            about = f" ({arg.description.rstrip('.')})" if arg.description else ""
            return f"{spec.name} not called: no {arg.name}{about} in the request or the results"
        return f"{spec.name} not called: its arguments could not be filled"


def _where(record: Mapping[str, Any], tool: str) -> str:
    """Where a record came from, for a Thought (``T-1001`` or ``a search_x record``)."""
    return str(record["id"]) if "id" in record else f"a {tool} record"


def _choose(arg: ArgSpec, request: str) -> Fill | None:
    """The enum value the request names (whole word, any case), if any."""
    for choice in arg.choices:
        if re.search(rf"(?<![A-Za-z0-9]){re.escape(choice)}(?![A-Za-z0-9])", request, re.I):
            return Fill(choice, "the request")
    return None


__all__ = [
    "ArgSpec",
    "Lead",
    "Result",
    "StructuredController",
    "ToolSpec",
    "classify_arg",
    "find_lead",
    "first_identifier_example",
    "key_field",
    "shape_of",
    "similar_names",
    "structured_tools",
    "tool_spec",
]
