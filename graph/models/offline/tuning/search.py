"""The search budget and the rules' thresholds: when to follow up, read deeper or answer."""

from __future__ import annotations

COVERED = 0.8
"""Share of the question's idf weight the retrieved text must hold to stop following up.
A follow-up below it helps on squad, hotpotqa-dev-tune (a second entity) and codes_tune."""

DEEPER_READ_COVERAGE = 1.0
"""Read further down the first ranking while the retrieved text holds less than this share of
the question's weight (1.0: until every question word is found, or the budget ends). Helps
hotpotqa-dev-tune (+0.110 recall) and squad; no lower bar keeps those gains (they come at
coverage 0.81 to 0.96)."""

MAX_UNMATCHED_TERMS = 4
"""Most unmatched question words a follow-up query adds (more dilutes BM25's ranking)."""

ONE_SEARCH_LEFT = 2
"""Calls left when only one search fits before the answer: then search the whole question,
not a two-hop plan's first half (one search of all the words finds more than half a plan)."""

BRIDGE_PASSAGES = 3
"""Passages of the first hop read for the bridge entity: the k a search returns by default."""
