"""The grammar of date expressions: the words, the character folding and the patterns.

Month names in Italian, English, French, German and Dutch, weekday and
part-of-year names in Italian and English (full or abbreviated), the
one-to-one character folding applied before matching, the
punctuation a cell may wrap a date in, and the regular expressions
:mod:`apps.records.dates.reading` matches with: one date or interval for
``parse_date``, dates inside prose for ``find_dates``. What each match means
(and every rule about years, order and validity) is decided there, not here.

Every quantifier is bounded, so a match attempt costs a bounded amount of
work. Standard library only.
"""

from __future__ import annotations

import re
from typing import Final

# --- Words ------------------------------------------------------------------

MONTHS: Final[dict[str, int]] = {
    "gennaio": 1, "gen": 1, "genn": 1, "january": 1, "jan": 1,
    "febbraio": 2, "feb": 2, "febbr": 2, "february": 2,
    "marzo": 3, "mar": 3, "march": 3,
    "aprile": 4, "apr": 4, "april": 4,
    "maggio": 5, "mag": 5, "may": 5,
    "giugno": 6, "giu": 6, "june": 6, "jun": 6,
    "luglio": 7, "lug": 7, "july": 7, "jul": 7,
    "agosto": 8, "ago": 8, "august": 8, "aug": 8,
    "settembre": 9, "set": 9, "sett": 9, "september": 9, "sep": 9, "sept": 9,
    "ottobre": 10, "ott": 10, "october": 10, "oct": 10,
    "novembre": 11, "nov": 11, "november": 11,
    "dicembre": 12, "dic": 12, "december": 12, "dec": 12,
    # French, German (with Austria's Jänner and Feber) and Dutch, after folding accents and umlauts.
    "janvier": 1, "janv": 1, "januar": 1, "janner": 1, "januari": 1,
    "fevrier": 2, "fevr": 2, "fev": 2, "februar": 2, "feber": 2, "februari": 2,
    "mars": 3, "marz": 3, "maerz": 3, "mrz": 3, "maart": 3, "mrt": 3,
    "avril": 4, "avr": 4,
    "mai": 5, "mei": 5,
    "juin": 6, "juni": 6,
    "juillet": 7, "juil": 7, "juli": 7,
    "aout": 8, "augustus": 8,
    "septembre": 9,
    "octobre": 10, "oktober": 10, "okt": 10,
    "decembre": 12, "dezember": 12, "dez": 12,
}  # fmt: skip

# Accents are folded before matching, so "lunedì" is looked up as "lunedi".
WEEKDAYS: Final[dict[str, int]] = {
    "lunedi": 0, "lun": 0, "monday": 0, "mon": 0,
    "martedi": 1, "mar": 1, "tuesday": 1, "tue": 1, "tues": 1,
    "mercoledi": 2, "mer": 2, "wednesday": 2, "wed": 2,
    "giovedi": 3, "gio": 3, "thursday": 3, "thu": 3, "thur": 3, "thurs": 3,
    "venerdi": 4, "ven": 4, "friday": 4, "fri": 4,
    "sabato": 5, "sab": 5, "saturday": 5, "sat": 5,
    "domenica": 6, "dom": 6, "sunday": 6, "sun": 6,
}  # fmt: skip

ORDINAL_WORDS: Final[dict[str, int]] = {
    "primo": 1, "secondo": 2, "terzo": 3, "quarto": 4, "quinto": 5, "sesto": 6,
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6,
}  # fmt: skip

# Months per part of the year: "2° bimestre" is March to April, "Q3" July to September.
PART_MONTHS: Final[dict[str, int]] = {
    "bimestre": 2, "trimestre": 3, "quarter": 3, "q": 3, "quadrimestre": 4, "semestre": 6, "half": 6, "h": 6,
}  # fmt: skip

