"""A small made-up folder of documents (five types, one with a heading), for index tests."""

from __future__ import annotations

from pathlib import Path

WIKI = {
    "robots/atlas.md": "# Atlas\n\nThe Atlas rover climbs stairs with six legs.\n\n"
    "## Battery\n\nAtlas runs for 9 hours on one charge.\n",
    "robots/beacon.txt": "Beacon is a lighthouse drone that maps coastlines at night.",
    "people/crew.rst": "Crew\n====\n\nMarta Quill pilots the Beacon drone on Tuesdays.\n",
    "kitchen/kettle.html": "<h1>Kettle</h1><p>The Brewmaster kettle boils a litre in 90 s.</p>",
    "garden/ferns.md": "Ferns prefer shade and damp soil; water them twice a week.",
}


def write_wiki(root: Path) -> Path:
    """Write `WIKI` under `root` (folders made as needed); return `root`."""
    for rel, text in WIKI.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root
