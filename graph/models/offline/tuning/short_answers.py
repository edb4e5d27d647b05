"""Short answers: the kind asked for, and the dates, numbers and nouns they are read from."""

from __future__ import annotations

import re

LEADING_CLAUSE_RE = re.compile(
    r"^\s*(?:when|after|before|while|if|as|since|during|in)\b[^?,]*,\s*(?=(?:what|which|who|whom|"
    r"where|when|how|in what|in which|at what)\b)",
    re.I,
)
"""A clause before the question proper ("When the store was launched, what format ..."): the
wh-word after it says the kind asked for, not the clause's "when"."""

AUXILIARIES = frozenset("are is was were do does did can could has have had will would".split())
"""A question opening with one of these (and offering no "X or Y" choice) is a yes/no one."""


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

TIME_UNITS = frozenset(
    "second seconds minute minutes hour hours day days week weeks month months year years "
    "decade decades century centuries night nights business".split()
)
"""Units of a duration ("16 weeks", "5 business days")."""

FREQUENCY_RE = re.compile(
    r"\b(?:(?:every|each|per|a|an)\s+(?:\d+\s+|other\s+|few\s+)?(?:second|minute|hour|day|"
    r"night|week|month|quarter|year|morning|evening|weekday|monday|tuesday|wednesday|thursday|"
    r"friday|saturday|sunday)s?|(?:hourly|daily|nightly|weekly|fortnightly|monthly|quarterly|"
    r"yearly|annually)|(?:once|twice|\w+ times)\s+(?:a|an|per|each|every)\s+\w+)\b",
    re.I,
)
"""A frequency ("every night", "twice a week", "monthly"): what "how often" asks for."""

TIME_RE = re.compile(r"\b\d{1,2}(?::\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)|\b\d{1,2}:\d{2}\b", re.I)
"""A clock time ("9am", "14:30"): a "when" answer."""

MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
"""Month names, for dates."""

DATE_RE = re.compile(
    rf"\b(?:\d{{1,2}}\s+)?(?:{MONTHS})(?:\s+\d{{1,2}})?(?:,?\s+\d{{4}})?\b|\b(?:1\d{{3}}|20\d{{2}})s?\b"
    r"|\b(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)s?\b"
)
"""A date, a year or a weekday."""

YEAR_RE = re.compile(r"^(?:1\d{3}|20\d{2})$")
"""A year, which is never a count or a duration's number."""

NUMBER_RE = re.compile(
    r"(?<![\w.])[$€£]?\d(?:[\d,]*\d)?(?:\.\d+)*(?:\s*(?:to|–|-)\s*\d(?:[\d,]*\d)?(?:\.\d+)?)?"
    r"(?:\s*(?:%|°\s?[CF]?))?(?![\w.]*\d)"
)
"""A number or a range as written ("3 to 5"), with a currency sign before or a percent or
degree sign after (never a comma after: "200, with")."""

NUMBER_WORDS = frozenset(
    "one two three four five six seven eight nine ten eleven twelve twenty thirty forty fifty "
    "hundred thousand million billion once twice half dozen".split()
)
"""Numbers spelled out ("three times")."""

OTHER_UNITS = frozenset(
    "celsius fahrenheit degrees kelvin percent gb mb kb tb ghz mhz volts watts kg grams "
    "meters metres km miles euros dollars pounds".split()
)
"""Units of measures that are not counts or durations: a "how many" or "how long" answer is
never one of these (a temperature for "how often")."""

TEMPERATURE_UNITS = frozenset("°c °f celsius fahrenheit degrees kelvin".split())
"""Units of a temperature: what "what temperature" asks for."""

