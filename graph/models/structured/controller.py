"""A deterministic controller for tools whose arguments are structured, read from their schemas.

`Controller` delegates here when none of the bound tools is a search tool (`SearchSource`):
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

The schema reading lives in `graph.models.structured.schemas` and the reading of results (records,
the leading finding) in `graph.models.structured.findings`; this module holds the controller.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from graph.models.actions import Action, Observation
from graph.models.structured.findings import (
    Lead,
    Result,
    error_text,
    find_lead,
    mentions,
    observation_result,
    shorten,
)
from graph.models.structured.schemas import (
    ArgSpec,
    ToolSpec,
    similar_names,
    structured_tools,
    tool_spec,
)
from graph.models.structured.summaries import describe, lead_sentence
from graph.models.structured.tuning import (
    MAX_RECORDS_CITED,
    QUOTED_ARG_CHARS,
)
from tools.finish import FINISH_TOOL


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
        plan = Plan(request=request, results=[observation_result(o) for o in observations])
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
        args = {name: fill.value for name, fill in filled.items()}
        if any(r.tool == spec.name for r in plan.results):
            return Action(f"{spec.name} raised an error; call it once more.", spec.name, args)
        kinds = {arg.name: arg.kind for arg in spec.args}
        given = [
            f"{name} {shorten(fill.value, QUOTED_ARG_CHARS)} from {fill.source}"
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
        ok = [r for r in plan.results if r.ok]
        failed = [r for r in plan.results if not r.ok and not self._retried(r, plan)]
        missing = [
            spec for spec in self.specs if not any(r.tool == spec.name for r in plan.results)
        ]
        if not ok:
            reasons = [f"{r.tool} failed: {error_text(r)}" for r in failed]
            reasons += [self.unfilled(spec, plan) for spec in missing]
            answer = "Cannot act on this request: " + "; ".join(reasons or ["no tool to call"])
            return Action("Nothing I could call gave a usable result; say so.", FINISH_TOOL,
                          {"answer": answer + ".", "citations": []})  # fmt: skip
        sentences: list[str] = []
        citations: list[str] = []
        lead = plan.lead
        if lead is not None:
            sentences.append(lead_sentence(lead))
            citations += [str(r["id"]) for r in lead.records[:MAX_RECORDS_CITED] if "id" in r]
        for result in ok:
            if lead is not None and result is lead.result:
                continue
            sentence, cited = describe(result, lead)
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
            thought, FINISH_TOOL, {"answer": answer, "citations": list(dict.fromkeys(citations))}
        )

    @staticmethod
    def _retried(result: Result, plan: Plan) -> bool:
        """Whether a failed call was followed by another call of the same tool."""
        calls = [r for r in plan.results if r.tool == result.tool]
        return calls.index(result) < len(calls) - 1

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
