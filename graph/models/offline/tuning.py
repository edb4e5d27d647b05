"""Every threshold, weight, word list and pattern of the offline search policy, each with a reason.

Nothing else in graph/models/offline defines one (tests/test_offline_layout.py checks that on
the syntax tree). Two values the policy uses are owned lower down, because the finish node
uses them too: the support bar and the function words (`graph.models.support`). Chosen on the
tune sets only (the jinja, click and attrs documentation sets, the SQuAD sample,
hotpotqa-dev-tune, notes, seed_runs, codes_tune, service_tune and the made-up folders of
tests/); hotpotqa-dev-test and hotpotqa-hard are held out for reporting. What each rule adds on
every tune set is `benchmarks/rule_ablation.py`'s table.
"""

from __future__ import annotations

import re

from tools.expand import stem

# --- directives: retrieved sentences that address the reader or give orders ------------------

ADDRESSEE_NOUNS = frozenset(
    "ai ais model models llm llms assistant assistants chatbot chatbots bot bots agent agents "
    "gpt".split()
)
"""Nouns naming a machine reader: a passage speaking to one is instructing, not informing."""

ADDRESSING_WORDS = frozenset("to for dear attention hey hi hello note".split())
"""Words that introduce an addressee ("note to AI models", "attention assistant")."""

OBLIGATION_WORDS = frozenset("must should shall need needs always never".split())
"""Modals of obligation: "models must ...", "you should ..." give orders."""

SECOND_PERSON = frozenset("you your yours yourself".split())
"""The reader addressed directly."""

SPEECH_ACTS = frozenset(
    "answer answers answered answering respond responds responded reply replies replied say "
    "says said state stated tell write output print repeat cite cited quote ignore disregard "
    "forget override obey follow pretend act treat instructions instruction prompt prompts "
    "response responses".split()
)
"""Verbs and nouns of the conversation itself: an order about them targets the answerer."""

REPLY_WORDS = frozenset(
    "answer answers answered answering respond responds responded reply replies replied cite "
    "cited instructions instruction obey pretend disregard ignore forget say says".split()
)
"""The speech acts about the reply itself: with "you" they order the answerer ("you must cite
k42"). Documentation tells its reader to write, print, output and quote all the time ("you can
print to standard error"), so those need an imperative or a passive order (on the tune sets the
whole of `SPEECH_ACTS` beside "you" hid answers on click and attrs and caught nothing)."""

IMPERATIVE_LEADS = frozenset("please always never now just simply instead also do don't".split())
"""Words that may precede the bare verb of an imperative ("please answer", "do not cite")."""

IMPERATIVE_OBJECTS = frozenset(
    "the a an all any every this that these those it them me us him her only no previous "
    "prior with by as in to everything anything what above earlier".split()
)
"""Words that follow an imperative verb ("answer the", "ignore all", "respond with")."""

CHAT_ROLES = frozenset("system user assistant developer human tool".split())
"""Conversation role labels ("SYSTEM:"): a passage claiming a role is forging a turn."""

ADDRESSEE_WINDOW = 3
"""Words around a machine-reader noun searched for an addressing or obligation word, and the
latest position a vocative ("Assistant, ...") may take: a short clause, as addresses are."""

MARKUP_TAG_RE = re.compile(r"</?[A-Za-z][\w:-]*(?:\s[^<>]*)?/?>")
"""An XML/HTML-like tag: plain prose has none; a passage closing `</document>` forges one."""
CLAUSE_RE = re.compile(r"[:;]|\s[-–—]\s|^|(?<=[,])\s*(?=please\b)", re.I)
"""Where a sentence's clauses split, for the imperative check."""
PASSIVE_ORDER_RE = re.compile(r"\b(must|should|shall|is to|are to)\s+(?:only\s+)?be\s+(\w+)", re.I)
"""A passive order ("must be answered with ..."): an order when its verb is a speech act."""
VOCATIVE_RE = re.compile(r"([^\W_]+)\s*[,:!]")
"""A word followed by a comma, colon or bang: a vocative when it names a machine reader."""
CONTRACTED_WORD_RE = re.compile(r"[\w']+")
"""A word with its apostrophe kept ("don't"), for the imperative check."""
ROLE_LABEL_RE = re.compile(r"\W*\[?(\w+)\]?\s*:")
"""A leading role label ("SYSTEM:", "[assistant]:")."""