_ACCENTED: Final = dict(
    zip("aeiouAEIOU", ("àáâ", "èéê", "ìíî", "òóô", "ùúû", "ÀÁÂ", "ÈÉÊ", "ÌÍÎ", "ÒÓÔ", "ÙÚÛ"), strict=True)
)
# A one-to-one character map, so positions found in the mapped text are
# positions in the original (find_dates relies on it): dashes become "-",
# typographic apostrophes "'", ordinal indicators "°", unusual spaces " ",
# and accented vowels lose the accent (weekday names).
FOLD: Final = str.maketrans(
    {
        **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d", "-"),
        **dict.fromkeys("\u2018\u2019\u201b\u02bc\u00b4`", "'"),
        "\u00ba": "°",
        **dict.fromkeys("\u00a0\u2007\u2009\u202f\u200a\u3000", " "),
        **{accented: plain for plain in "aeiouAEIOU" for accented in _ACCENTED[plain]},
        **dict(zip("äëïöüÿçÄËÏÖÜÇ", "aeiouycAEIOUC", strict=True)),
    }
)
# Wrapping that a cell may carry around its date: quotes (including a
# spreadsheet's protective apostrophe), brackets, and closing punctuation.
# A leading dot or comma is not stripped: ".2026" is a decimal, not a year.
OPENING_PUNCTUATION: Final = " \"'([{«<"
CLOSING_PUNCTUATION: Final = " \"')]}»>.,;:"

# --- Patterns ---------------------------------------------------------------
#
# Every quantifier is bounded: parse_date matches at most MAX_DATE_TEXT_LENGTH
# characters, and find_dates stays linear in the length of the text it scans.

_SP: Final = r"\s{1,3}"
_OSP: Final = r"\s{0,3}"
_ORD: Final = r"(?:°|st|nd|rd|th|er)?"  # "1st", "2nd", "1er" (French)


def _alternation(names: dict[str, int]) -> str:
    # Longest first, and never a prefix of a longer word ("mar" in "marzo").
    return "(?:" + "|".join(sorted(names, key=len, reverse=True)) + ")(?![a-z])"


_MONTH: Final = _alternation(MONTHS)
_WEEKDAY: Final = _alternation(WEEKDAYS)
_TIME: Final = (
    rf"(?:(?:t|,?{_SP}(?:(?:ore|alle|at){_SP})?)"
    r"(?:[01]?[0-9]|2[0-3]):[0-5][0-9](?::[0-5][0-9](?:\.[0-9]{1,9})?)?"
    rf"(?:{_OSP}(?:am|pm|a\.m\.?|p\.m\.?))?"
    rf"(?:{_OSP}(?:z|utc|gmt|[+-][0-9]{{2}}:?[0-9]{{2}}))?)?"
)
_ARTICLE: Final = rf"(?:(?:il|the){_SP}|l')?"
_DAY_MONTH_SEP: Final = rf"(?:{_OSP}[-/.]{_OSP}|\.?{_SP}(?:of{_SP})?)"
_MONTH_YEAR_SEP: Final = rf"(?:\.?,?{_SP}(?:(?:del|of){_SP})?|\.?{_OSP}[-/]{_OSP}|\.)"
_PART_ORDINAL: Final = "(?:[1-6]" + _ORD + "|" + "|".join(ORDINAL_WORDS) + ")"
_PART_YEAR_SEP: Final = rf"(?:{_SP}(?:del|of|dell'anno|of{_SP}the{_SP}year){_SP}|{_SP}|{_OSP}[-/]{_OSP})"


