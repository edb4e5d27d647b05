"""Change notes: changelog and release-notes passages of a documentation folder.

A docs folder keeps, beside the pages documenting each feature, a changelog or release notes
that mention the same features in passing ("CodeHilite now always wraps with <code> tags").
Their lines share the feature's words and are short, so BM25 ranks them above the page that
says what the feature is. Unless a question asks about changes (`asks_about_changes`), the
offline policy reads change notes only when nothing else was found
(`graph.models.offline.turn`).

A passage is a change note by its title, which `corpora.documents` writes as the file's path,
then its headings: a path component matching `CHANGE_FILE_RE` or a heading matching
`CHANGE_HEADING_RE`. A title that is no file's path (a Wikipedia article's "History of Rome",
a made-up passage's) never is.
"""

from __future__ import annotations

import re

TITLE_SEPARATOR = " > "
"""Between the file path and the headings in a passage title (`corpora.documents`)."""

SUFFIX_RE = re.compile(r"\.[A-Za-z]\w{0,7}$")
"""A file name's suffix (".md", ".rst"): a title whose first part has one starts with a path."""

CHANGE_FILE_RE = re.compile(
    r"(?:change_?logs?|changes|(?:version[-_]?)?history|news|release[-_]?notes?|releases"
    r"|whats[-_]?new)"
    r"(?:[-_.]?v?\d[\w.-]*)?|release[-_.]v?\d[\w.-]*",
    re.I,
)
"""A path component (a folder, or a file name without its suffix) of a change note:
"changelog.md", "CHANGES.rst", "HISTORY.md", "versionhistory.rst" (AnyIO's, whose releases are
bold lines, no headings), "news.md", "change_log/release-2.4.md", "release-notes/v2.md" (matched
whole: "release-process.md" and "newsletter.md" are pages)."""

CHANGE_HEADING_RE = re.compile(
    r"(?:(?:version|release)\s+)?\[?v?\d+\.\d+(?:\.\d+)*\]?(?:\s*[-–(:].*)?"
    r"|.*\b(?:release\s+notes|change\s?log|version\s+history)",
    re.I,
)
"""A heading of a change note, matched whole: a version ("[3.3.0] - 2020-10-06",
"Version 2.1.0", "2.1 (2020-01-01)") or a "... Release Notes", "Changelog" or "Version
history" heading. A heading that only starts with a number ("3.2 Migration", "2.0 support") is
a page's."""

CHANGE_QUESTION_RE = re.compile(
    r"\d+\.\d+|\b(?:versions?|releases?|released|change_?logs?|changed?|changes|history"
    r"|deprecat\w*|removed|dropped|added|introduced|new|since|when|stopp?\w*|drop|stop)\b",
    re.I,
)
"""A question or query about a project's changes (a version number, "which release",
"deprecated", "since when", "stopped supporting"): change notes are searched and read for it
like any passage."""


def is_change_note(title: str) -> bool:
    """Whether a passage titled `title` is a changelog or release-notes passage."""
    path, *headings = title.split(TITLE_SEPARATOR)
    if not SUFFIX_RE.search(path):
        return False
    parts = [SUFFIX_RE.sub("", part) for part in path.split("/") if part]
    return any(CHANGE_FILE_RE.fullmatch(part) for part in parts) or any(
        CHANGE_HEADING_RE.fullmatch(heading.strip()) for heading in headings
    )


def asks_about_changes(text: str) -> bool:
    """Whether a question or query asks about changes (`CHANGE_QUESTION_RE`)."""
    return CHANGE_QUESTION_RE.search(text) is not None
