"""Write `graph/models/background_df.tsv`: how common each word stem is in general English text.

The support measure (`graph.models.support`) weighs a question word that no searched corpus
holds by how rare it is in general text (`graph.models.background`): a corpus lacking "long" or
"number" says little, one lacking "password" or "warranty" says the question is about something
else. The general text is the 4,858 distinct Wikipedia paragraphs of
`evals/datasets/hotpotqa/dev_500.jsonl` (HotpotQA, CC BY-SA 4.0: see that folder's README),
tokenized and stemmed as the search does (`tools.bm25_tokens.tokenize`, `tools.expand.stem`).
Each line of the file is a stem and the number of paragraphs holding it; stems in a single
paragraph are left out (they read as never seen). Only counts are kept, no text.

Usage: python benchmarks/build_background.py
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tools.bm25_tokens import tokenize  # noqa: E402
from tools.expand import stem  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "evals" / "datasets" / "hotpotqa" / "dev_500.jsonl"
TARGET = ROOT / "graph" / "models" / "background_df.tsv"
MIN_PARAGRAPHS = 2
"""Stems in fewer paragraphs than this are not written (they weigh as never seen)."""


def paragraph_counts() -> tuple[int, Counter[str]]:
    """The number of distinct paragraphs and, per stem, how many hold it."""
    counts: Counter[str] = Counter()
    seen: set[tuple[str, str]] = set()
    with SOURCE.open(encoding="utf-8") as rows:
        for line in rows:
            for context in json.loads(line)["contexts"]:
                key = (context["title"], context["paragraph_text"])
                if key not in seen:
                    seen.add(key)
                    counts.update({stem(t) for t in tokenize(context["paragraph_text"])})
    return len(seen), counts


def main() -> None:
    """Count, then write the table (sorted, so a rebuild changes nothing)."""
    total, counts = paragraph_counts()
    lines = [
        "# Paragraphs holding each word stem, of the distinct Wikipedia paragraphs of HotpotQA's",
        "# dev_500.jsonl (CC BY-SA 4.0, evals/datasets/hotpotqa/README.md); counts only.",
        "# Built by benchmarks/build_background.py; read by graph/models/background.py.",
        f"*\t{total}",
        *(f"{s}\t{n}" for s, n in sorted(counts.items()) if n >= MIN_PARAGRAPHS),
    ]
    TARGET.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{TARGET.relative_to(ROOT)}: {len(lines) - 4} stems of {total} paragraphs")


if __name__ == "__main__":
    main()
