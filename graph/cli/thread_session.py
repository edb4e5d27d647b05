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
from typing import Any

import click
from click.core import ParameterSource

from graph.agent.budget import DEFAULT_K, DEFAULT_MAX_STEPS
from graph.app.thread_settings import (
    BUILTIN_SOURCE,
    DATASET_PREFIX,
    ThreadSettings,
    choose,
    read_settings,
)
from tools.saved_indexes import SAVED_PREFIX


@dataclass
class Chosen:
    """The settings a command runs a thread with, and the trace notes about overrides."""

    model: str = "policy"
    max_steps: int = DEFAULT_MAX_STEPS
    notes: list[str] = field(default_factory=list)


def given(name: str) -> bool:
    """Whether the current command's option `name` was given (not its default)."""
    source = click.get_current_context().get_parameter_source(name)
    return source not in (None, ParameterSource.DEFAULT, ParameterSource.DEFAULT_MAP)


@contextmanager
def thread_session(
    db: str | None,
    thread_id: str | None,
    *,
    model: str,
    max_steps: int,
    k: int = DEFAULT_K,
    corpus_specs: tuple[str, ...] = (),
    mcp: tuple[str, ...] = (),
    retriever: str | None = None,
) -> Iterator[tuple[Any, Chosen]]:
    """A Session for `thread_id` built with its recorded settings, and the chosen settings.

    `corpus_specs` are saved index names or `NAME=PATH` specs (`graph.cli.index`); `mcp` adds
    MCP servers' tools; the session's MCP connections are closed on the way out.
    """
    from graph.app.corpus_specs import open_corpus_spec
    from graph.app.persistence import check_thread_id, open_checkpointer
    from graph.app.session import Session
    from graph.cli.support import echo_live, user_errors
    from graph.models import load_model

    with user_errors(), open_checkpointer(db) as saver:
        saved = read_settings(saver, check_thread_id(thread_id)) if thread_id else None
        saved = saved or ThreadSettings()
        chosen = Chosen()
        chosen.model, note_m = choose(saved.model, model, given("model"), "--model", model)
        chosen.max_steps, note_s = choose(
            saved.max_steps, max_steps, given("max_steps"), "--max-steps", max_steps
        )
        run_k, note_k = choose(saved.k, k, _has_option("k") and given("k"), "--k", k)
        chosen.notes = [f"[settings] {n}" for n in (note_m, note_s, note_k) if n]
        load_model(chosen.model)
        mine = [open_corpus_spec(spec, retriever) for spec in corpus_specs]
        sources: dict[str, str | None] = {
            c.name: _spec_path(s) for c, s in zip(mine, corpus_specs, strict=True)
        }
        restored = restore_corpora(saved, thread_id or "", {c.name for c in mine})
        sources.update({corpus.name: source for corpus, source in restored})
        builtins = not saved.corpora or any(c.source == BUILTIN_SOURCE for c in saved.corpora)
        corpora = [*mine, *(corpus for corpus, _ in restored)]
        agent = Session(
            saver,
            corpora=corpora,
            k=run_k,
            builtins=builtins,
            sources=sources,
            mcp=mcp,
            retriever=retriever,
            on_token=echo_live,
        )
        with agent:
            yield agent, chosen


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


def _spec_path(spec: str) -> str:
    """The path part of a `--corpus NAME=PATH` spec, made absolute (`saved:NAME` for an index)."""
    from pathlib import Path

    if "=" not in spec and "/" not in spec and not Path(spec).exists():
        return f"{SAVED_PREFIX}{spec}"
    head, sep, tail = spec.partition("=")
    path = tail if sep and "/" not in head else spec
    return str(Path(path).resolve())


def _has_option(name: str) -> bool:
    """Whether the current command has the option `name`."""
    return any(param.name == name for param in click.get_current_context().command.params)
