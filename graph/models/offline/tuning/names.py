"""Short answers that are names: places, groups, people, the noun asked, code, doers, titles."""

from __future__ import annotations

import re

from tools.expand import stem

PLACE_NOUNS = frozenset(
    "office city country town state province region county village street building site "
    "campus room floor park river lake island mountain mountains valley wing hotel hall "
    "church cathedral temple airport station stadium arena museum palace castle bridge "
    "square road avenue highway cemetery theatre theater harbour harbor bay coast sea ocean "
    "gulf canal desert forest peninsula center centre".split()
)
"""Nouns after a name that make it a place ("the Austin office"); ending a name, they make it
no person ("Main Building", "Dolphin Hotel")."""

GROUP_NOUNS = frozenset(
    "team company corporation corp inc ltd group department committee band club university "
    "school college party agency firm organization organisation project library package "
    "module class function method service league conference council association society "
    "institute academy army navy court dynasty empire kingdom republic government ministry "
    "union federation network studio studios records laboratories award prize trophy medal "
    "cup album".split()
)
"""Nouns after (or ending) a name that make it an organisation or a thing, not a person."""

PERSON_LEADS = frozenset("by led founded written directed managed maintained created".split())
"""Words before a name that make it the doer ("led by Priya Raman")."""

PLACE_LEADS = frozenset("in at from near".split())
"""Words before a name that make it a place ("in Oslo")."""

POSSESSIVE_RE = re.compile(r"['’]s?$")
"""A possessive ending ("Chopin's"): dropped from a name; a possessor is no person asked for."""

DEMONYM_RE = re.compile(r"[A-Z][a-z]*(?:an|ese|ish|ic|ist|i|ch)$")
"""A word shaped like a people's or a faith's adjective ("Italian", "Chinese", "Polish",
"Buddhist"): a name of such words before a lowercase noun ("Italian television") is an
adjective, no person or thing asked for."""

HEAD_NOUN_RE = re.compile(
    r"\b(?:what|which)\s+(?:single\s+|other\s+|new\s+|two\s+|main\s+)?([a-z][\w-]*)(?:\s+([a-z][\w-]*))?",
    re.I,
)
"""The noun a "what <noun>" question asks for (and the word after it, for a compound such as
"what television station"); a leading "single", "other" or "new" is no noun."""

NAME_OF_RE = re.compile(
    r"\bthe name of (?:the |an? |this |that )?(?:\w+['’]s )?([a-z][\w-]*)", re.I
)
"""The noun of "the name of the <noun>" ("the name of the poet"): the name asked for is
written against it."""

ONE_OF_A_KIND_RE = re.compile(
    r"^\s*(?:what|which)(?:'s|\s+is|\s+was|\s+are|\s+were)\s+the\s+(?:first|last|second|third|"
    r"only|main|primary|largest|biggest|smallest|oldest|newest|highest|lowest|best|most \w+|"
    r"least \w+)\s+(?:[\w-]+\s+)??([a-z][\w-]*)\b"
    r"(?=\s+(?:of|in|to|for|that|which|who|at|on|by)\b|\s*\?)",
    re.I,
)
"""The noun of "what was the first <noun> (of ...)": the name asked for is written against it."""

INTRO_WINDOW = 3
"""Words before a name searched for the question word that introduces it ("a guest of
Prince Antoni": function words skipped, a short phrase)."""

WORK_HEAD_RE = re.compile(
    r"\b(?:what|which)\s+(?:[\w-]+\s+){0,2}?(?:songs?|single|album|film|movie|book|novel|poem|"
    r"play|show|series|episode|title|game|opera|musical|painting)\b\s*(?P<next>[a-z]*)",
    re.I,
)
"""A question asking for a titled work ("which other song from ..."): answered by the title
the sentence quotes; the noun must end the phrase (its next word a function word)."""

