"""Periods a request opens or closes at a date: "since March 2026", "until June", "the last 6 months".

A date in a request is a period of its own precision ("March 2026" is that
month), unless a word opens or closes a period at it: "since March 2026" is
1 March 2026 to today, "after June 2025" starts on 1 July 2025, "until
2025" ends on 31 December 2025, "before 2026" on 31 December 2025. "From"
opens one only with a word after the date ("from 2025 onwards", "dal 2025 in
poi"): "bills from 2026" are the bills of 2026. A month named without a year
("since March") is its latest occurrence up to today, and "the last 6
months" ends today; both need today's date. The words live in
``lexicon/periods.json``. Deterministic, no model.
"""

from __future__ import annotations

import calendar
import datetime as dt
import functools
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal

from apps.records.dates.grammar import MONTHS
from apps.records.dates.periods import Period

LEXICON: Final = Path(__file__).with_name("lexicon") / "periods.json"
# The earliest and latest days an open period reaches when it has no other bound.
EARLIEST: Final = dt.date(1900, 1, 1)
LATEST: Final = dt.date(9999, 12, 31)
# Full month names only: "mar" or "dec" alone in a sentence is too often another word.
_MONTH_NAMES: Final = {name: number for name, number in MONTHS.items() if len(name) >= 4 or name == "may"}

Bound = Literal["since", "after", "until", "before", "onwards"]


@dataclass(frozen=True)
class OpenPeriod:
    """A period read from a request, with the text it was read from."""

    period: Period
    start: int  # where its words start in the request
    end: int


@functools.cache
def _lexicon() -> Mapping[str, Any]:
    raw = json.loads(LEXICON.read_text(encoding="utf-8"))
    return {key: value for key, value in raw.items() if key != "about"}


def _phrases(name: str) -> str:
    phrases = sorted((str(phrase).casefold() for phrase in _lexicon()[name]), key=len, reverse=True)
    return "|".join(re.escape(phrase).replace(r"\ ", r"\s+") for phrase in phrases)


@functools.cache
def _before_date(name: str) -> re.Pattern[str]:
    """A bound word ending the text before a date, perhaps with fillers between ("since the month of ")."""
    return re.compile(rf"(?<![\w'])(?:{_phrases(name)})\s+(?:(?:{_phrases('fillers')})\s+)?$")


@functools.cache
def _after_date() -> re.Pattern[str]:
    return re.compile(rf"^\s*,?\s*(?:{_phrases('onwards')})(?![\w'])")


def bound_before(text: str, start: int) -> tuple[Bound, int] | None:
    """The bound the words right before ``start`` put on the date there, and where those words start."""
    before = text[:start].casefold().replace("\u2019", "'")
    bounds: tuple[tuple[str, Bound], ...] = (
        ("since", "since"), ("after", "after"), ("until", "until"), ("before", "before"), ("from", "onwards")
    )  # fmt: skip
    for words, bound in bounds:
        match = _before_date(words).search(before)
        if match:
            return bound, match.start()
    return None


def opened(text: str, start: int, end: int, period: Period, today: dt.date | None) -> OpenPeriod | None:
    """The period ``text[start:end]`` (read as ``period``) becomes with the bound words around it, if any."""
    found = bound_before(text, start)
    if found is None:
        return None
    bound, words_start = found
    words_end = end
    if bound == "onwards":
        after = _after_date().match(text[end:].casefold())
        if after is None:
            return None  # "bills from 2026": the bills of 2026
        bound, words_end = "since", end + after.end()
    label = " ".join(text[words_start:words_end].split()).rstrip(".,;:")
    return OpenPeriod(_bounded(bound, period, today, label), words_start, words_end)


def _bounded(bound: Bound, period: Period, today: dt.date | None, label: str) -> Period:
    latest = max(today, period.end) if today is not None else LATEST
    if bound == "since":
        return Period(period.start, latest, label)
    if bound == "after":
        return Period(min(period.end + dt.timedelta(days=1), latest), latest, label)
    if bound == "until":
        return Period(EARLIEST, period.end, label)
    return Period(EARLIEST, max(EARLIEST, period.start - dt.timedelta(days=1)), label)


@functools.cache
def _bare_month() -> re.Pattern[str]:
    names = "|".join(sorted(map(re.escape, _MONTH_NAMES), key=len, reverse=True))
    return re.compile(rf"(?<![\w'])(?P<month>{names})(?![\w'])(?!\s*[-/.,]?\s*(?:of\s+|del\s+)?\d)")


@functools.cache
def _last_units() -> re.Pattern[str]:
    numbers = "|".join(sorted(map(re.escape, _lexicon()["numbers"]), key=len, reverse=True))
    units = "|".join(
        sorted((re.escape(word) for words in _lexicon()["units"].values() for word in words), key=len, reverse=True)
    )
    return re.compile(
        rf"(?<![\w'])(?:{_phrases('last')})\s+(?P<count>\d{{1,3}}|{numbers})\s+(?P<unit>{units})(?![\w'])"
    )


def relative_periods(text: str, today: dt.date | None) -> tuple[list[OpenPeriod], list[str]]:
    """Months without a year after a bound word ("since March") and "the last N months"; notices.

    Without ``today`` none is applied, and a notice says which words needed it.
    """
    lowered = text.casefold().replace("\u2019", "'")
    found: list[OpenPeriod] = []
    needs_today: list[str] = []
    for match in _bare_month().finditer(lowered):
        bound = bound_before(lowered, match.start())
        if bound is None or (bound[0] == "onwards" and not _after_date().match(lowered[match.end() :])):
            continue
        label = " ".join(text[bound[1] : match.end()].split())
        if today is None:
            needs_today.append(label)
            continue
        number = _MONTH_NAMES[match.group("month")]
        year = today.year if number <= today.month else today.year - 1
        month = Period(dt.date(year, number, 1), dt.date(year, number, calendar.monthrange(year, number)[1]), label)
        kind: Bound = "since" if bound[0] == "onwards" else bound[0]
        found.append(OpenPeriod(_bounded(kind, month, today, label), bound[1], match.end()))
    for match in _last_units().finditer(lowered):
        label = " ".join(text[match.start() : match.end()].split())
        if today is None:
            needs_today.append(label)
            continue
        count_text = match.group("count")
        count = int(count_text) if count_text.isdigit() else int(_lexicon()["numbers"][count_text])
        unit = next(name for name, words in _lexicon()["units"].items() if match.group("unit") in words)
        found.append(OpenPeriod(Period(_back(today, count, unit), today, label), match.start(), match.end()))
    notices = [f"{label!r} needs today's date to become a period." for label in needs_today]
    return found, notices


def _back(today: dt.date, count: int, unit: str) -> dt.date:
    """The first day of the last ``count`` units that end today."""
    if unit == "day":
        return today - dt.timedelta(days=count - 1)
    if unit == "week":
        return today - dt.timedelta(weeks=count) + dt.timedelta(days=1)
    months = count * (12 if unit == "year" else 1)
    year, month = divmod(today.year * 12 + today.month - 1 - months, 12)
    day = min(today.day, calendar.monthrange(year, month + 1)[1])
    return dt.date(year, month + 1, day) + dt.timedelta(days=1)
