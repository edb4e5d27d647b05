"""Reading text: words, sentences, names, markup and relative clauses."""

from __future__ import annotations

import re

WORD_RE = re.compile(r"[^\W_]+")
"""A word: a run of letters and digits (the BM25 tokenizer's)."""

SENTENCE_RE = re.compile(
    r"(?:(?<=[.!?])|(?<=[.!?][)\]\"'”’]))\s+(?=[A-Z0-9\"'(`*“‘])|(?<=[^.]\.)\s+(?=[a-z_]|--?[A-Za-z])"
    r"|\n\s*\n"
)
"""A sentence boundary: ., ! or ? (or one closing a bracket or a quote: "(... the block.)")
before a capital or digit, a full stop (not an ellipsis) before a lowercase word
(documentation starts sentences with identifiers: "... Data Classes. attrs supports PyPy.") or
a command-line option (a list run together: "... anything. --older-than DAYS: ..."; no tune
answer moved), or a blank line."""

STATEMENT_BREAK_RE = re.compile(r"(?<=[.!?])\s+(?=\S)")
"""Any sentence end, also before a lowercase word ("... PyPy. attrs doesn't"): the statement a
yes or no is read from is one sentence."""

ABBREVIATION_RE = re.compile(
    r"\b(?:[A-Z]|Mr|Mrs|Ms|Dr|St|Mt|Ft|Jr|Sr|Sen|Rep|Gov|Gen|Col|Lt|Sgt|Capt|Rev|Prof|Inc|Ltd|"
    r"Co|Corp|Bros|No|Nos|Op|Opp|Vol|Vols|Fig|Figs|pp|Fr|Msgr|vs|v|ca|approx|e\.g|i\.e|eg|ie|cf|"
    r"al|etc)\.$"
)
"""A piece ending like "St.", "Dr." or "J.": an abbreviation or an initial, not an end. The
numbering abbreviations ("Op. 62 No. 2", "Vol. 3", "Fig. 4", "pp. 10-12") and the clergy's
titles ("Fr. Sorin", "Msgr.") stand before a number or a name, never at a sentence's end: a
split after "Op." had cut "the Nocturne in E major Op. 62 No. 2" from its sentence (squad
contains 0.730 to 0.733, one question less declined; every other tune set's answers
unchanged)."""

NAME_RE = re.compile(
    r"[A-Z][\w'’.-]*(?:\s+(?:(?:of|and|the|de|du|von|van|la|le|del|da|di|der|&)\s+)*"
    r"[A-Z0-9][\w'’.-]*)*"
)
"""A capitalised span, possibly joined by lowercase connectors ("Bank of Ireland")."""

URL_RE = re.compile(r"\b(?:https?://|www\.)\S+", re.I)
"""A web address: its path's capitalised words ("wiki/Who's-using-marshmallow") name nothing
(`reading.capital_spans`)."""

LABEL_END_RE = re.compile(r":(?:\s|$)")
"""A colon right after a capitalised span, making it a label ("three phases: Execution: ...",
"Note: ..."): capitalised as a first word is, no evidence of a name (`reading.mid_capitals`)."""

PARENTHETICAL_RE = re.compile(r"\([^()]*\)")
"""A parenthetical ("(Trio package only)"): before a sentence's first word, it leaves that word
the first (`reading.opens`), capitalised because it opens the sentence."""

CONNECTORS = frozenset("of and the de du von van la le del da di der den y &".split())
"""Lowercase words that may join the capitalised words of one name; never a name word that
links two sentences into a chain (`answering.name_words`: any other name word both hold links
them; a bar of half the question's heaviest word's weight helped attrs and squad but cost
hotpotqa-dev-tune 0.02 of contains). With numbers ("Since 2009", "Asphalt 4") no name words
either: squad contains 0.737 to 0.743 (right+cited 0.727 to 0.730, wrong+conf 0.100 to 0.090),
hotpotqa-dev-tune right+cited 0.396 to 0.400, every other tune set unchanged (connectors
alone: squad +2 and hotpotqa-dev-tune -1 right+cited; numbers alone: hotpotqa-dev-tune +2,
squad -1)."""

LEADING_FUNCTION_WORDS = frozenset(
    "The A An It Its This That These Those In On At For From By With As Each Every All Some "
    "He She They We I His Her Their Our After Before When While If Since During Then "
    "There Here Also But And Or Is Are Was Were Do Does Did Can Who What Which Where How".split()
)
"""Capitalised at a sentence start without being part of a name ("The", "After")."""

CONTINUATION_RE = re.compile(
    r"(?:The\s+)?Defaults?\b(?:\s+(?:to|is|value)\b|:)|(?:May|Can|Must|Cannot)\s+(?:not\s+)?be\b",
    re.I,
)
"""A sentence with no subject of its own that finishes the one before: an option's "Defaults to
X." (mkdocs and Sphinx option lists: "anchorlink_class: CSS class(es) used for the link.
Defaults to toclink."). The option's description and its default are one unit of meaning:
alone, "Defaults to toclink." does not say what defaults, and the description does not say to
what. "The default is 1000." ends an option's description the same way (reST definition lists:
"max_form_parts - Stop parsing ... The default is 1000."), measured with `DEFINITION_RE`. So
does a sentence opening with a modal and "be" ("--exclude PATTERN: skip files matching
PATTERN. May be given more than once."): it says what the option allows, of no subject of its
own (no tune answer moved; over a made-up CLI folder it answers "Can --exclude be given more
than once?" with its option)."""