TITLE_RE = re.compile(r"[\"“]([A-Z][^\"“”]{0,80}?)[,.]?[\"”]")
"""A quoted title ("Summertime", “Crazy in Love”)."""

CODE_HEADS = frozenset(
    stem(w)
    for w in "function class package module method exception error option argument parameter "
    "attribute modifier helper command decorator variable filter tag extension setting flag "
    "field type library loader encoding character keyword test hook callback".split()
)
"""Stems of the nouns of code things ("which function"): documentation names one next to the
noun ("the secho() function"); any other capitalised word of the sentence ("ANSI") is not it."""

CODE_WORD_RE = re.compile(
    r"(?![A-Z][a-z]+(?:-[A-Z][a-z]+)+$)(?![A-Z][A-Za-z]*(?:-[a-z]+)+$)(?=\S*[a-z]{2})(?:[A-Za-z_]\w*(?:[._-]\w+)+(?:\(\))?|[a-z_]\w*\(\)|[a-z]+[A-Z]\w*|[A-Z][a-z]+[A-Z]\w*)"
)
"""A name as code writes it ("environ-config", "utf-16-le", "secho()", "CliRunner"):
documentation names its functions and packages in lowercase, next to the noun. Capitalised
words joined by hyphens ("Python-Markdown", "Hewlett-Packard") are English proper names, no
code: "Python-Markdown" had been the short answer to "Which encoding ...?". On the tune sets
that short answer is gone (markdown), one hotpotqa-dev-tune question gains a (wrong) short
answer, EM and every answer unchanged. Nor is a capitalised word joined to lowercase ones an
English compound ("CPU-bound", "Trio-specific", "Mac-only"), no code: they had been the short
answers to "Which function tests that ...?" and "Which nursery method ...?" (Trio), both
wrong; on every tune set nothing else moved."""

IDENTIFIER_RE = re.compile(r"\w+_\w+")
"""A name joined by underscores ("SUPERSCRIPT_TEXT", "PLACE_MARKER"): an identifier of code,
never a person or a place, whatever noun it holds or follows ("what placeholder text" had
typed "SUPERSCRIPT_TEXT" as the place asked, by the "text" it holds). One more markdown answer
right (the option list's "PLACE_MARKER: ..." chosen), no other tune set moved."""

COMPOUND_RE = re.compile(r"[a-z]+(?:-[a-z]+)+")
"""Lowercase words joined by hyphens ("six-part", "best-dressed"): English compounds before a
noun, code names only after it ("the package environ-config")."""

QUOTED_RE = re.compile(r"[\"“‘']([\w.-]+)[\"”’']")
"""A word in quotes ("scoped"): documentation quotes the literal names it then uses as words."""

DOER_QUESTION_RE = re.compile(
    r"^\s*(?i:who|(?:what|which)\s+[\w-]+)\s+(?:(?i:has|have|had)\s+)?"
    r"(?:(?i:is|was|are|were)\s+(?P<ing>[a-z]+ing)|(?P<verb>[a-z]+))\b"
)
"""A question asking for the doer of its verb ("Who declared ...", "What company is
developing ..."): the verb is written lowercase (a name after "who is" is no verb), and "was
shut" asks who was acted on, not who acted."""

DOER_WORDS = 5
"""Most words of a doer phrase, and how far into a sentence its subject may run."""

DOER_BOUNDARIES = frozenset(
    "in on at for with from to during since after before which who that as while when where "
    "because".split()
)
"""Words that end a doer phrase ("developed by Tantalus Media for the Wii U")."""

ARTICLES = frozenset("the a an".split())
"""Articles: they open a doer phrase but name nothing ("The film")."""

RELATIVE_WORDS = frozenset("who which that".split())
"""Words joining a doer to its verb after it ("the British who colonized")."""

TOKEN_EDGE = ".,;:!?\"'()[]“”‘’"
"""Punctuation stripped from a token's edges; a token ending in it closes a phrase."""