# --- the search budget ----------------------------------------------------------------------

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

# --- the answer sentence --------------------------------------------------------------------

SENTENCE_SHARE = 0.8
"""Weight of the sentence's own coverage of the question against its passage's coverage: the
answer is a sentence, but a passage's other sentences (its title, its subject) say what it is
about."""

PROXIMITY_WEIGHT = 0.2
"""Bonus for question words close together in the sentence (matched words over their span)."""

KIND_WEIGHT = 0.25
"""Bonus for a sentence holding a candidate of the kind asked for (a person for "who", a
duration for "how long") that the question does not name."""

PAIR_COST = 0.1
"""What a second sentence must add to the score to join the first: a two-hop chain, linked by
a name both sentences hold, or the next sentence of the passage. 0.1 against 0.15 and 0.05,
with the window, rank and neighbour terms: the best on the documentation sets, squad,
hotpotqa-dev-tune and codes_tune at once."""

LINK_WEIGHT = 0.0
"""Weight a name word two passages share must have, over the question's heaviest word, to link
them into a chain. 0.5 (common capitalised words such as "Import" link nothing) helped attrs
and squad but cost hotpotqa-dev-tune 0.02 of contains, so every shared name word links."""

PAIRED = 10
"""How many of the best single sentences are tried with a second one: a chain's first sentence
is always among the best (it covers the part of the question the second lacks)."""

# --- the answer sentence: where it stands and what is near it (issue 19, item 1) ------------

WINDOW = 10
"""Words in the stretch of a sentence whose question weight `WINDOW_WEIGHT` counts: about a
clause, so a sentence naming the question's words together beats one scattering them."""

WINDOW_WEIGHT = 0.4
"""Weight of the share of the question's weight the densest `WINDOW` words of a sentence hold."""

RANK_WEIGHT = 0.2
"""Bonus for a passage's place in the searches' rankings, 1 / (1 + passages seen before it):
the search's own ranking (its length normalisation, its fields) knows which passage is about
the question better than word counts alone. Only for hits the search scored."""

NEIGHBOUR_WEIGHT = 0.1
"""Weight of the question's weight the sentence before a sentence adds to it: a sentence often
goes on about the subject its predecessor names. 0.1 against 0.2 and 0.3: one more answer on
squad and on hotpotqa-dev-tune, the rest unchanged."""

ANAPHORS = frozenset("it its they their them this these those he she his her such".split())
"""Words that, opening a sentence, point back at what the sentence before names ("They never
expire and can be spent in the shop": they are the gift cards)."""

ANAPHOR_WEIGHT = 0.5
"""`NEIGHBOUR_WEIGHT` for a sentence opening with one of `ANAPHORS` ("Its main seminary, ..."):
its predecessor's words are half its own. 0.5 and 0.7 against 0.3: one more right answer on
the pages set, the rest unchanged (0.8 loses hotpotqa-dev-tune answers)."""

# --- short answers --------------------------------------------------------------------------

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

# --- short answers: yes/no reading (issue 19, branch `short`) --------------------------------
# Chosen on the documentation tune sets' yes/no questions (jinja, click, attrs: 22) and
# squad's; hotpotqa-dev-tune holds none, so the comparison words keep its shape (two entities,
# "both", "same") from getting a yes/no no sentence states.

NEGATIONS = frozenset("not no never cannot neither nor without none nothing nobody nowhere".split())
"""Words that turn a clause's statement around (contractions are read as "not" first)."""

NEGATION_EXCEPTIONS = frozenset(["not only", "not just", "no matter"])
"""A negation word opening one of these phrases negates nothing ("not only X but Y")."""

CONTRACTION_RE = re.compile(r"\b(\w+)n['’]t\b", re.I)
"""A contracted negation ("doesn't", "isn’t"): read as its verb and "not"."""

CONDITION_WORDS = frozenset("if unless when whenever whether provided once until".split())
"""Words opening a condition clause: a negation inside one ("if the stream is not a
terminal") is part of the condition, not of the statement."""

