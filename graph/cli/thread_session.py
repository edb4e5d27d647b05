"""A CLI session on an existing thread, with the settings and corpora the thread was run with.

`resume`, `replay --fork` and `ask --thread` reuse the thread's recorded model, step budget,
k and corpora (`graph.app.thread_settings`) unless an option is given on the command line; each
override is reported in the trace. A corpus the thread searched that cannot be loaded again
is refused with one line rather than silently left out.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from graph.app.run_context import RunSettings
from graph.app.thread_settings import BUILTIN_SOURCE, DATASET_PREFIX, ThreadSettings, read_settings
from graph.cli.support import OPTION_LABELS
from tools.saved_indexes import SAVED_PREFIX

if TYPE_CHECKING:
    from graph.agent.context import Context


@dataclass
class Chosen:
    """The run's context (settings resolved once) and the trace notes about overrides."""

    context: Context
    notes: list[str] = field(default_factory=list)


@contextmanager
def thread_session(
    db: str | None,
    thread_id: str | None,
    given: RunSettings,
    *,
    corpus_specs: tuple[str, ...] = (),
    mcp: tuple[str, ...] = (),
    builtins: bool = False,
    retriever: str | None = None,
) -> Iterator[tuple[Any, Chosen]]:
    """A Session for `thread_id` built with its recorded corpora, and the run's settings.

    `given` holds only the options typed on the command line; the session resolves them
    against the thread's and the defaults (`Session.settings`). `corpus_specs` are saved index
    names or `NAME=PATH` specs; `mcp` adds MCP servers' tools; with either, the built-ins join
    only with `builtins`. The session's MCP connections are closed on the way out.
    """
    from graph.app.corpus_specs import open_corpus_spec, spec_source
    from graph.app.persistence import check_thread_id, open_checkpointer
    from graph.app.session import Session
    from graph.cli.support import echo_live, user_errors
    from graph.models import load_model

    with user_errors(), open_checkpointer(db) as saver:
        saved = read_settings(saver, check_thread_id(thread_id)) if thread_id else None
        saved = saved or ThreadSettings()
        mine = [open_corpus_spec(spec, retriever) for spec in corpus_specs]
        sources: dict[str, str | None] = {
            c.name: spec_source(s) for c, s in zip(mine, corpus_specs, strict=True)
        }
        restored = restore_corpora(saved, thread_id or "", {c.name for c in mine})
        sources.update({corpus.name: source for corpus, source in restored})
        corpora = [*mine, *(corpus for corpus, _ in restored)]
        with_builtins: bool | None = builtins or None
        if saved.corpora:
            with_builtins = builtins or any(c.source == BUILTIN_SOURCE for c in saved.corpora)
        agent = Session(
            saver,
            corpora=corpora,
            builtins=with_builtins,
            sources=sources,
            mcp=mcp,
            retriever=retriever,
            on_token=echo_live,
        )
        with agent:
            resolved = agent.settings(thread_id, given)
            load_model(resolved.context.model)  # an unknown model: one line, before any run
            notes = [f"[settings] {o.line(OPTION_LABELS[o.name])}" for o in resolved.overrides]
            yield agent, Chosen(resolved.context, notes)


def restore_corpora(
    saved: ThreadSettings, thread_id: str, present: set[str]
) -> list[tuple[Any, str]]:
    """Load again the corpora the thread searched that are not built in or given."""
    from corpora import CorpusError, parse_corpus_spec
    from graph.app.corpus_specs import open_corpus_spec

    restored: list[tuple[Any, str]] = []
    for need in saved.corpora:
        if need.source == BUILTIN_SOURCE or need.name in present:
            continue
        if need.source is None:
            raise CorpusError(
                f"thread {thread_id} searched corpus {need.name!r}, which was not loaded from a "
                f"file; give it again with --corpus {need.name}=PATH"
            )
        try:
            if need.source.startswith(DATASET_PREFIX):
                corpus = _dataset_corpus(need.source.removeprefix(DATASET_PREFIX))
            elif need.source.startswith(SAVED_PREFIX):
                corpus = open_corpus_spec(need.source.removeprefix(SAVED_PREFIX))
            else:
                corpus = parse_corpus_spec(f"{need.name}={need.source}")
        except (CorpusError, ValueError, OSError) as error:
            raise CorpusError(
                f"thread {thread_id} needs corpus {need.name!r} from {need.source}, which "
                f"cannot be loaded: {' '.join(str(error).split())}"
            ) from None
        restored.append((corpus, need.source))
    return restored


def _dataset_corpus(spec: str) -> Any:
    """The corpus of an eval dataset (the eval layer is above this one: imported late)."""
    from corpora import CorpusError
    from evals.datasets import load_dataset

    corpus = load_dataset(spec).corpus
    if corpus is None:
        raise CorpusError(f"dataset {spec!r} has no corpus of its own")
    return corpus
