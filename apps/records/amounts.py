"""Money and numbers as documents write them: Italian, English, French, German, Dutch, Swiss and Indian forms.

``parse_amount("€ 1.234,56")`` → ``Amount(Decimal("1234.56"), "EUR", "€ 1.234,56")``.
Deterministic, no model call, no float anywhere.

Rules that matter:

* The whole text must be one amount: an optional sign (``-``, the minus sign U+2212, ``+``),
  digits with grouping and decimal separators, and at most one currency
  marker (``€``, ``$``, ``£``, ``¥``, ``₹``, ``EUR``, ``USD``, ``GBP``, ``CHF``,
  ``JPY``, ``INR``, ``Rs.``, ``euro``) before or after the number; a dash
  (an en dash) before the number is a minus sign too, and so is a minus right
  after it, as German receipts print a discount ("1,00-"). Anything else — exponents
  (``1e5``), ``NaN``, ``Infinity``, non-ASCII digits, words — is
  ``unrecognised``. ``$`` is read as USD.
* Separators: with both ``.`` and ``,`` the last one is the decimal separator
  ("1.234,56", "1,234.56"); the other one must group digits in threes. A
  separator that occurs more than once groups thousands ("1.234.567").
  Apostrophes and no-break or thin spaces group thousands too ("1'234.50");
  a plain space groups them only in an amount that names its currency
  ("EUR 1 234,56", "1 500,00 €"), so "10 120,00" (a quantity and a price) is
  not read as ten thousand. Indian grouping — lakhs and crores, "1,47,500.00"
  — is read when it ends in a group of three after groups of two.
* One separator followed by exactly three digits ("1.234", "1,234") is
  ``ambiguous`` — a thousand or one point something — unless the caller says
  which separator is decimal (:func:`infer_decimal_separator` finds it from
  the other numbers of the same document). A leading zero group ("0,125")
  or a first group longer than three digits ("1234,567") cannot be a thousands
  grouping and is read as decimal.
* Bounds: at most :data:`MAX_AMOUNT_CHARS` characters, :data:`MAX_INTEGER_DIGITS`
  integer digits and :data:`MAX_FRACTION_DIGITS` decimal digits.

Unreadable text raises :class:`UnreadableAmount` with a ``reason`` from
:data:`UNREADABLE_AMOUNT_REASONS`; it never guesses.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from decimal import Decimal
from typing import Final, Literal, get_args

DecimalSeparator = Literal[",", "."]
UnreadableAmountReason = Literal[
    "empty",
    "too_long",
    "unrecognised",
    "ambiguous",  # "1.234": a thousand or one point two three four
    "bad_grouping",  # "1.23.456", "12,34,56"
    "too_many_digits",
    "conflicting_currencies",  # "€ 12,00 USD"
]
UNREADABLE_AMOUNT_REASONS: Final = frozenset(get_args(UnreadableAmountReason))

# A longer text is not one amount.
MAX_AMOUNT_CHARS: Final = 64
# 10**15 of any currency is beyond any document Metnos reads; more digits are a code, not money.
MAX_INTEGER_DIGITS: Final = 15
MAX_FRACTION_DIGITS: Final = 6

CURRENCY_SYMBOLS: Final[dict[str, str]] = {"€": "EUR", "$": "USD", "£": "GBP", "¥": "JPY", "₹": "INR"}
CURRENCY_CODES: Final = frozenset({"EUR", "USD", "GBP", "CHF", "JPY", "INR"})
_CURRENCY_WORDS: Final[dict[str, str]] = {"euro": "EUR", "euros": "EUR", "rs": "INR", "rs.": "INR"}

_GROUPING_ONLY: Final = "'\u00a0\u202f\u2009"  # apostrophe, no-break space, narrow no-break space, thin space
_SEPARATORS: Final = ".," + _GROUPING_ONLY
_MINUS_SIGNS: Final = frozenset({"-", "\u2212", "\u2013"})
# A plain space between digits and a group of exactly three: grouping, once the amount names its currency.
_SPACE_GROUP: Final = re.compile(r"(?<=[0-9]) (?=[0-9]{3}(?![0-9]))")
_INDIAN: Final = re.compile(r"[1-9][0-9]?(?:,[0-9]{2})+,[0-9]{3}")

_CURRENCY: Final = r"(?:[€$£¥₹]|\b(?:EUR|USD|GBP|CHF|JPY|INR)\b|\b(?i:euros?)\b|\bRs\.?(?=\s?[0-9]))"
_NUMBER: Final = r"[0-9]+(?:[.,'\u00a0\u202f\u2009][0-9]+)*"
_SIGN: Final = r"[-\u2212+]"
_WHOLE_SIGN: Final = r"[-\u2212\u2013+]"
_WHOLE: Final = re.compile(
    rf"(?:(?P<pre>{_CURRENCY})\s*)?(?P<sign>{_WHOLE_SIGN})?\s*(?:(?P<mid>{_CURRENCY})\s*)?"
    rf"(?P<number>{_NUMBER})(?P<trail>[-\u2212])?(?:\s*(?P<post>{_CURRENCY}))?"
)
# In prose: an amount not glued to a word, a code ("INV-2026-001"), a date
# ("12/03/2026", "2026-03-12") or a percentage ("22%").
_IN_PROSE: Final = re.compile(
    rf"(?<![\w.,/:\-])(?:(?P<pre>{_CURRENCY})\s?)?(?P<sign>{_SIGN})?(?:(?P<mid>{_CURRENCY})\s?)?"
    rf"(?<![\w.,/:])(?P<number>{_NUMBER})(?:\s?(?P<post>{_CURRENCY}))?"
    r"(?![\w/%:\-]|[.,'][0-9]|\s%)"
)
_DOTTED_DATE: Final = re.compile(r"[0-9]{1,2}[.][0-9]{1,2}[.][0-9]{2,4}")


class UnreadableAmount(ValueError):
    """A text that is not exactly one readable amount; ``reason`` says why, ``text`` is the input."""

    def __init__(self, reason: UnreadableAmountReason, text: str, detail: str = "") -> None:
        self.reason: UnreadableAmountReason = reason
        self.text = text
        self.detail = detail
        super().__init__(detail or f"not an amount ({reason.replace('_', ' ')})")


@dataclass(frozen=True)
class Amount:
    """One amount: its exact ``value``, the ISO ``currency`` when the text states one, the ``text`` read."""

    value: Decimal
    currency: str | None
    text: str

    def as_text(self) -> str:
        """The value as plain decimal text, never with an exponent ("1234.56", "-12.50")."""
        return format(self.value, "f")


def _currency(*markers: str | None) -> str | None:
    found: set[str] = set()
    for marker in markers:
        if not marker:
            continue
        code = CURRENCY_SYMBOLS.get(marker) or _CURRENCY_WORDS.get(marker.casefold()) or marker.upper()
        found.add(code)
    if len(found) > 1:
        raise UnreadableAmount("conflicting_currencies", "", "the text names more than one currency")
    return found.pop() if found else None


def _valid_grouping(groups: list[str]) -> bool:
    """Thousands groups: the first of 1-3 digits without a leading zero, then groups of exactly 3."""
    first, rest = groups[0], groups[1:]
    return 1 <= len(first) <= 3 and not first.startswith("0") and all(len(group) == 3 for group in rest)


def _number(number: str, text: str, hint: DecimalSeparator | None) -> tuple[str, str]:
    """Integer and fraction digits of ``number`` (ASCII digits and separators only)."""
    separators = [char for char in number if char in _SEPARATORS]
    if not separators:
        return number, ""
    whole_part, _, decimals = number.partition(".") if "." in number else (number, "", "")
    if _INDIAN.fullmatch(whole_part) and (not decimals or decimals.isdigit()):
        return whole_part.replace(",", ""), decimals
    groups = re.split(r"[.,'\u00a0\u202f\u2009]", number)
    last = separators[-1]
    if last in _GROUPING_ONLY or separators.count(last) > 1:
        # Only grouping: every separator is the same character, in groups of three.
        if len(set(separators)) > 1 or not _valid_grouping(groups):
            raise UnreadableAmount("bad_grouping", text, "the digits are not grouped in threes")
        return "".join(groups), ""
    earlier = separators[:-1]
    if earlier:
        # "1.234,56": everything before the decimal separator is one grouping character.
        if len(set(earlier)) > 1 or earlier[0] == last or not _valid_grouping(groups[:-1]):
            raise UnreadableAmount("bad_grouping", text, "the digits are not grouped in threes")
        return "".join(groups[:-1]), groups[-1]
    whole, fraction = groups
    if len(fraction) != 3 or whole.startswith("0") or len(whole) > 3:
        return whole, fraction
    if hint is None:
        raise UnreadableAmount(
            "ambiguous",
            text,
            f"{number!r} could be {whole}{fraction} or {whole}.{fraction}: the decimal separator is not known",
        )
    return (whole, fraction) if hint == last else (whole + fraction, "")


def _build(match: re.Match[str], text: str, hint: DecimalSeparator | None) -> Amount:
    currency = _currency(match.group("pre"), match.group("mid"), match.group("post"))
    whole, fraction = _number(match.group("number"), text, hint)
    whole = whole.lstrip("0") or "0"
    if len(whole) > MAX_INTEGER_DIGITS or len(fraction) > MAX_FRACTION_DIGITS:
        raise UnreadableAmount("too_many_digits", text, "the number has too many digits to be an amount")
    trailing = "trail" in match.groupdict() and match.group("trail") is not None
    if trailing and match.group("sign"):
        raise UnreadableAmount("unrecognised", text, "the amount has two signs")
    sign = "-" if match.group("sign") in _MINUS_SIGNS or trailing else ""
    value = Decimal(f"{sign}{whole}.{fraction}" if fraction else f"{sign}{whole}")
    if value == 0:
        value = abs(value)  # no "-0.00"
    return Amount(value=value, currency=currency, text=text)


def parse_amount(text: str, *, decimal_separator: DecimalSeparator | None = None) -> Amount:
    """Read ``text`` as exactly one amount (see the module docstring); raise :class:`UnreadableAmount`.

    ``decimal_separator`` resolves "1.234"-style ambiguity only; unambiguous
    forms are read as written whatever it says.
    """
    if not isinstance(text, str):
        raise UnreadableAmount("unrecognised", repr(text), "not text")
    stripped = text.strip()
    if not stripped:
        raise UnreadableAmount("empty", text, "the text is empty")
    if len(stripped) > MAX_AMOUNT_CHARS:
        raise UnreadableAmount("too_long", stripped[:MAX_AMOUNT_CHARS] + "…", "the text is too long to be one amount")
    match = _WHOLE.fullmatch(stripped)
    if match is None and " " in stripped:
        # "EUR 1 234,56": plain spaces group digits only when the amount names its currency.
        spaced = _WHOLE.fullmatch(_SPACE_GROUP.sub("\u202f", stripped))
        if spaced is not None and (spaced.group("pre") or spaced.group("mid") or spaced.group("post")):
            match = spaced
    if match is None:
        raise UnreadableAmount("unrecognised", stripped, f"{stripped!r} is not an amount")
    try:
        return _build(match, stripped, decimal_separator)
    except UnreadableAmount as exc:
        raise UnreadableAmount(exc.reason, stripped, exc.detail) from None


@dataclass(frozen=True)
class FoundAmounts:
    """Amounts found in prose, and the amount-like expressions that could not be read."""

    amounts: tuple[Amount, ...]
    unreadable: tuple[UnreadableAmount, ...]


def find_amounts(text: str, *, decimal_separator: DecimalSeparator | None = None) -> FoundAmounts:
    """Amount expressions inside ``text``, in order; codes, dates and percentages are not amounts.

    Every number standing on its own counts (a quantity "10" too): callers
    decide which one they want, and say so when several compete.
    """
    amounts: list[Amount] = []
    unreadable: list[UnreadableAmount] = []
    for match in _IN_PROSE.finditer(text):
        shown = match.group().strip()
        if _DOTTED_DATE.fullmatch(match.group("number")):
            continue  # "12.03.2026" is a date
        try:
            amounts.append(_build(match, shown, decimal_separator))
        except UnreadableAmount as exc:
            unreadable.append(UnreadableAmount(exc.reason, shown, exc.detail))
    return FoundAmounts(amounts=tuple(amounts), unreadable=tuple(unreadable))


_ALONE_BEFORE: Final = r"(?<![\w.,/:'])"
_ALONE_AFTER: Final = r"(?![\w.,/:']?[0-9])(?![\w])"
_COMMA_DECIMAL: Final = re.compile(
    rf"{_ALONE_BEFORE}(?:[0-9]{{1,3}}(?:\.[0-9]{{3}})+,[0-9]+|[0-9]+,[0-9]{{1,2}}){_ALONE_AFTER}"
)
_POINT_DECIMAL: Final = re.compile(
    rf"{_ALONE_BEFORE}(?:[0-9]{{1,3}}(?:,[0-9]{{3}})+\.[0-9]+|[0-9]+\.[0-9]{{1,2}}){_ALONE_AFTER}"
)


def infer_decimal_separator(text: str) -> DecimalSeparator | None:
    """The decimal separator the numbers of ``text`` use unambiguously, or None.

    "1.234,56" and "12,50" vote for the comma, "1,234.56" and "12.50" for the
    point; dates and codes ("12.03.2026", "v1.2.3") do not vote. Votes for
    both, or none, give None: the text does not settle it.
    """
    votes = Counter({",": len(_COMMA_DECIMAL.findall(text)), ".": len(_POINT_DECIMAL.findall(text))})
    if votes[","] and not votes["."]:
        return ","
    if votes["."] and not votes[","]:
        return "."
    return None


__all__ = [
    "CURRENCY_CODES",
    "CURRENCY_SYMBOLS",
    "MAX_AMOUNT_CHARS",
    "MAX_FRACTION_DIGITS",
    "MAX_INTEGER_DIGITS",
    "UNREADABLE_AMOUNT_REASONS",
    "Amount",
    "DecimalSeparator",
    "FoundAmounts",
    "UnreadableAmount",
    "UnreadableAmountReason",
    "find_amounts",
    "infer_decimal_separator",
    "parse_amount",
]