DEFINITION_RE = re.compile(
    r"[\w.-]+:\s|\w*[_.][\w.]*\s+[-–—]\s"
    r"|--?\w[\w-]*(?:[ =][A-Z_<\[][\w<>\[\]-]*)?"
    r"(?:,\s*--?\w[\w-]*(?:[ =][A-Z_<\[][\w<>\[\]-]*)?)*:\s"
)
"""A definition line's opening: an option's name and a colon ("anchorlink_class: CSS class(es)
used for the link."), as mkdocs and Sphinx option lists read once their markup is removed. A
definition line takes its description's sentences up to the `CONTINUATION_RE` one that ends it
("css_class: An alias to Pygments cssclass formatter option. Set CSS class name for the wrapper
<div> tag. Defaults to codehilite."); a default with no definition line open before it stays
alone (the second sentence of a description cut from its option by a passage break: "The
placeholder {} will be replaced by the footnote number." is no option's name). The whole
description against only the line before the default: markdown right+cited 0.452 to 0.476
(with `directives.HTML_ELEMENTS`, which keeps the "<div>" sentence), wrong+conf 0.290 to
0.258, right conf 0.737 to 0.750; every other tune set unchanged. An identifier before a dash
("max_form_parts - Stop parsing ...", a reST definition list flattened) opens one too; with
"The default is" ending it (`CONTINUATION_RE`): werkzeug right+cited 0.795 to 0.821, contains
0.818 to 0.848, every other tune set unchanged. A plain word before a dash ("Werkzeug - a
library") names no option. A command-line option with its value's name or its short form
("--older-than DAYS:", "--verbose, -v:") opens one as well (no tune answer moved; over a
made-up CLI folder the default 30 had been read as the option before's)."""

BARE_REPLY_RE = re.compile(r"(?:Yes|No)[.!]", re.I)
"""A sentence that is only "Yes." or "No.": a FAQ's reply to the question its heading asks,
shown with the sentence that explains it ("Yes. Orrin works without a network connection ...");
alone it says nothing of what it answers (no tune answer moved)."""

LIST_RUN_RE = re.compile(r"(?<=:)\s+(?=[\w.-]+:\s)")
"""Where a flattened option list starts inside a sentence: an introduction's colon right before
the first option's name ("... to configure the output: marker: Text to find ..."). The option
is its own unit, as the list wrote it. Together with `DEFINITION_RE` and `CONTINUATION_RE` (and
`scoring.compounds`, `names.IDENTIFIER_RE`): markdown right+cited 0.429 to 0.452, contains
0.472 to 0.528, wrong+conf 0.323 to 0.290, right conf 0.706 to 0.737; every other tune set
unchanged. One markdown answer now cites the option list ("marker: ... Defaults to [TOC].")
where the tune set's gold names only the prose sentence saying the same."""

CODE_FENCE_RE = re.compile(r"```.*?(?:```|$)", re.S)
"""A fenced code block in a passage (the readers fence code apart from prose): code is never
an answer sentence, and never runs into the sentence before it."""

INLINE_MARKUP = (
    (re.compile(r":[\w:+-]+:`([^`]*)`"), r"\1"),
    (re.compile(r"\{[\w:+-]+\}`?([^`\s]*)`?"), r"\1"),
    (re.compile(r":class:\s*\w+\s*"), ""),
    (re.compile(r"(?:^|\s)\.\. [\w:-]+::?(?=\s)"), " "),
    (re.compile(r"`([^`<]*?)\s*<[^>]*>`_{1,2}"), r"\1"),
    (re.compile(r"``([^`]*)``"), r"\1"),
    (re.compile(r"`([^`]*)`_{0,2}"), r"\1"),
    (re.compile(r"\*\*([^*]+)\*\*"), r"\1"),
    (re.compile(r"(?<!\w)\*([^*\s][^*]*)\*(?!\w)"), r"\1"),
    (re.compile(r"\[([^\]]+)\]\([^)]*\)"), r"\1"),
    (re.compile(r"^\s*(?:#{1,6}|[-*+]|\d+\.)\s+", re.M), ""),
    (re.compile(r"^\s*\.\. [\w:-]+::.*$", re.M), ""),
)
"""Inline reST and Markdown markup and what is kept of it: an answer is the text as read."""

RELATIVE_RE = re.compile(
    r"\b(?P<np>(?:the|a|an)\s+(?:(?!(?:the|a|an)\s)[\w-]+\s+){0,3}?"
    r"(?P<head>(?!(?:so|such|now|provided|given)\s+that\b)[\w-]+))\s+"
    r"(?P<rel>that|which|who|whom|where|whose)\s+(?P<rest>[^?!.]+)",
    re.I,
)
"""A relative clause ("the team that owns X"): the question is answered in two hops. Keeps
the notes and seed runs at 1.0 and raises hotpotqa-dev-tune's retrieval recall. "so that",
"such that", "now that", "provided that" and "given that" join clauses: no noun heads them."""

SECOND_ASK_RE = re.compile(
    r",\s+and\s+(?=(?:(?:in|on|at|for|from|by|with|to|under)\s+)?"
    r"(?:which|what|how|where|who|whom|whose|when|why|can|does|do|is|are|will|should)\b)",
    re.I,
)
"""Where a question asks a second thing (", and which object limits them?"): each ask is
searched and answered on its own. On the 13 docs tune sets 18 questions ask two things; one
search for both found the passage of the ask with the rarer words only, and one sentence
answered one ask."""
