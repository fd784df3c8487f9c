"""The top of a document: its letterhead (who issues it) and a letter's date line.

Company names
-------------
:func:`company_name` reads the company name a text starts with: words ending
in a legal form (S.r.l., S.p.A., S.a.s., S.n.c., Ltd, Pvt. Ltd., Inc, LLC,
plc, GmbH, AG, KG, e.K., SA, SAS, SARL, B.V., N.V., V.O.F.…), the Italian
partnership's "S.a.s. di Esposito Anna & C." included. A name whose words are
a register's code and number ("HRB 154321 AG", the German court register)
is not a company.

The letterhead
--------------
:func:`letterhead_companies` looks at the first
:data:`~apps.runtime.extraction.fields.LETTERHEAD_LINES` non-empty lines and
stops at the addressee (a marker of the lexicon's ``addressee`` list:
"Spett.le", "Bill to", "Rechnungsempfänger", "Destinataire", "Factuuradres",
"Frau"…) and after the first postal address (a postcode and a town, a US
state and ZIP code, a UK or Irish postcode): a company named after the
sender's address is the addressee's. "A unit of Sethi Hospitality Pvt. Ltd."
names "Sethi Hospitality Pvt. Ltd." (the lexicon's ``company_of`` words).
When no line before that address names a company, the letterhead's first
line may be the sender's name (:func:`letterhead_name`: no digits, at most
:data:`MAX_NAME_WORDS` words, no label, followed by the address within
:data:`NAME_ADDRESS_LINES` lines).

Date lines
----------
:func:`dateline_days` finds a letter's date line, a place and a day alone on
their line: "Zürich, 3. Februar 2026", "Paris, le 12 mai 2026", "Dublin, 3rd
March 2026", "De Pinte, 15 juni 2026".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from apps.records.dates.reading import UnreadableDate
from apps.records.vocabulary import field_lexicon, label_sense, normalise_label
from apps.runtime.extraction.days import DocumentDay
from apps.runtime.extraction.fields import LETTERHEAD_LINES, MAX_LABEL_WORDS
from apps.runtime.extraction.values import DocumentContext, leading_day, title_kind

# The sender's name on the letterhead's first line: at most this many words, the address within this many lines.
MAX_NAME_WORDS: Final = 6
NAME_ADDRESS_LINES: Final = 3

_COMPANY_SUFFIX: Final = (
    r"(?:(?i:s\.?\s?r\.?\s?l\.?(?:\s?s\.?)?|s\.?\s?p\.?\s?a\.?|s\.?\s?a\.?\s?s\.?|s\.?\s?n\.?\s?c\.?"
    r"|soc\.\s?coop\.?|ltd\.?|limited|l\.?l\.?c\.?|inc\.?|incorporated|corp\.?|corporation|plc|l\.?l\.?p\.?"
    r"|gmbh|mbh|sarl|s\.?à\s?r\.?l\.?|sàrl|sas|sasu|eurl|s\.a\.|s\.l\.|b\.v\.|n\.v\.|v\.o\.f\.|e\.\s?k\.|co\.)"
    r"|AG|SA|BV|NV|SE|KG|OHG|VOF|mbB|GbR)"
)
_COMPANY: Final = re.compile(
    rf"(?P<name>[^\W_][\w&'\u2019.,\-\u2013 ]{{0,80}}?\s{_COMPANY_SUFFIX})(?=$|[\s,;)\-\u2013\u2014(·/])"
)
# "Dolce Vita S.a.s. di Esposito Anna & C.": an Italian partnership names its partners after its form.
_PARTNERS: Final = re.compile(r"\s+di\s+[^\d,;:()]{2,60}?&\s?C\.?$")
_REGISTER_NUMBER: Final = re.compile(r"^[0-9]{4,}$")
_OLD_ADDRESSEE: Final = re.compile(r"^(?:spett\w*|egreg\w*|gentil\w*|destinatari\w*|intestat\w*)\b")
_ADDRESS: Final = re.compile(
    r"\b[0-9]{4,5}\s+[A-ZÀ-Ý][\w\u00c0-\u017f'\-]+"  # 75009 Paris, 50735 Köln, 1700 Fribourg
    r"|\b[0-9]{4}\s?[A-Z]{2}\s+[A-Z]"  # 3526 KL Utrecht
    r"|\b[A-Z]{2}\s[0-9]{5}(?:-[0-9]{4})?\b"  # Portland, OR 97210
    r"|\b[A-Z]{1,2}[0-9][A-Z0-9]?\s[0-9][A-Z]{2}\b"  # Bath BA1 1LZ
    r"|\b[A-Z][0-9]{2}\s[A-Z0-9]{4}\b"  # Dublin D24 X8K2
    r"|\b[A-Z][a-z]+\s[0-9]{6}\b"  # Bengaluru 560103
)
_DATELINE: Final = re.compile(r"^(?P<place>[^\W\d_][\w'\u2019.\- ]{1,40}),\s+(?P<date>\S.{4,40})$")


def company_name(text: str) -> str | None:
    """The company name ``text`` starts with ("Alfa Ufficio S.r.l." of "Alfa Ufficio S.r.l. - Milano"), or None."""
    stripped = text.strip()
    match = _COMPANY.match(stripped)
    if match is None:
        return None
    name = match.group("name").strip()
    words = name.split()
    if len(words) > MAX_LABEL_WORDS + 1 or any(_REGISTER_NUMBER.match(word) for word in words):
        return None
    partners = _PARTNERS.match(stripped[match.end("name") :])
    if partners is not None:
        name = stripped[: match.end("name") + partners.end()].strip()
    return name


def _without_company_of(text: str) -> str:
    """ "A unit of Sethi Hospitality Pvt. Ltd." → "Sethi Hospitality Pvt. Ltd."."""
    folded = normalise_label(text)
    for phrase in field_lexicon().phrases_of("company_of"):
        if folded.startswith(phrase + " "):
            return text.strip().split(maxsplit=len(phrase.split()))[-1]
    return text


def is_addressee(text: str) -> bool:
    """Whether a line opens the addressee's block ("Spett.le", "Bill to", "Rechnungsempfänger")."""
    folded = normalise_label(text)
    if _OLD_ADDRESSEE.match(folded):
        return True
    return any(
        folded == phrase or folded.startswith(phrase + " ") for phrase in field_lexicon().phrases_of("addressee")
    )


