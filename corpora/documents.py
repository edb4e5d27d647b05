"""Read a folder of documents into passages, saying which files were skipped and why.

Readable kinds: ``.txt``, ``.md`` (``.markdown``), ``.rst``, ``.html`` (``.htm``) and ``.pdf``
(through pypdf). Markdown, reStructuredText and HTML are split on their headings
(`corpora.markup`), and every passage is titled by its file path and heading path
(``guide.md > Install > From source``), so a question naming a file or a section finds it.
A section longer than `SPLIT_THRESHOLD` is cut between its prose runs and code blocks, never
inside a code block's fence: a run of prose still too long (and plain text, PDF text) is split
with langchain's ``RecursiveCharacterTextSplitter``, a code block too long between its lines,
each piece fenced again. A file giving one passage has its path as id; a file giving several
has ids ``path#1``, ``path#2``, ...

A folder never fails for one bad file: a file is skipped with one of `SKIP_REASONS` (other
suffixes, empty, unreadable, not UTF-8, not a regular file such as a named pipe, which is never
opened; a link whose target lies outside the folder, which is never read; a name that cannot
be a passage id, with square brackets, control characters or surrounding spaces). The summary
names the links and the bad names it skipped. A file nested too deeply to parse (a PDF whose
content stream nests arrays 100,000 deep) is "unreadable", never a `RecursionError`; markup
nested past `corpora.blocks.MAX_DEPTH` levels is read as plain paragraphs. Hidden files and
folders (``.git``) are ignored without a word; links to folders are not followed.
"""

from __future__ import annotations

import functools
import os
import stat
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from corpora.files import SkipFile, clean_text, decode_utf8, read_regular
from corpora.markup import (
    CODE_FENCE,
    Section,
    fenced,
    html_sections,
    markdown_sections,
    plain_section,
    rst_sections,
    units,
)

SPLIT_THRESHOLD = 1000
"""Sections and files longer than this many characters are split into passages."""

SPLIT_OVERLAP = 100
"""Characters shared by neighbouring pieces of a run of prose split by the splitter."""

TITLE_SEPARATOR = " > "
"""Between the file path and the headings in a passage title."""

LINK_OUT = "link out of the folder"
BAD_NAME = "bad file name"
SKIP_REASONS = (
    "unsupported type",
    "empty",
    "unreadable",
    "not UTF-8",
    "not a regular file",
    LINK_OUT,
    BAD_NAME,
)
"""Why a file of a folder was not read, in the order the summary lists them."""

_NAMED_REASONS = (LINK_OUT, BAD_NAME)
_NAMES_SHOWN = 3


@functools.cache
def _splitter() -> Any:
    """The text splitter for long files, made on first use (importing this builds nothing)."""
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    return RecursiveCharacterTextSplitter(
        chunk_size=SPLIT_THRESHOLD, chunk_overlap=SPLIT_OVERLAP, add_start_index=True
    )


@dataclass(frozen=True)
class Chunk:
    """One passage's worth of a file, before it gets its id."""

    title: str
    text: str
    metadata: dict[str, object] = field(default_factory=dict)


@dataclass
class FolderScan:
    """The files of a folder worth reading, and those skipped before reading."""

    files: list[tuple[str, Path]] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)


def skip_summary(skipped: list[tuple[str, str]]) -> str:
    """``"3 files skipped (2 unsupported type, 1 not a regular file)"``, or ``"0 skipped"``."""
    counts = Counter(reason for _, reason in skipped)
    if not counts:
        return "0 skipped"
    parts = [f"{counts[r]} {r}{_names(skipped, r)}" for r in SKIP_REASONS if counts[r]]
    unit = "file" if len(skipped) == 1 else "files"
    return f"{len(skipped)} {unit} skipped ({', '.join(parts)})"


def _names(skipped: list[tuple[str, str]], reason: str) -> str:
    """``": 'a.txt', 'b.txt' and 2 more"`` for a reason whose files are named, else ``""``."""
    if reason not in _NAMED_REASONS:
        return ""
    names = [repr(rel) for rel, why in skipped if why == reason]  # repr escapes controls
    more = f" and {len(names) - _NAMES_SHOWN} more" if len(names) > _NAMES_SHOWN else ""
    return ": " + ", ".join(names[:_NAMES_SHOWN]) + more


def scan_folder(root: Path, onerror: Callable[[OSError], None] | None = None) -> FolderScan:
    """List a folder's readable files (sorted relative POSIX paths) and the ones skipped."""
    from corpora.model import valid_id

    scan = FolderScan()
    inside = Path(os.path.realpath(root))
    for dirpath, dirnames, filenames in os.walk(root, onerror=onerror):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for fname in filenames:
            if fname.startswith("."):
                continue
            full = Path(dirpath) / fname
            rel = full.relative_to(root).as_posix()
            if full.is_symlink() and not Path(os.path.realpath(full)).is_relative_to(inside):
                reason: str | None = LINK_OUT
            elif not valid_id(rel):
                reason = BAD_NAME
            else:
                reason = _pre_read_skip(full)
            if reason is None:
                scan.files.append((rel, full))
            else:
                scan.skipped.append((rel, reason))
    scan.files.sort()
    scan.skipped.sort()
    return scan


def supported(path: Path) -> bool:
    """Whether the file's suffix is one the loader reads."""
    return path.suffix.lower() in _READERS


def _pre_read_skip(path: Path) -> str | None:
    """The reason to skip a file without opening it, if any.

    The kind of file is checked before its suffix, so a named pipe or a device is "not a
    regular file" whatever its name (``feed``, ``feed.log``); a name that cannot be
    stat-ed (a dangling link) is "unsupported type" or "unreadable" by its suffix.
    """
    try:
        mode = path.stat().st_mode  # follows symlinks: a link to a regular file is read
    except OSError:
        return "unreadable" if supported(path) else "unsupported type"
    if not stat.S_ISREG(mode):
        return "not a regular file"
    return None if supported(path) else "unsupported type"