def _forms(*, named: bool, year_required: bool) -> dict[str, str]:
    """The endpoint forms, in matching order, as pattern strings.

    ``named`` adds the capture groups that the reading's ``_endpoint`` reads; the unnamed
    variant is embedded twice in the interval patterns, where names would
    clash. ``year_required`` keeps only the complete forms (for find_dates).
    """

    def g(name: str, body: str) -> str:
        return f"(?P<{name}>{body})" if named else f"(?:{body})"

    def weekday(form: str) -> str:
        return rf"(?:{g(form + '_wd', _WEEKDAY)}\.?,?{_SP})?"

    def year_part(body: str, *, after_month: bool = False) -> str:
        if year_required:
            return body
        # Without its year a month name may still keep its abbreviation dot ("lug.-ago. 2026").
        return f"(?:{body}|\\.)?" if after_month else f"(?:{body})?"

    year_keyword = rf"(?:(?:anno|year|the{_SP}year){_SP}|l'anno{_OSP})"

    forms = {
        # 15/09/2026, 15.09.2026, 15-09-2026 (separators compared after matching)
        "nd": weekday("nd")
        + g("nd_d", "[0-9]{1,2}")
        + g("nd_s", "[-/.][0-9]{1,2}[-/.]")
        + g("nd_y", "[0-9]{2,4}")
        + _TIME,
        # 2026-09-15, 2026-09-15T10:30:00Z, 2026/09/15: year first is always year-month-day
        "iso": weekday("iso")
        + g("iso_y", "[0-9]{4}")
        + g("iso_s", "[-/.][0-9]{1,2}[-/.]")
        + g("iso_d", "[0-9]{1,2}")
        + _TIME,
        # 2026-08
        "im": g("im_y", "[0-9]{4}") + "-" + g("im_m", "[0-9]{2}"),
        # 08/2026, 8/2026, 08.2026, 08-2026
        "nm": g("nm_m", "[0-9]{1,2}") + "[-/.]" + g("nm_y", "[0-9]{4}"),
        # 01/07 (no year: only an interval start can complete it)
        "ndm": g("ndm_d", "[0-9]{1,2}") + "[-/.]" + g("ndm_m", "[0-9]{1,2}"),
        # 15 settembre 2026, 1° luglio 2026, 15-Sep-2026, the 1st of July, 2026
        "td": weekday("td")
        + _ARTICLE
        + g("td_d", "[0-9]{1,2}")
        + _ORD
        + _DAY_MONTH_SEP
        + g("td_m", _MONTH)
        + year_part(_MONTH_YEAR_SEP + g("td_y", "[0-9]{2,4}") + _TIME, after_month=True),
        # September 15, 2026; Sept. 15th 2026
        "tmd": weekday("tmd")
        + g("tmd_m", _MONTH)
        + rf"\.?{_SP}(?:the{_SP})?"
        + g("tmd_d", "[0-9]{1,2}")
        + _ORD
        + year_part(rf"(?:,{_OSP}|{_SP})" + g("tmd_y", "[0-9]{2,4}") + _TIME),
        # agosto 2026, Aug 2026, ago. 2026, settembre del 2026, Aug-26
        "tm": g("tm_m", _MONTH) + year_part(_MONTH_YEAR_SEP + g("tm_y", "[0-9]{4}|'?[0-9]{2}"), after_month=True),
        # Q3 2026, H1 2026, 2° bimestre 2026, terzo trimestre del 2026, first quarter of 2026
        "qp": "(?:"
        + g("qp_q", "[qh][1-4]")
        + "|"
        + g("qp_o", _PART_ORDINAL)
        + _SP
        + g("qp_u", "bimestre|trimestre|quadrimestre|semestre|quarter|half")
        + ")"
        + year_part(_PART_YEAR_SEP + g("qp_y", "[0-9]{4}")),
        # 2026, anno 2026, year 2026 (find_dates requires the keyword)
        "y": (year_keyword if year_required else f"{year_keyword}?") + g("y_y", "[0-9]{4}"),
        # "15, 2026": the end of "July 1-15, 2026"
        "dy": g("dy_d", "[0-9]{1,2}") + _ORD + rf",{_OSP}" + g("dy_y", "[0-9]{4}"),
        # "15": the start of "15-20 agosto 2026" or "dal 1 al 15 luglio 2026"
        "dd": _ARTICLE + g("dd_d", "[0-9]{1,2}") + _ORD,
    }
    if year_required:
        for partial in ("ndm", "dy", "dd"):
            del forms[partial]
    return forms