COMPARISON_WORDS = frozenset("both same different either than".split())
"""Words of a comparison ("are X and Y both ...", "older than"): a yes/no question holding one
is answered only by a sentence that holds it too (two entities' sentences never say "same")."""

RESTRICTION_WORDS = frozenset("only except exclusively solely".split())
"""Words limiting a statement ("for options only"): without a negation the answer may still be
no for what the question asks, so none is given."""

PRONOUN_LEADS = frozenset("it its they their this these he she his her that".split())
"""Words opening a sentence that continues its predecessor: it holds that one's words too."""

STATEMENT_BREAK_RE = re.compile(r"(?<=[.!?])\s+(?=\S)")
"""Any sentence end, also before a lowercase word ("... PyPy. attrs doesn't"): the statement a
yes or no is read from is one sentence."""

CLAUSE_BREAK_RE = re.compile(r"[,;:()\[\]—–]|\s-\s|\b(?:but|whereas|however|although)\b", re.I)
"""Where a sentence's clauses split, for reading which clause a negation belongs to."""

YES_MISSING_SHARE = 0.34
"""Most of a yes/no question's words the statement may lack (its subject said as "It", a
qualifier such as "file" or "ever"); more, and it may state something else."""

# --- short answers: spans of the kind asked (issue 19, branch `short`) -----------------------
# Chosen on the squad, jinja, click, attrs and hotpotqa-dev-tune tune sets (short-answer exact
# match and F1, with notes and seed_runs kept): precision first. No bar on the answer's own
# coverage: with these kinds, a bar from 0.4 to 0.7 lost exact matches and F1 on every set (the
# support bar already gates the answer).

AGE_RE = re.compile(
    r"(?:\bat\s+(?:the\s+)?age\s+(?:of\s+)?|\baged\s+)(?P<n>\w+)|\b(?P<m>\w+)[- ]years?[- ]old\b",
    re.I,
)
"""An age as written ("at age seven", "at the age of 20", "aged 20", "20-year-old"): what
"how old" asks for, never a year."""

MULTIPLIER_WORDS = frozenset("hundred thousand million billion trillion dozen".split())
"""Spelled multipliers: they join the number before them ("118 million") and count nothing
alone ("several hundred students")."""

NUMBER_MODIFIERS = frozenset("over nearly almost approximately about around roughly".split())
"""One-word modifiers kept with the number after them ("over 1,600"): reading-comprehension
answers keep them more often than not (two-word ones, "more than", they drop)."""

MEASURE_RE = re.compile(
    r"\bhow (much|far|tall|high|deep|big|large|heavy|wide|fast)\b|\b(depth|height|length|width|"
    r"area|capacity|distance|speed|weight|cost|price|magnitude|size|value|amount)\b",
    re.I,
)
"""A question asking for a measure ("how high", "what depth"): its answer may be in metres,
degrees or euros, which a count ("how many") never is."""

CURRENCY_SIGNS = "$€£"
"""Signs before an amount: the amount is its own unit ("$215 million", not "$215 million
development")."""

NOT_UNITS = frozenset("others another more less fewer".split())
"""Words after a number that are no unit ("two others"): the number stays bare."""

NUMBER_CONTEXT = 3
"""Words before a number searched for a question word that types it ("a focal depth of")."""

PERCENT_UNITS = frozenset("percent per cent percentage".split())
"""Units of a percentage ("6.3 percent"): what "what percent" asks for, besides "%"."""

UNREAD_PERIODS = frozenset("century centuries decade decades era".split())
"""Periods a "what century" question asks for that no date candidate gives: no short answer."""

DATE_MODIFIERS = frozenset("late early mid".split())
"""Words kept before a date ("late 2005"): reading-comprehension answers keep them."""

DIRECTION_RE = re.compile(
    r"\b(?:north|south|east|west|north-?east|north-?west|south-?east|south-?west|northward|"
    r"southward|eastward|westward|upstream|downstream|clockwise|counterclockwise)\b",
    re.I,
)
"""A direction ("flows north"): what "which direction" asks for."""

MONTH_RE = re.compile(rf"\b(?:{MONTHS})\b")
"""A month name: what "what month" asks for, out of a full date."""

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

LEAD_PREPOSITION_RE = re.compile(
    r"^\s*(from|to|against|into|at|on|with|by)\s+(?:what|which)\b", re.I
)
"""A question opening with a preposition ("From what airport did ..."): of two names of the
kind, the one the sentence writes after that preposition."""

