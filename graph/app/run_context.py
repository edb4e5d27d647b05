"""How a run's settings are chosen: the one function that resolves their precedence.

Each setting is the first given of: the call's (what the user gave: the CLI passes only the
options typed on the command line), the session's, the thread's recorded one
(`graph.app.thread_settings`), the default (`graph.agent.budget`, `tools.search_settings`,
`AGENT_MODEL` or the policy). `resolve` returns the run's `Context`, which validates them
once, and a note for each given value that overrides the thread's. A session built over a
chat-model *object* runs that object: its runs' `Context.model` is the object's description,
and a call naming another model is a ValueError, never silently ignored.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

from langchain_core.language_models import BaseChatModel

from graph.agent.context import Context
from graph.app.thread_settings import ThreadSettings
from graph.models.describe import describe_model

FIXED_MODEL = (
    "this session runs a fixed chat model ({fixed}); it cannot run model {asked!r} "
    "(open a Session without a model object to choose one per run)"
)
OVERRIDE = "{name} {value} overrides the thread's {saved}"


@dataclass(frozen=True)
class RunSettings:
    """The settings a caller gave for a run (None: not given)."""

    model: str | None = None
    max_steps: int | None = None
    k: int | None = None
    require_search: bool | None = None


@dataclass(frozen=True)
class SessionDefaults:
    """What a session was opened with: a model name or a fixed model object, and k."""

    model: str | None = None
    fixed_model: BaseChatModel | None = None
    k: int | None = None


@dataclass(frozen=True)
class Override:
    """A given setting that differs from the one the thread recorded."""

    name: str
    value: object
    saved: object

    def line(self, label: str | None = None) -> str:
        """The note for the trace, naming the setting as `label` (default: its field name)."""
        return OVERRIDE.format(name=label or self.name, value=self.value, saved=self.saved)


@dataclass(frozen=True)
class Resolved:
    """A run's `Context` and the notes about the thread's settings it overrides."""

    context: Context
    overrides: list[Override] = field(default_factory=list)


def resolve(
    given: RunSettings, session: SessionDefaults, saved: ThreadSettings | None = None
) -> Resolved:
    """The run's one `Context` (given, else the session's, thread's, default) and its notes."""
    saved = saved or ThreadSettings()
    if session.fixed_model is not None:
        given = RunSettings(
            model=fixed_name(session.fixed_model, given.model),
            max_steps=given.max_steps,
            k=given.k,
            require_search=given.require_search,
        )
    from_session = RunSettings(model=session.model, k=session.k)
    from_thread = RunSettings(model=saved.model, max_steps=saved.max_steps, k=saved.k)
    values: dict[str, object] = {}
    overrides: list[Override] = []
    for item in fields(RunSettings):
        name = item.name
        mine, recorded = getattr(given, name), getattr(from_thread, name)
        if mine is not None and recorded is not None and mine != recorded:
            if session.fixed_model is None or name != "model":
                overrides.append(Override(name, mine, recorded))
        chosen = next(
            (v for v in (mine, getattr(from_session, name), recorded) if v is not None), None
        )
        if chosen is not None:
            values[name] = chosen
    return Resolved(Context(**values), overrides)  # type: ignore[arg-type]


def fixed_name(fixed: BaseChatModel, asked: str | None) -> str:
    """The fixed model's name for `Context.model`; a ValueError if the call `asked` another."""
    name = describe_model(fixed)
    if asked is not None and asked != name:
        raise ValueError(FIXED_MODEL.format(fixed=name, asked=asked))
    return name