KIND_PATTERNS = (
    (re.compile(r"\bhow often\b|\bhow frequently\b", re.I), "frequency"),
    (re.compile(r"\bhow (long|many days|many weeks|many hours|many minutes)\b", re.I), "duration"),
    (re.compile(r"\b(what|which) temperature\b", re.I), "temperature"),
    (re.compile(r"\bhow old\b|\b(at|what|which) age\b", re.I), "age"),
    (re.compile(r"\b(what|which) direction\b", re.I), "direction"),
    (re.compile(r"\b(what|which) (\w+ )?(percent|percentage|share|proportion)\b", re.I), "percent"),
    (
        re.compile(
            r"\bhow (many|much|far|tall|high|deep|big|large|heavy|wide|fast)\b"
            r"|\b(what|which) (number|size|port)\b|\b(what|which)('s|\s+is|\s+was|\s+are|\s+were)"
            r"\s+the\s+(\w+\s+)?(number|amount|size|population|height|depth|length|width|area|"
            r"capacity|distance|speed|weight|cost|price|magnitude)\b"
            r"|\b(what|which|in which|in what) (\w+ )?versions?\b",
            re.I,
        ),
        "number",
    ),  # fmt: skip
    (
        re.compile(
            r"^\s*when\b|\b(what|which) (year|date|day|month|time|decade|century)\b"
            r"|\bsince when\b",
            re.I,
        ),
        "date",
    ),  # fmt: skip
    (
        re.compile(
            r"^\s*(who|whom|whose)\b|\b(by|of|to|with|for|from) whom\b"
            r"|,\s*who (was|is) (it|he|she)\b",
            re.I,
        ),
        "person",
    ),  # fmt: skip
    (
        re.compile(
            r"^\s*where\b|\b(what|which|in what|in which) (city|country|town|office|"
            r"state|place|building|region|continent|province|county|island|river)"
            r"(?=\s+(is|was|are|were|do|does|did|has|have|had|can|could|will|would|the|a|an)\b"
            r"|\s*[?,.]|\s*$)",
            re.I,
        ),
        "place",
    ),  # fmt: skip
    (
        re.compile(
            r"^\s*(what|which) (company|team|organi[sz]ation|firm|band|university|school|"
            r"brand|vendor|library|package|module|class|function|tool)\b",
            re.I,
        ),
        "name",
    ),  # fmt: skip
    (
        re.compile(
            r"\bthe name of\b|\bknown as\b|^\s*(what|which)('s|\s+is|\s+was|\s+are|\s+were)"
            r"\s+the\s+(first|last|second|third|only|main|primary|largest|biggest|smallest|oldest|"
            r"newest|highest|lowest|best|most \w+|least \w+)\s+[a-z]"
            r"|(^\s*|,\s*|\b(to|from|against|of|at|on|for|with|"
            r"by|into|than|as|and)\s+)(what|which)\s+(?!(is|was|are|were|does|do|did|can|could|"
            r"has|have|had|will|would|should|kind|type|sort|happens|happened|in|on|at|to|for|by|"
            r"with|from|as|of|if|the|a|an)\b)[a-z]+"
            r"(\s+(?!(of)\b)|\s*\?)",
            re.I,
        ),
        "name",
    ),  # fmt: skip
)
"""The kind of answer a question asks for, first match wins; none matching asks for a sentence.
"What <noun>" asks for a name also inside the question ("to what conference", "faculty of
which institute?", "and what other member"), and so does "what was the first <noun>" (one of
a kind is named; "what is the refund policy" asks for a sentence).
A measure noun after "what is the" ("what was the focal depth") asks for a number ("what
coastal area" does not), an age ("how
old") never takes a year, a percentage only a percent; a place noun asks for a place only
before a verb or the end ("what city did", not "which country music star")."""

UNIT_RE = re.compile(r"-?\s*([A-Za-z°]+)(?:\s+([A-Za-z]+))?")
"""The word or two after a number that may be its unit ("business days", "-year")."""

HOW_MANY_RE = re.compile(r"\bhow many\s+([a-z]+)(?:\s+([a-z]+))?", re.I)
"""The counted noun of "how many <noun>" (and the word after, for "how many undergrad
students"): the answer's number must count it."""

LETTER_WORD_RE = re.compile(r"\b[A-Za-z]+\b")
"""A word of letters, to find numbers spelled out."""

CHOICE_RE = re.compile(
    r"(?:,|:|\bbetween)\s*(?P<a>[^,?:]+?)\s+(?:or|and)\s+(?P<b>[^,?:]+?)\s*\??\s*$", re.I
)
"""The two options of "..., X or Y?" or "between X and Y"."""
