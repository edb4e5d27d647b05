"""Short answers that are numbers or times: numbers, units, quantities, dates, frequencies."""

from __future__ import annotations

import re

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

ARTICLE_NUMBERS = frozenset("a an".split())
"""Articles that count one before a unit of time (`TIME_UNITS`: "pushed back to a month after
the launch", "an hour"): a duration as "how long" asks for it, so the sentence saying it holds
the kind asked for. Squad +1 right and cited, no other tune set moved."""

LETTER_WORD_RE = re.compile(r"\b[A-Za-z]+\b")
"""A word of letters, to find numbers spelled out."""

MULTIPLIER_WORDS = frozenset("hundred thousand million billion trillion dozen".split())
"""Spelled multipliers: they join the number before them ("118 million") and count nothing
alone ("several hundred students")."""

NUMBER_MODIFIERS = frozenset("over nearly almost approximately about around roughly".split())
"""One-word modifiers kept with the number after them ("over 1,600"): reading-comprehension
answers keep them more often than not (two-word ones, "more than", they drop)."""

CURRENCY_SIGNS = "$€£"
"""Signs before an amount: the amount is its own unit ("$215 million", not "$215 million
development")."""

UNIT_RE = re.compile(r"-?\s*([A-Za-z°]+)(?:\s+([A-Za-z]+))?")
"""The word or two after a number that may be its unit ("business days", "-year")."""

LABEL_QUESTION_RE = re.compile(
    r"\b(?:what|which)\s+(?:(?:http|status|exit|response|error|return)\s+)?"
    r"(?:codes?|ports?|versions?|numbers?)\b",
    re.I,
)
"""A question asking for a number that names rather than counts (an exit or status code, a
port, a version, a number to call): documents write such numbers in digits, so a number spelled
out counts something else ("two options" is no exit code). From the Copier docs set, where
"what exit code does check-update give" had the short answer "two options"."""

STATUS_QUESTION_RE = re.compile(
    r"\b(?:what|which)\s+(?:http\s+)?(?:(?:status|exit|response|error|return)\s+(?:codes?|status)"
    r"|status)\b",
    re.I,
)
"""A question asking for a status or exit code ("what exit status", "which HTTP status"): the
answer is a whole number, written bare ("123", not "206 Partial" of "206 Partial Content", nor
the "0.3" of "Werkzeug 0.3"). From Black's "What exit status does black --check return ...?"
and Werkzeug's "With which HTTP status should the application abort ...?", read as numbers
with the kind's pattern (`tuning.short_answers.KIND_PATTERNS`)."""

NUMBER_CONTEXT = 3
"""Words before a number searched for a question word that types it ("a focal depth of")."""

HOW_MANY_RE = re.compile(r"\bhow many\s+([a-z]+)(?:\s+([a-z]+))?", re.I)
"""The counted noun of "how many <noun>" (and the word after, for "how many undergrad
students"): the answer's number must count it."""

MEASURE_RE = re.compile(
    r"\bhow (much|far|tall|high|deep|big|large|heavy|wide|fast)\b|\b(depth|height|length|width|"
    r"area|capacity|distance|speed|weight|cost|price|magnitude|size|value|amount)\b",
    re.I,
)
"""A question asking for a measure ("how high", "what depth"): its answer may be in metres,
degrees or euros, which a count ("how many") never is."""

OTHER_UNITS = frozenset(
    "celsius fahrenheit degrees kelvin percent gb mb kb tb ghz mhz volts watts kg grams "
    "meters metres km miles euros dollars pounds".split()
)
"""Units of measures that are not counts or durations: a "how many" or "how long" answer is
never one of these (a temperature for "how often")."""

TIME_UNITS = frozenset(
    "second seconds minute minutes hour hours day days week weeks month months year years "
    "decade decades century centuries night nights business".split()
)
"""Units of a duration ("16 weeks", "5 business days")."""

TIME_QUALIFIERS = frozenset(
    "business working calendar full consecutive straight school trading whole".split()
)
"""Words that join the unit of time after them ("five working days", "30 calendar days"):
the duration as written. Any other word does not ("a rainy day" is no duration)."""

TEMPERATURE_UNITS = frozenset("°c °f celsius fahrenheit degrees kelvin".split())
"""Units of a temperature: what "what temperature" asks for."""

PERCENT_UNITS = frozenset("percent per cent percentage".split())
"""Units of a percentage ("6.3 percent"): what "what percent" asks for, besides "%"."""

AGE_RE = re.compile(
    r"(?:\bat\s+(?:the\s+)?age\s+(?:of\s+)?|\baged\s+)(?P<n>\w+)|\b(?P<m>\w+)[- ]years?[- ]old\b",
    re.I,
)
"""An age as written ("at age seven", "at the age of 20", "aged 20", "20-year-old"): what
"how old" asks for, never a year."""

MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
"""Month names, for dates."""

DATE_RE = re.compile(
    rf"\b(?:\d{{1,2}}\s+)?(?:{MONTHS})(?:\s+\d{{1,2}})?(?:,?\s+\d{{4}})?\b|\b(?:1\d{{3}}|20\d{{2}})s?\b"
    r"|\b(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)s?\b"
)
"""A date, a year or a weekday."""

YEAR_RE = re.compile(r"^(?:1\d{3}|20\d{2})$")
"""A year, which is never a count or a duration's number."""

TIME_RE = re.compile(r"\b\d{1,2}(?::\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)|\b\d{1,2}:\d{2}\b", re.I)
"""A clock time ("9am", "14:30"): a "when" answer."""

MONTH_RE = re.compile(rf"\b(?:{MONTHS})\b")
"""A month name: what "what month" asks for, out of a full date."""

DATE_MODIFIERS = frozenset("late early mid".split())
"""Words kept before a date ("late 2005"): reading-comprehension answers keep them."""

UNREAD_PERIODS = frozenset("century centuries decade decades era".split())
"""Periods a "what century" question asks for that no date candidate gives: no short answer."""

FREQUENCY_RE = re.compile(
    r"\b(?:(?:every|each|per|a|an)\s+(?:\d+\s+|other\s+|few\s+)?(?:second|minute|hour|day|"
    r"night|week|month|quarter|year|morning|evening|weekday|monday|tuesday|wednesday|thursday|"
    r"friday|saturday|sunday)s?|(?:every|each)\s+(?:two|three|four|five|six|seven|eight|nine|"
    r"ten|eleven|twelve)\s+(?:second|minute|hour|day|night|week|month|quarter|year)s?"
    r"|(?:hourly|daily|nightly|weekly|fortnightly|monthly|quarterly|"
    r"yearly|annually)|(?:once|twice|\w+ times)\s+(?:a|an|per|each|every)\s+\w+)\b",
    re.I,
)
"""A frequency ("every night", "every six weeks", "twice a week", "monthly"): what "how often"
asks for. A spelled count only after "every" or "each": "a five minute walk" is no frequency."""