def read_chunks(path: Path, rel: str, data: bytes | None = None) -> list[Chunk]:
    """The chunks of one document file; `SkipFile` when it gives none."""
    reader = _READERS.get(path.suffix.lower())
    if reader is None:
        raise SkipFile("unsupported type")
    if data is None:
        data = read_regular(path)
    try:
        sections = reader(data)
    except RecursionError:  # markup nested deeper than the readers recurse
        raise SkipFile("unreadable", "nested too deeply") from None
    chunks: list[Chunk] = []
    for section in sections:
        title = TITLE_SEPARATOR.join((rel, *section.headings))
        meta: dict[str, object] = {"path": rel}
        if section.headings:
            meta["headings"] = list(section.headings)
        chunks += [Chunk(title, text, meta) for text in _pieces(section)]
    if not chunks:
        raise SkipFile("empty")
    return chunks


def _pieces(section: Section) -> list[str]:
    """The section's text cut into passages of at most `SPLIT_THRESHOLD` characters.

    Prose runs and code blocks (`corpora.markup.units`) are packed in order, a blank line
    between two, a prose run ending in ":" never cut from the code it introduces
    (`_introduced`); a prose run too long is split by the splitter (whitespace collapsed), a
    code block too long between its lines, each piece in its own fence.
    """
    parts: list[str] = []
    for unit in units(section.blocks):
        if unit.startswith(CODE_FENCE):
            parts += _code_pieces(unit)
        else:
            parts += _prose_pieces(unit)
    packed: list[str] = []
    for part in _introduced(parts):
        if packed and len(packed[-1]) + 2 + len(part) <= SPLIT_THRESHOLD:
            packed[-1] += "\n\n" + part
        else:
            packed.append(part)
    return packed


def _introduced(parts: list[str]) -> list[str]:
    """The parts with each prose part ending in ":" joined to the code right after it.

    "To schedule a job using a crontab expression:" introduces the block after it, and a cut
    between them left the sentence at one passage's end and its example at the next one's
    start; together they are one part (when they fit in a passage).
    """
    joined: list[str] = []
    for part in parts:
        intro = joined[-1] if joined else ""
        if (
            part.startswith(CODE_FENCE)
            and intro.rstrip().endswith(":")
            and not intro.startswith(CODE_FENCE)
            and len(intro) + 2 + len(part) <= SPLIT_THRESHOLD
        ):
            joined[-1] = f"{intro}\n\n{part}"
        else:
            joined.append(part)
    return joined


def _prose_pieces(text: str) -> list[str]:
    """A prose run as one piece, or the splitter's pieces when too long (whitespace collapsed)."""
    joined = " ".join(text.split())
    if not joined:
        return []
    if len(joined) <= SPLIT_THRESHOLD:
        return [joined]
    return [" ".join(p.page_content.split()) for p in _splitter().create_documents([text])]


def _code_pieces(unit: str) -> list[str]:
    """A fenced code block as it is, or cut between lines into fenced pieces that fit."""
    if len(unit) <= SPLIT_THRESHOLD:
        return [unit]
    room = SPLIT_THRESHOLD - len(fenced(""))
    pieces: list[str] = []
    current: list[str] = []
    size = 0
    for line in unit.split("\n")[1:-1]:
        for cut in range(0, max(len(line), 1), room):  # a line longer than a piece is cut
            part = line[cut : cut + room]
            if current and size + len(part) + 1 > room:
                pieces.append(fenced("\n".join(current)))
                current, size = [], 0
            current.append(part)
            size += len(part) + 1
    if current:
        pieces.append(fenced("\n".join(current)))
    return pieces


def _plain(data: bytes) -> list[Section]:
    """A text file: one section, paragraphs kept for the splitter."""
    text = decode_utf8(data)
    return [plain_section(text)] if text.strip() else []


def _markdown(data: bytes) -> list[Section]:
    """A Markdown file, split on headings."""
    return markdown_sections(decode_utf8(data))


def _rst(data: bytes) -> list[Section]:
    """A reStructuredText file, split on section titles."""
    return rst_sections(decode_utf8(data))


def _html(data: bytes) -> list[Section]:
    """An HTML page, text only, split on headings."""
    return html_sections(decode_utf8(data))


def _pdf(data: bytes) -> list[Section]:
    """A PDF's text through pypdf, one section a page; `SkipFile` if pypdf cannot read it."""
    import io
    import logging

    from pypdf import PdfReader
    from pypdf.errors import PyPdfError

    logging.getLogger("pypdf").setLevel(logging.ERROR)
    try:
        reader = PdfReader(io.BytesIO(data))
        pages = [clean_text(page.extract_text() or "") for page in reader.pages]
    except (PyPdfError, ValueError, KeyError, TypeError, OSError) as e:
        raise SkipFile("unreadable", f"not a readable PDF ({e})") from None
    except RecursionError:  # pypdf parses nested arrays and dictionaries recursively
        raise SkipFile("unreadable", "not a readable PDF (nested too deeply)") from None
    return [plain_section(t, (f"page {n}",)) for n, t in enumerate(pages, start=1) if t.strip()]


_READERS: dict[str, Callable[[bytes], list[Section]]] = {
    ".txt": _plain,
    ".md": _markdown,
    ".markdown": _markdown,
    ".rst": _rst,
    ".html": _html,
    ".htm": _html,
    ".pdf": _pdf,
}