INTRO_WINDOW = 3
"""Words before a name searched for the question word that introduces it ("a guest of
Prince Antoni": function words skipped, a short phrase)."""

WORD_RE_CASED = re.compile(r"[^\W_]+")
"""A word with its case kept, to tell a common noun ("ruler") from a name."""

CODE_WORD_RE = re.compile(
    r"(?=\S*[a-z]{2})(?:[A-Za-z_]\w*(?:[._-]\w+)+(?:\(\))?|[a-z_]\w*\(\)|[a-z]+[A-Z]\w*|[A-Z][a-z]+[A-Z]\w*)"
)
"""A name as code writes it ("environ-config", "utf-16-le", "secho()", "CliRunner"):
documentation names its functions and packages in lowercase, next to the noun."""

COMPOUND_RE = re.compile(r"[a-z]+(?:-[a-z]+)+")
"""Lowercase words joined by hyphens ("six-part", "best-dressed"): English compounds before a
noun, code names only after it ("the package environ-config")."""

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

QUOTED_RE = re.compile(r"[\"“‘']([\w.-]+)[\"”’']")
"""A word in quotes ("scoped"): documentation quotes the literal names it then uses as words."""

POSSESSIVE_RE = re.compile(r"['’]s?$")
"""A possessive ending ("Chopin's"): dropped from a name; a possessor is no person asked for."""

DEMONYM_RE = re.compile(r"[A-Z][a-z]*(?:an|ese|ish|ic|ist|i|ch)$")
"""A word shaped like a people's or a faith's adjective ("Italian", "Chinese", "Polish",
"Buddhist"): a name of such words before a lowercase noun ("Italian television") is an
adjective, no person or thing asked for."""

PLACE_LEADS = frozenset("in at from near".split())
"""Words before a name that make it a place ("in Oslo")."""

# --- reading text ---------------------------------------------------------------------------

WORD_RE = re.compile(r"[^\W_]+")
"""A word: a run of letters and digits (the BM25 tokenizer's)."""

SENTENCE_RE = re.compile(
    r"(?:(?<=[.!?])|(?<=[.!?][)\]\"'”’]))\s+(?=[A-Z0-9\"'(`*“‘])|(?<=[^.]\.)\s+(?=[a-z_])"
    r"|\n\s*\n"
)
"""A sentence boundary: ., ! or ? (or one closing a bracket or a quote: "(... the block.)")
before a capital or digit, a full stop (not an ellipsis) before a lowercase word
(documentation starts sentences with identifiers: "... Data Classes. attrs supports PyPy."),
or a blank line."""

ABBREVIATION_RE = re.compile(
    r"\b(?:[A-Z]|Mr|Mrs|Ms|Dr|St|Mt|Ft|Jr|Sr|Sen|Rep|Gov|Gen|Col|Lt|Sgt|Capt|Rev|Prof|Inc|Ltd|"
    r"Co|Corp|Bros|No|vs|v|ca|approx|e\.g|i\.e|eg|ie|cf|al|etc)\.$"
)
"""A piece ending like "St.", "Dr." or "J.": an abbreviation or an initial, not an end."""

NAME_RE = re.compile(
    r"[A-Z][\w'’.-]*(?:\s+(?:(?:of|and|the|de|du|von|van|la|le|del|da|di|der|&)\s+)*"
    r"[A-Z0-9][\w'’.-]*)*"
)
"""A capitalised span, possibly joined by lowercase connectors ("Bank of Ireland")."""

CONNECTORS = frozenset("of and the de du von van la le del da di der den y &".split())
"""Lowercase words that may join the capitalised words of one name."""

LEADING_FUNCTION_WORDS = frozenset(
    "The A An It Its This That These Those In On At For From By With As Each Every All Some "
    "He She They We I His Her Their Our After Before When While If Since During Then "
    "There Here Also But And Or Is Are Was Were Do Does Did Can Who What Which Where How".split()
)
"""Capitalised at a sentence start without being part of a name ("The", "After")."""

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

# --- arithmetic ------------------------------------------------------------------------------