def is_address(text: str) -> bool:
    """Whether a line states a postal address (a postcode with its town)."""
    return _ADDRESS.search(text) is not None


def _top(lines: Sequence[str]) -> list[tuple[int, str]]:
    """The letterhead's lines with their index: up to the addressee, the first address included."""
    top: list[tuple[int, str]] = []
    for index, line in enumerate(lines):
        text = line.strip()
        if not text:
            continue
        if len(top) >= LETTERHEAD_LINES or is_addressee(text):
            break
        top.append((index, text))
        if is_address(text):
            break
    return top


def letterhead_companies(lines: Sequence[str]) -> list[tuple[str, int]]:
    """The company names in the letterhead, each with its 1-based line (see the module docstring)."""
    companies: list[tuple[str, int]] = []
    for index, text in _top(lines):
        company = company_name(_without_company_of(text))
        if company is not None:
            companies.append((company, index + 1))
    return companies


def letterhead_name(lines: Sequence[str]) -> tuple[str, int] | None:
    """The sender's name on the letterhead's first line, when no company is named there (module docstring)."""
    top = _top(lines)
    if not top or not is_address(top[-1][1]) or len(top) > NAME_ADDRESS_LINES + 1:
        return None
    index, text = top[0]
    words = text.split()
    if (
        is_address(text)
        or any(char.isdigit() for char in text)
        or not 1 < len(words) <= MAX_NAME_WORDS
        or label_sense(text) is not None
        or title_kind(text) is not None
    ):
        return None
    return text, index + 1


def dateline_days(lines: Sequence[str], context: DocumentContext) -> list[tuple[DocumentDay, int]]:
    """The days of a letter's date lines, each with its 1-based line (see the module docstring)."""
    found: list[tuple[DocumentDay, int]] = []
    for index, line in enumerate(lines):
        match = _DATELINE.match(line.strip())
        if match is None or label_sense(match.group("place")) is not None:
            continue
        try:
            day = leading_day(match.group("date"), context)
        except UnreadableDate:
            continue
        if day is not None and match.group("date").strip().rstrip(".").endswith(day.text):
            found.append((day, index + 1))
    return found
