"""Reading a tool's model-facing schema: which arguments it takes and how each can be filled.

`tool_spec` turns a tool into a `ToolSpec` of classified `ArgSpec` arguments (an *identifier*,
*free text*, a number, a flag, a choice among enum values, or something else), read only from
the JSON schema the model sees: argument names, types, descriptions and the tool's description.
An identifier argument carries the shape of the example its description gives (``e.g.
AB-12-C``), when it gives one. `StructuredController` (graph/models/structured/controller.py)
fills calls from these specs.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from langchain_core.utils.function_calling import convert_to_openai_tool

from graph.models.structured.tuning import ID_WORDS
from tools.calculator import CALCULATOR_TOOL
from tools.finish import FINISH_TOOL
from tools.search_protocol import SearchSource

RESERVED = frozenset({FINISH_TOOL, CALCULATOR_TOOL})
"""Tools the structured controller never calls as structured tools."""
EXAMPLE_RE = re.compile(
    r"(?:\be\.g\.|\bfor example|\bfor instance|\bsuch as|\blike)\s*[:,]?\s*[\"'`]?"
    r"([^\s\"'`,;()]+)",
    re.IGNORECASE,
)
"""An example in a description: the token after "e.g.", "for example", "such as", "like"."""
IDENTIFIER_RE = re.compile(r"^(?=[^\s]*\d)(?=[^\s]*[A-Za-z-])[A-Za-z0-9][A-Za-z0-9._/-]{0,39}$")
"""An identifier-like token: letters or dashes with digits, no spaces, at most 40 characters."""

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
    """A tool as the structured controller sees it: its name, description and arguments."""

    name: str
    description: str
    args: tuple[ArgSpec, ...]

    @property
    def required(self) -> tuple[ArgSpec, ...]:
        """The arguments a call cannot leave out."""
        return tuple(arg for arg in self.args if arg.required)


_SPECS: dict[int, tuple[Any, ToolSpec]] = {}
_SPECS_LOCK = threading.Lock()


def structured_tools(tools: Iterable[Any]) -> list[Any]:
    """The tools the structured controller drives: named tools with a schema, not search tools.

    ``finish`` and the calculator are left out (the graph and the arithmetic rules own them),
    and so is any search tool (a `SearchSource`: the search rules own those).
    """
    return [
        tool
        for tool in tools
        if getattr(tool, "name", None) not in RESERVED
        and not isinstance(tool, SearchSource)
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