MATH_WORDS = frozenset("calculate compute evaluate equal equals result sum".split())
"""Words that ask for a computation: with only these beside an expression, it is arithmetic."""

SIGNIFICANT_DIGITS = 12
"""Digits an answer keeps: float noise (87.50000000000001) is rounded away."""

NUMBER = r"\d[\d,]*(?:\.\d+)?(?:[eE][+-]?\d+)?"
"""A number as people write it: thousands commas, decimals, scientific notation ("1.5e3")."""
POWERED = rf"{NUMBER}(?:\s*(?:\*\*|\^)\s*{NUMBER})*"
"""A number or a power of numbers ("2**10", "10^3"): the calculator computes it."""
PERCENT_RE = re.compile(
    rf"(?<![\w.*^])(?P<rate>{POWERED})\s*(?:%|percent\b)\s+of\s+"
    r"(?P<phrase>[^?!]*?\d[^?!]*?)\s*[?!.]*\s*$",
    re.I,
)
"""A percentage of an amount ("18% of a $250 order")."""
AMOUNT_RE = re.compile(rf"(?P<currency>[$€£])?\s*(?P<number>{POWERED})")
"""An amount, with its currency sign."""
PLAIN_RATE_RE = re.compile(r"\d+(?:\.\d+)?")
"""A rate the answer can show as a decimal fraction ("18" -> 0.18) without the calculator."""
WORD_OPERATORS = (
    (re.compile(r"\bdivided by\b", re.I), "/"),
    (re.compile(r"\bmultiplied by\b|\btimes\b", re.I), "*"),
    (re.compile(r"\bplus\b", re.I), "+"),
    (re.compile(r"\bminus\b", re.I), "-"),
    (re.compile(r"[×x](?=\s*[\d(])", re.I), "*"),
    (re.compile(r"÷"), "/"),
    (re.compile(r"\^"), "**"),
)
"""Operators written as words or signs, and the calculator's spelling of them."""
OPERAND = r"\d[\d.,]*(?:[eE][+-]?\d+)?"
"""One operand of an expression."""
EXPRESSION_RE = re.compile(
    rf"[-+(]*\s*{OPERAND}(?:\s*(?:\*\*|[-+*/%])\s*[-+(]*\s*{OPERAND}\)*)+\)*"
)
"""An arithmetic expression in a question ("12 * (3 + 4)")."""

# --- declining (helper "confidence"): when the evidence does not cover the question ----------

DECLINE_SUPPORT = 0.51
"""Support below which the `answer` rule declines a short question (`SHORT_QUESTION_WORDS`);
between it and `graph.models.support.SUPPORT_BAR`, and for longer questions, the answer is
given, not confident.

Chosen on the tune sets (`benchmarks/confidence_sweep.py`: the policy's answers with its
decline off, every bar scored): the short off-corpus questions reach at most 0.50 (a two-word
question lacking one word), the right answers to short questions start at 0.52 (codes_tune),
then 0.54 (click, jinja). Just above half declines 6, 6 and 5 of the six off-corpus questions of
jinja, click and attrs and keeps right and cited above the baseline on every set; 0.5 answers
click's "refund window" question (5 of 6), 0.52 declines right answers (codes_tune +0.016
instead of +0.031 over the baseline, squad +0.023 instead of +0.033), and 0.6, the earlier bar,
falls below the baseline on squad."""

SHORT_QUESTION_WORDS = 8
"""Meaningful words (`graph.models.support.question_terms`) up to which a question is short:
it names what it asks in few words, so passages lacking half its weight lack what it asks. A
longer one describes a case in the asker's words ("the drum was still going round, burnt
smell") that no manual uses; its passages may cover under half of it and still answer it.

Chosen with `DECLINE_SUPPORT` on the same sweep: the off-corpus questions of the documentation
sets have 2 to 7 such words, the service_tune requests 9 to 22. 7 and 8 decline the same
off-corpus questions (7 answers two more squad questions and one hotpotqa-dev-tune question;
8 keeps a word's margin over the longest off-corpus question); 6 answers off-corpus questions
of click and attrs (5 and 4 of 6 declined); 9 and above decline right answers of codes_tune and
service_tune, and no limit (declining on support alone) falls below the baseline on
service_tune (the earlier `SUPPORT_BAR` 0.6 declined 94% of it)."""
