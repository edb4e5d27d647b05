"""The HTTP session limits of `agent mcp serve` (light: the CLI's option defaults read them)."""

SESSION_IDLE_S = 600.0
"""Seconds without a request after which an HTTP session is closed."""
MAX_SESSIONS = 100
"""Most HTTP sessions open at once."""
