"""Codes and comparable values: the two readings of a cell that row identity needs.

Used by :mod:`apps.records.identity.rows` and :mod:`apps.records.identity.links`, whose rules rest on them.

*Codes* (:func:`codes_in`, :func:`identifier_field_codes`). A cell is cut into
tokens: runs of letters and digits joined by single ``-``, ``/``, ``.`` or
``_`` separators (so ``"Fattura n. INV-20-005, 15/09/2026"`` gives ``Fattura``,
``n``, ``INV-20-005``, ``15/09/2026``). A leading number label glued to a code
is dropped (``N.2026F000123`` → ``2026F000123``). A token is a code when it
holds at least one letter, at least one digit and at least
:data:`MIN_CODE_CHARACTERS` letters and digits, and is not one of the shapes that
carry letters without identifying anything: dates and periods written with
month names or quarters (``15-set-2026``, ``Sep-2026``, ``Q3-2026``,
``2026-09-15T10``), amounts and quantities with a currency or unit
(``12.50EUR``, ``350kWh``, ``100GB``), ordinals (``1st``) and clock times
(``10am``). Dates and amounts written with separators (``15/09/2026``,
``1.234,56``, ``€ 12,50``) hold no letter, so they are never codes. In a field
declared as an identifier field, tokens made of digits only count as codes
too, unless they are numeric dates.

A code is compared case-insensitively, with typographic dashes read as ``-``;
its separators are kept exactly as observed, so the groups stay distinct:
``INV-20-005`` and ``INV-200-05`` are two codes, never one.

*Comparable values* (:func:`comparable`). A hashable reading of a cell such
that two cells agree exactly when their comparable values are equal (normalised
text as ``str``, numbers as ``int`` or ``Decimal``, dates as ``date``, timed
datetimes as ``datetime``, booleans tagged so that ``True`` never equals ``1``): text is
compared ignoring case, surrounding spaces and runs of inner whitespace;
numbers and amounts by value when both parse (``"1.234,56 €"``,
``"1,234.56"``, ``Decimal("1234.56")`` agree); dates by value when both are
dates — ``date`` objects, midnight ``datetime`` objects, or text in the
all-numeric day-first (``15/09/2026``, ``15.09.2026``) or ISO (``2026-09-15``)
forms, which read the same whatever the interface language. Anything else is
compared as normalised text. Empty cells (``None``, blank text) have no
comparable value.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Collection, Hashable, Iterator, Mapping, Sequence
from decimal import Decimal
from itertools import compress, repeat
from operator import is_, itemgetter, methodcaller, sub
from typing import TypeAlias

from apps.records.dates.reading import UnreadableDate, parse_date

# A code needs at least this many letters and digits: "A1", "F2", "Q3" are
# positions, time bands or quarters far more often than identifiers.
MIN_CODE_CHARACTERS = 3

Comparable: TypeAlias = Hashable
"""What :func:`comparable` returns: equal exactly when two cells agree."""

Code: TypeAlias = tuple[str, str]
"""A code as ``(normalised, as_observed)``; identity uses the first, notes cite the second."""

_TOKEN = re.compile(r"[^\W_]+(?:[-/._][^\W_]+)*")
_HAS_DIGIT = re.compile(r"\d")
_HAS_LETTER = re.compile(r"[^\W\d_]")
_SEPARATORS = str.maketrans("", "", "-/._")
# "N.", "Nr.", "Rif." glued to the code they introduce.
_LABEL_PREFIX = re.compile(r"(?:n|nr|nro|no|num|rif|ref)\.(?=.*\d)", re.IGNORECASE)

_MONTH = (
    "(?:gennaio|febbraio|marzo|aprile|maggio|giugno|luglio|agosto|settembre|ottobre|novembre|dicembre"
    "|january|february|march|april|may|june|july|august|september|october|november|december"
    "|gen|feb|mar|apr|mag|giu|lug|ago|set|sett|ott|nov|dic|jan|jun|jul|aug|sep|sept|oct|dec)"
)
_UNIT = (
    "(?:kwh|mwh|gwh|wh|kw|mw|kvarh|kvar|smc|mc|m3|l|lt|kg|g|gb|mb|kb|tb|gbit|mbit|kbit|mbps|gbps|kbps"
    "|min|mins|sec|s|h|hr|hrs|ore|gg|giorni|days|d|mesi|months|sms|eur|euro|usd|gbp|chf)"
)
_CURRENCY = "(?:eur|euro|usd|gbp|chf)"
_YEAR = r"(?:19|20)\d{2}"
# Year after a month or quarter: two digits only with a separator ("Sep-26"),
# four digits with or without one ("Sep2026"), so "MAR1234" stays a code.
_YEAR_AFTER = rf"(?:[-/.]\d{{2}}|[-/.]?{_YEAR})"
_NOT_A_CODE = re.compile(
    "|".join(
        (
            rf"\d+(?:\.\d+)*{_UNIT}",  # 350kwh, 12.50eur, 100gb
            rf"{_CURRENCY}\d+(?:\.\d+)*",  # eur12
            r"\d+(?:st|nd|rd|th)",  # 1st, 22nd
            r"\d{1,2}(?:[.:]\d{2})?(?:am|pm)",  # 10am, 10.30pm
            rf"\d{{1,2}}[-/.]?{_MONTH}(?:[-/.]?(?:{_YEAR}|\d{{2}}))?",  # 15-set-2026, 15sep
            rf"{_MONTH}[-/.]?(?:\d{{1,2}}[-/.])?{_YEAR_AFTER}",  # sep-2026, sep-15-2026
            rf"{_YEAR}[-/.]?{_MONTH}(?:[-/.]?\d{{1,2}})?",  # 2026-sep-15
            r"\d{4}-?\d{2}-?\d{2}t\d{1,6}z?",  # 2026-09-15t10 (the ":" ends the token)
            rf"(?:{_YEAR}[-/.]?)?[qths][1-4]{_YEAR_AFTER}?",  # q3-2026, 2026-q3, t1
            rf"[1-4][qths](?:[-/.]?(?:{_YEAR}|\d{{2}}))?",  # 1q26
            rf"fy(?:{_YEAR}|\d{{2}})",  # fy2026
        )
    )
)
# Every letter run of a non-identifying shape above is one of these words: a
# token with any other run of letters is a code without trying the pattern.
_SHAPE_WORDS = frozenset(
    _MONTH[3:-1].split("|")
    + _UNIT[3:-1].split("|")
    + ["st", "nd", "rd", "th", "am", "pm", "t", "z", "q", "h", "s", "fy"]
)
_MONTH_WORDS = frozenset(_MONTH[3:-1].split("|"))
_LETTER_RUN = re.compile(r"[^\W\d_]+")
_DASH = re.compile("[\u2010-\u2015\u2212]")
_NUMERIC_DATE_TOKEN = re.compile(r"\d{1,2}[-/.]\d{1,2}[-/.]\d{2}(?:\d{2})?|\d{4}[-/.]\d{1,2}[-/.]\d{1,2}")


def _strip_label(token: str) -> str:
    match = _LABEL_PREFIX.match(token)
    return token[match.end() :] if match else token


def _is_code(token: str) -> bool:
    if token.isalpha() or token.isdigit():  # the common words and plain numbers, cheaply
        return False
    folded = token.casefold()
    letters = _LETTER_RUN.findall(folded)
    if not letters or not _HAS_DIGIT.search(folded):
        return False
    # Separators sit singly between letters and digits, so five characters
    # or more always hold three letters and digits; count only below that.
    if len(token) < 2 * MIN_CODE_CHARACTERS - 1 and len(token.translate(_SEPARATORS)) < MIN_CODE_CHARACTERS:
        return False
    if not _SHAPE_WORDS.issuperset(letters):
        return True
    return _NOT_A_CODE.fullmatch(folded) is None


def _dashes_read_as_hyphens(text: str) -> str:
    if text.isascii() or _DASH.search(text) is None:
        return text
    return _DASH.sub("-", text)


def codes_in(text: str) -> tuple[Code, ...]:
    """Every code found in a text cell, in order of appearance, without repeats."""
    found: dict[str, str] = {}
    for raw in _TOKEN.findall(_dashes_read_as_hyphens(text)):
        token = _strip_label(raw) if "." in raw else raw
        if _is_code(token):
            found.setdefault(token.casefold(), token)
    return tuple(found.items())


def identifier_field_codes(value: object) -> tuple[Code, ...]:
    """Codes in a cell of a declared identifier field: letter-and-digit codes, plus digit-only tokens.

    Digit-only tokens shaped as numeric dates (``15/09/2026``) still do not count.
    """
    if isinstance(value, bool) or not isinstance(value, str | int):
        return ()
    text = str(value)
    found: dict[str, str] = {}
    for raw in _TOKEN.findall(_dashes_read_as_hyphens(text)):
        token = _strip_label(raw)
        if _is_code(token) or (
            not _HAS_LETTER.search(token) and _HAS_DIGIT.search(token) and _NUMERIC_DATE_TOKEN.fullmatch(token) is None
        ):
            found.setdefault(token.casefold(), token)
    return tuple(found.items())


# --- comparable values -------------------------------------------------------

_CURRENCY_MARK = r"(?:€|\$|£|eur|euro|usd|gbp|chf)"
# The number itself, one alternative per way of writing it. Grouping is by
# "." or "," or "'" every three digits; a plain space never groups, since
# "10 120,00" is as likely a quantity and a price. A single "." or "," after
# one to three digits and before exactly three (1.234) could be either mark,
# so no alternative accepts it; after "0" or four digits or more it can only
# be decimal (0,125). A digit string with a leading zero (00123) is a code.
_NUMBER = (
    r"(?:(?P<i1>\d{1,3}(?:\.\d{3})+),(?P<f1>\d+)"  # 1.234,56
    r"|(?P<i2>\d{1,3}(?:,\d{3})+)\.(?P<f2>\d+)"  # 1,234.56
    r"|(?P<i3>\d{1,3}(?:'\d{3})+)(?:[.,](?P<f3>\d+))?"  # 1'234.56
    r"|(?P<i4>\d{1,3}(?:\.\d{3}){2,}|\d{1,3}(?:,\d{3}){2,})"  # 1.234.567
    r"|(?P<i5>\d{4,}|0)[.,](?P<f5>\d+)"  # 1234,567  0,125
    r"|(?P<i6>\d{1,3})[.,](?P<f6>\d{1,2}|\d{4,})"  # 12,5  3,14159
    r"|(?P<i7>0|[1-9]\d*))"  # 1234
)
_AMOUNT = re.compile(
    rf"(?P<lead>[-+])? ?(?:{_CURRENCY_MARK} ?)?(?P<sign>[-+])? ?{_NUMBER} ?(?:{_CURRENCY_MARK})?(?P<trail>-)?"
)
_DAY_FIRST_DATE = re.compile(r"(\d{1,2})([/.-])(\d{1,2})\2(\d{4})")
_ISO_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")


def parse_amount(text: str) -> Decimal | None:
    """The value of a number or amount written as (normalised) text, or ``None`` when it is not one or is ambiguous.

    Accepts a sign, a currency mark before or after, grouping with ``.``, ``,``
    or ``'`` every three digits (never a plain space: ``10 120,00`` may be a
    quantity and a price), and one decimal mark (the last of ``.`` and ``,``
    when both appear). A single separator after one to three digits and before
    exactly three (``1.234``) could be either, so it is not read as a number;
    after ``0`` or four digits or more it is decimal (``0,125``). Digit
    strings with a leading zero (``00123``) are codes, not numbers.
    Stricter and faster than :func:`apps.records.amounts.parse_amount`, which
    reads whole documents; here an unreadable or ambiguous text simply stays
    text and is compared as such.
    """
    match = _AMOUNT.fullmatch(text)
    if match is None:
        return None
    # Positional groups: lead, sign, i1, f1, i2, f2, i3, f3, i4, i5, f5, i6, f6, i7, trail.
    g = match.groups()
    integer: str = g[2] or g[4] or g[6] or g[8] or g[9] or g[11] or g[13]
    fraction = g[3] or g[5] or g[7] or g[10] or g[12]
    if not integer.isdigit():
        integer = integer.replace(".", "").replace(",", "").replace("'", "")
    value = Decimal(f"{integer}.{fraction}" if fraction else integer)
    return -value if g[0] == "-" or g[1] == "-" or g[14] == "-" else value


def _parse_numeric_date(text: str) -> dt.date | None:
    if not 8 <= len(text) <= 10:
        return None
    match = _DAY_FIRST_DATE.fullmatch(text)
    try:
        if match is not None:
            return dt.date(int(match[4]), int(match[3]), int(match[1]))
        match = _ISO_DATE.fullmatch(text)
        if match is not None:
            return dt.date(int(match[1]), int(match[2]), int(match[3]))
    except ValueError:
        return None
    return None


def normalise_text(text: str) -> str:
    """Case-folded, without surrounding spaces, inner whitespace runs as one space."""
    return " ".join(text.split()).casefold()


_NUMERIC_START = frozenset("0123456789+-€$£")
_CURRENCY_WORDS = frozenset({"eur", "euro", "usd", "gbp", "chf"})


def _named_day(norm: str, letters: list[str]) -> dt.date | None:
    """The day a text with a month's name states ("15 March 2026", "15 mar 2026"), if it states one.

    Tried only when a letter run names a month, so that the same day written
    "15/03/2026" on one page and "15 March 2026" on another agrees.
    """
    if not _MONTH_WORDS.intersection(letters):
        return None
    try:
        stated = parse_date(norm)
    except UnreadableDate:
        return None
    return stated.start if stated.precision == "day" else None


def _number_or_date(norm: str, letters: list[str]) -> Comparable | None:
    """The date or number a normalised text holding a digit spells, if it is one.

    ``letters`` are the text's runs of letters: only currency words may appear
    in a number, so any other word settles it without trying the patterns.
    """
    if letters and not _CURRENCY_WORDS.issuperset(letters):
        return _named_day(norm, letters)
    if norm[0] not in _NUMERIC_START and not norm.startswith(("eur", "usd", "gbp", "chf")):
        return None
    if not letters and norm[0].isdigit():
        date = _parse_numeric_date(norm)
        if date is not None:
            return date
    return parse_amount(norm)


# Shortcuts for the two commonest shapes of cell, each read exactly as the
# general path below reads it (a property test holds them to that): a single
# ASCII token of letters, digits and "-", "/" or "_" separators, with a digit,
# five characters or more and a first letter run that is no month, unit or
# period word ("INV-2026-000123", "2026F0000123") is one code; a plain amount
# with a decimal comma ("1.234,56 €", "-12,50") is its value.
_PLAIN_CODE = re.compile(r"[0-9]*([A-Za-z]+)[A-Za-z0-9]*(?:[-/_][A-Za-z0-9]+)*")
_PLAIN_AMOUNT = re.compile(r"(-?)(?:€ ?)?(0|[1-9][0-9]{0,2}(?:\.[0-9]{3})+|[1-9][0-9]*),([0-9]{1,2})(?: ?€)?")
_ASCII_DIGITS = frozenset("0123456789")
# Whether a text has one of those shapes, and where the parts of an amount
# lie, depends only on its outline: its characters with the digits 1 to 9
# read alike. A column holds few outlines, so each is matched once, and
# looking an outline (bytes) up costs a fraction of running the patterns.
_OUTLINE = bytes.maketrans(b"23456789", b"11111111")
_MAX_OUTLINE = 40  # longer texts are matched, not remembered
_MAX_OUTLINES = 4096
_outlines: dict[bytes, bool | tuple[int, ...]] = {}
_encoded = methodcaller("encode", "utf-8", "surrogatepass")


def _shape(text: str) -> bool | tuple[int, ...]:
    """``True`` for a plain code, the spans of sign, integer and fraction of a plain amount, ``False`` otherwise."""
    if len(text) >= 2 * MIN_CODE_CHARACTERS - 1 and text.isascii() and not _ASCII_DIGITS.isdisjoint(text):
        plain = _PLAIN_CODE.fullmatch(text)
        if plain is not None and plain[1].lower() not in _SHAPE_WORDS:
            return True
    amount = _PLAIN_AMOUNT.fullmatch(text)
    if amount is not None:
        return amount.span(1) + amount.span(2) + amount.span(3)
    return False


def _shapes(texts: Sequence[str]) -> list[bool | tuple[int, ...]]:
    outlines = list(map(bytes.translate, map(_encoded, texts), repeat(_OUTLINE)))
    shapes = list(map(_outlines.get, outlines))
    if None in shapes:  # outlines not seen before: match one text of each
        fresh = {
            outline: _shape(text)
            for outline, text in dict(zip(outlines, texts, strict=True)).items()
            if outline not in _outlines
        }
        for outline, shape in fresh.items():
            if len(outline) <= _MAX_OUTLINE and len(_outlines) < _MAX_OUTLINES:
                _outlines[outline] = shape
        shapes = list(map(fresh.get, outlines, shapes))
    return shapes  # type: ignore[return-value]


def _reading(text: str, shape: bool | tuple[int, ...]) -> tuple[Comparable | None, tuple[Code, ...]]:
    if shape is True:
        folded = text.lower()
        return folded, ((folded, text),)
    if shape:
        sign_start, sign_end, integer_start, _, _, fraction_end = shape
        value = Decimal(text[integer_start:fraction_end].replace(".", "").replace(",", "."))
        return (-value if sign_end > sign_start else value), ()
    return _analyse_in_full(text)


def analyse_text(text: str) -> tuple[Comparable | None, tuple[Code, ...]]:
    """``(comparable(text), codes_in(text))`` in one pass: the two readings every text cell needs."""
    return _reading(text, _shapes((text,))[0])


def analyse_texts(texts: Sequence[str]) -> list[tuple[Comparable | None, tuple[Code, ...]]]:
    """:func:`analyse_text` of each text, in order; a column of plain codes is read without a step per text."""
    return list(zip(*read_texts(texts), strict=True))


def read_texts(texts: Sequence[str]) -> tuple[list[Comparable | None], list[tuple[Code, ...]]]:
    """:func:`analyse_texts` as two lists, the comparable values and the codes, with no pair built per text."""
    shapes = _shapes(texts)
    if shapes.count(True) == len(shapes):
        return _plain_codes(texts)
    # Each shape read in bulk, then the readings dealt back in the order of the texts:
    # is-a-code minus is-an-amount picks 1 (codes), -1 (amounts, the last) or 0 (the rest).
    code_values, code_codes = _plain_codes(list(compress(texts, map(is_, shapes, repeat(True)))))
    amounts = _plain_amounts(list(compress(texts, map(isinstance, shapes, repeat(tuple)))))
    others = list(map(_analyse_in_full, compress(texts, map(is_, shapes, repeat(False)))))
    kinds = list(map(sub, map(is_, shapes, repeat(True)), map(isinstance, shapes, repeat(tuple))))
    values: list[Iterator[Comparable | None]] = [map(_first, others), iter(code_values), iter(amounts)]
    codes: list[Iterator[tuple[Code, ...]]] = [map(_second, others), iter(code_codes), repeat(())]
    return list(map(next, map(values.__getitem__, kinds))), list(map(next, map(codes.__getitem__, kinds)))


_first, _second = itemgetter(0), itemgetter(1)


def _plain_codes(texts: Sequence[str]) -> tuple[list[Comparable | None], list[tuple[Code, ...]]]:
    """The readings of texts of the plain code shape, as :func:`_reading` gives them, as two lists."""
    folded: list[Comparable | None] = list(map(str.lower, texts))
    return folded, list(zip(zip(folded, texts, strict=True)))  # type: ignore[arg-type]


def _plain_amounts(texts: Sequence[str]) -> list[Comparable | None]:
    """The values of texts of the plain amount shape, as :func:`_reading` gives them (they show no codes)."""
    # Around the number lie only the sign, the euro sign and spaces.
    numbers = map(str.strip, texts, repeat("-€ "))
    numbers = map(str.replace, map(str.replace, numbers, repeat("."), repeat("")), repeat(","), repeat("."))
    values: list[Comparable | None] = list(map(Decimal, numbers))
    for i in compress(range(len(texts)), map(str.startswith, texts, repeat("-"))):
        values[i] = -values[i]  # type: ignore[operator]
    return values


def _analyse_in_full(text: str) -> tuple[Comparable | None, tuple[Code, ...]]:
    hyphenated = _dashes_read_as_hyphens(text)
    norm = " ".join(hyphenated.split()).casefold()
    if not norm:
        return None, ()
    if not _HAS_DIGIT.search(norm):
        return norm, ()  # no digit: neither a number, a date nor a code
    letters = _LETTER_RUN.findall(norm)
    number = _number_or_date(norm, letters)
    if number is not None:
        return number, ()  # dates and amounts are never codes
    return norm, (codes_in(hyphenated) if letters else ())


def _comparable_text(text: str) -> Comparable | None:
    norm = " ".join(_dashes_read_as_hyphens(text).split()).casefold()
    if not norm:
        return None
    if _HAS_DIGIT.search(norm):
        number = _number_or_date(norm, _LETTER_RUN.findall(norm))
        if number is not None:
            return number
    return norm


def comparable(value: object) -> Comparable | None:
    """The hashable reading of a cell under which equal means "agrees"; ``None`` for an empty cell."""
    kind = type(value)
    if kind is dt.date:  # the typed cells of a page, answered before the checks below
        return value
    if kind is Decimal and value.is_finite():  # type: ignore[attr-defined]
        return value
    if value is None:
        return None
    if isinstance(value, str):
        return _comparable_text(value)
    if isinstance(value, bool):
        return ("bool", value)  # a tuple, so that True never agrees with 1
    if isinstance(value, int):
        return value
    if isinstance(value, Decimal):
        # NaN and infinities have no value to compare by (and a signalling NaN raises on ==).
        return value if value.is_finite() else str(value).casefold()
    if isinstance(value, float):
        return Decimal(repr(value)) if math.isfinite(value) else str(value).casefold()
    if isinstance(value, dt.datetime):
        # A naive midnight datetime is how many readers type a plain date.
        return value.date() if value.tzinfo is None and value.time() == dt.time(0) else value
    if isinstance(value, dt.date):
        return value
    return _comparable_text(str(value))


def display(value: object) -> str:
    """A short human form of a cell (or of its comparable value) for notes and reasons."""
    if isinstance(value, tuple) and len(value) == 2 and value[0] == "bool":
        value = value[1]
    text = value.isoformat() if isinstance(value, dt.date) else str(value)
    text = " ".join(text.split())
    return text if len(text) <= 60 else text[:57] + "..."


# --- codes per field ---------------------------------------------------------

FieldCodes: TypeAlias = dict[str, dict[str, str]]
"""Codes per normalised field key: ``{key: {normalised code: code as observed}}``."""


def field_codes(row: Mapping[str, object], identifier_keys: Collection[str] = ()) -> FieldCodes:
    """The codes each field of ``row`` shows; ``identifier_keys`` are normalised keys of identifier fields."""
    found: FieldCodes = {}
    for key, value in row.items():
        nk = normalise_text(key)
        codes = dict(codes_in(value)) if isinstance(value, str) else {}
        if nk in identifier_keys:
            codes.update(identifier_field_codes(value))
        if codes:
            found.setdefault(nk, {}).update(codes)
    return found


def conflicting_codes(a: FieldCodes, b: FieldCodes) -> tuple[str, str, str] | None:
    """The first field (by key) where each row shows a code the other does not: ``(key, code a, code b)``.

    Two different codes in one field mean two different items (``INV-1`` and
    ``INV-2`` in "Numero fattura"); a code added next to the same one
    (``INV-1`` and ``INV-1 rif. ORD-9``) is no conflict.
    """
    for key in sorted(a.keys() & b.keys()):
        codes_a, codes_b = a[key], b[key]
        only_a = sorted(c for c in codes_a if c not in codes_b)
        only_b = sorted(c for c in codes_b if c not in codes_a)
        if only_a and only_b:
            return key, codes_a[only_a[0]], codes_b[only_b[0]]
    return None
