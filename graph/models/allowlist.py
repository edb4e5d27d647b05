"""Which models a server run's context may name (`AGENT_ALLOWED_MODELS`).

A `langgraph dev` client chooses the model through the run's context, so a spec there is
untrusted: it may only name an allowed model. `scripted:` models read a file on the server
and are never allowed from a context (they are for the CLI and the tests).
"""

from __future__ import annotations

import os
from fnmatch import fnmatchcase

from graph.models.providers import (
    KNOWN_PROVIDERS,
    ModelSpecError,
    default_model_spec,
    is_configured,
    normalize_provider,
)

ALLOWED_ENV = "AGENT_ALLOWED_MODELS"
NOT_ALLOWED = (
    "model {spec!r} is not allowed on this server; allowed: {allowed} (the server's "
    "AGENT_ALLOWED_MODELS)"
)
SCRIPTED_REFUSED = (
    "scripted models are for the CLI and tests, not a server run's context; allowed: {allowed}"
)


class ModelNotAllowed(ModelSpecError):
    """A run's context named a model this server does not allow."""


def allowed_models() -> list[str]:
    """The allowed specs and patterns ("openai:*"): `$AGENT_ALLOWED_MODELS` (comma-separated).

    By default: the policy, the default model (`AGENT_MODEL`), and every known provider
    whose package is installed and whose API key is set on the server.
    """
    raw = os.environ.get(ALLOWED_ENV, "").strip()
    if raw:
        return [part.strip() for part in raw.split(",") if part.strip()]
    allowed = ["policy", default_model_spec()]
    allowed += [f"{name}:*" for name in KNOWN_PROVIDERS if is_configured(name)]
    return [spec for spec in dict.fromkeys(allowed) if not _is_scripted(spec)]


def check_allowed(spec: str) -> str:
    """`spec` if a server run may use it; ModelNotAllowed (one line) otherwise."""
    allowed = allowed_models()
    shown = ", ".join(spec for spec in allowed if not _is_scripted(spec)) or "none"
    if not isinstance(spec, str):
        raise ModelNotAllowed(NOT_ALLOWED.format(spec=spec, allowed=shown))
    wanted = spec.strip()
    if _is_scripted(wanted):
        raise ModelNotAllowed(SCRIPTED_REFUSED.format(allowed=shown))
    if not any(_matches(wanted, pattern) for pattern in allowed if not _is_scripted(pattern)):
        raise ModelNotAllowed(NOT_ALLOWED.format(spec=wanted[:100], allowed=shown))
    return wanted


def _matches(spec: str, pattern: str) -> bool:
    """Whether a spec matches an allowed spec or pattern (provider names compared loosely)."""
    if ":" in spec and ":" in pattern:
        provider, _, name = spec.partition(":")
        want_provider, _, want_name = pattern.partition(":")
        return normalize_provider(provider) == normalize_provider(want_provider) and fnmatchcase(
            name.strip(), want_name.strip()
        )
    return spec == pattern


def _is_scripted(spec: str) -> bool:
    """Whether a spec names a scripted model (a file on this machine)."""
    return spec.strip().lower().startswith("scripted")