def _endpoint_pattern(*, named: bool, year_required: bool = False, exclude: frozenset[str] = frozenset()) -> str:
    forms = _forms(named=named, year_required=year_required)
    if named:
        return "|".join(f"(?P<{kind}>{body})" for kind, body in forms.items() if kind not in exclude)
    return "(?:" + "|".join(body for kind, body in forms.items() if kind not in exclude) + ")"


_ANY_ENDPOINT: Final = _endpoint_pattern(named=False)
_CONNECTOR: Final = (
    rf"(?:{_OSP}[-/]{_OSP}"
    rf"|{_SP}(?:to|until|till|through|thru|up{_SP}to|al|ad|a|fino{_SP}al|fino{_SP}a|sino{_SP}al){_SP}"
    rf"|{_SP}all')"
)
_FROM: Final = rf"(?:(?:from|dal|da){_SP}|dall')"
_BETWEEN: Final = rf"(?:between|tra|fra){_SP}"
_AND: Final = rf"{_SP}(?:and|e|ed){_SP}"

SINGLE_RE: Final = re.compile(_endpoint_pattern(named=True))
INTERVAL_RE: Final = re.compile(
    rf"(?P<prefix>{_FROM})?(?P<a>{_ANY_ENDPOINT})(?P<conn>{_CONNECTOR})(?P<b>{_ANY_ENDPOINT})"
)
BETWEEN_RE: Final = re.compile(rf"{_BETWEEN}(?P<a>{_ANY_ENDPOINT}){_AND}(?P<b>{_ANY_ENDPOINT})")
DASH_CONNECTOR_RE: Final = re.compile(rf"{_OSP}[-/]{_OSP}")

# find_dates: intervals first (alternation is ordered, not longest), then the
# complete single forms. Without "dal"/"from"/"tra" an interval may start with
# a bare day only through a tight dash ("1-15 luglio 2026"), so "pagina 3 - 15
# settembre 2026" is a page number and a day, and never with a bare number
# that might be a year ("Totale 2026 - 15 settembre 2026").
_BOUNDARY_BEFORE: Final = r"(?<![^\W_])(?<![/\-])(?<![0-9][.,])"
_BOUNDARY_AFTER: Final = r"(?![^\W_])(?![/\-][^\W_])(?![.,][0-9])"
_FIND_SINGLE: Final = _endpoint_pattern(named=False, year_required=True)
FIND_RE: Final = re.compile(
    _BOUNDARY_BEFORE
    + "(?:"
    + rf"{_FROM}{_ANY_ENDPOINT}{_CONNECTOR}{_ANY_ENDPOINT}"
    + rf"|{_BETWEEN}{_ANY_ENDPOINT}{_AND}{_ANY_ENDPOINT}"
    + rf"|{_endpoint_pattern(named=False, exclude=frozenset({'dd', 'y'}))}{_CONNECTOR}{_ANY_ENDPOINT}"
    + rf"|{_ARTICLE}[0-9]{{1,2}}{_ORD}-{_ANY_ENDPOINT}"
    + rf"|{_FIND_SINGLE}"
    + ")"
    + _BOUNDARY_AFTER,
    re.IGNORECASE,
)
FIND_SINGLE_RE: Final = re.compile(_BOUNDARY_BEFORE + _FIND_SINGLE + _BOUNDARY_AFTER, re.IGNORECASE)
# "Fattura n. 12/2026", "No. 08/2026", "#12/2026": a number, not a date.
NUMBER_MARKER_RE: Final = re.compile(r"(?:^|[^\w])(?:n|nr|no|num|numero|number|n°)\s?[.°:]?\s?$|#\s?$", re.IGNORECASE)
NUMBER_MARKER_WINDOW: Final = 12
