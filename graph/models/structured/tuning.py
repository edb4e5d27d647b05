"""Every limit and word list of the structured controller, each with a name and a reason."""

from __future__ import annotations

# --- identifiers ---------------------------------------------------------------------------

ID_WORDS = frozenset(
    {"id", "ids", "no", "nr", "num", "number", "code", "sku", "ref", "key", "serial", "variant"}
)
"""Name parts that mark an argument or a field as an identifier."""

MAX_RECORDS_CITED = 3
"""Most supporting records cited for the leading finding (more dilutes the citation)."""

# --- quoting: how much of a value a thought or an answer repeats -----------------------------

QUOTED_ARG_CHARS = 40
"""Longest argument value a Thought quotes ("member_code MB-4412 from the request")."""
QUOTED_RESULT_CHARS = 160
"""Longest text of a non-record result an answer quotes."""
QUOTED_RECORD_CHARS = 80
"""Longest rendering of a record with no id or title."""
ERROR_CHARS = 200
"""Longest error text an answer reports for a failed call."""
