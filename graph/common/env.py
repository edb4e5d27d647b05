"""Numbers read from environment variables, converted and range-checked."""

from __future__ import annotations

import os


def env_float(name: str, default: float, low: float, high: float) -> float:
    """`$name` as a number in [low, high], or `default` when unset; ValueError otherwise."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"{name} must be a number, got {raw!r}") from None
    if not low <= value <= high:
        raise ValueError(f"{name} must be between {low:g} and {high:g}, got {raw}")
    return value
