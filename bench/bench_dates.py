"""Benchmark ``parse_date`` against ``dateparser`` on one Italian/English corpus.

Run: ``cd /work/main && .venv/bin/python bench/bench_dates.py``

Target (issue 3): at least 20x the throughput of ``dateparser.parse`` (with
``languages=["it", "en"]`` and ``DATE_ORDER="DMY"``), with the precision
right where dateparser loses it. Both run in this process over the same
corpus; each time is the median of several passes after a warm-up pass.

The corpus imitates what invoices and utility portals write: days (numeric
with slashes, dots and hyphens, ISO, named months in both languages, with a
weekday or a time), months ("08/2026", "agosto 2026", "Aug 2026"), billing
intervals ("luglio-agosto 2026", "dal 1 luglio al 31 agosto 2026"), bare years,
and a few values that are not complete dates ("15 settembre", "15/09/26",
"n/d"). It is generated from a fixed seed, so every run reads the same text.
"""

from __future__ import annotations

import datetime as dt
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import dateparser

from apps.records.dates.reading import DateValue, UnreadableDate, parse_date

TARGET_SPEEDUP = 20.0
SEED = 20260915
OUR_PASSES, OUR_LOOPS = 7, 10  # each pass reads the corpus OUR_LOOPS times
DATEPARSER_PASSES = 3
DATEPARSER_LANGUAGES = ["it", "en"]
DATEPARSER_SETTINGS = {"DATE_ORDER": "DMY"}

IT_MONTHS = ("gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre",
             "ottobre", "novembre", "dicembre")  # fmt: skip
IT_ABBR = ("gen", "feb", "mar", "apr", "mag", "giu", "lug", "ago", "set", "ott", "nov", "dic")
EN_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
             "November", "December")  # fmt: skip
IT_WEEKDAYS = ("lunedì", "martedì", "mercoledì", "giovedì", "venerdì", "sabato", "domenica")
EN_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


@dataclass(frozen=True)
class Item:
    text: str
    category: str  # "day", "month", "interval", "year" or "incomplete"
    start: dt.date | None = None
    end: dt.date | None = None


def _last_day(year: int, month: int) -> dt.date:
    following = dt.date(year + 1, 1, 1) if month == 12 else dt.date(year, month + 1, 1)
    return following - dt.timedelta(days=1)


def _day_text(rng: random.Random, day: dt.date) -> str:
    d, m, y = day.day, day.month, day.year
    shapes = (
        f"{d:02d}/{m:02d}/{y}",
        f"{d}/{m}/{y}",
        f"{d:02d}.{m:02d}.{y}",
        f"{d:02d}-{m:02d}-{y}",
        day.isoformat(),
        f"{d} {IT_MONTHS[m - 1]} {y}",
        f"{d} {IT_MONTHS[m - 1].capitalize()} {y}",
        f"{d} {IT_ABBR[m - 1]} {y}",
        f"{d} {EN_MONTHS[m - 1]} {y}",
        f"{EN_MONTHS[m - 1]} {d}, {y}",
        f"{EN_MONTHS[m - 1][:3]} {d}, {y}",
        f"{d}-{EN_MONTHS[m - 1][:3]}-{y}",
        f"{d:02d}/{m:02d}/{y} {rng.randrange(24):02d}:{rng.randrange(60):02d}",
        f"{IT_WEEKDAYS[day.weekday()]} {d} {IT_MONTHS[m - 1]} {y}",
        f"{EN_WEEKDAYS[day.weekday()]}, {d} {EN_MONTHS[m - 1]} {y}",
    )
    return rng.choice(shapes)


def _month_text(rng: random.Random, year: int, month: int) -> str:
    shapes = (
        f"{month:02d}/{year}",
        f"{month}/{year}",
        f"{year}-{month:02d}",
        f"{IT_MONTHS[month - 1]} {year}",
        f"{IT_MONTHS[month - 1].capitalize()} {year}",
        f"{IT_ABBR[month - 1]}. {year}",
        f"{EN_MONTHS[month - 1]} {year}",
        f"{EN_MONTHS[month - 1][:3]} {year}",
    )
    return rng.choice(shapes)


def _interval_text(rng: random.Random, year: int, first: int, last: int) -> tuple[str, dt.date, dt.date]:
    start, end = dt.date(year, first, 1), _last_day(year, last)
    it1, it2, en1, en2 = IT_MONTHS[first - 1], IT_MONTHS[last - 1], EN_MONTHS[first - 1], EN_MONTHS[last - 1]
    shapes = (
        f"{it1}-{it2} {year}",
        f"{it1.capitalize()}/{it2.capitalize()} {year}",
        f"{en1}\u2013{en2} {year}",
        f"{en1[:3]} - {en2[:3]} {year}",
        f"{en1} {year} \u2013 {en2} {year}",
        f"dal 1 {it1} al {end.day} {it2} {year}",
        f"from 1 {en1} to {end.day} {en2} {year}",
        f"from {en1} to {en2} {year}",
        f"dal {start:%d/%m/%Y} al {end:%d/%m/%Y}",
        f"{start:%d/%m/%Y} - {end:%d/%m/%Y}",
    )
    text = rng.choice(shapes)
    if rng.random() < 0.15:
        # A stretch of days inside one month: "1-15 luglio 2026".
        first_day, last_day = rng.randint(1, 10), rng.randint(15, 28)
        text = f"{first_day}-{last_day} {it1} {year}"
        start, end = dt.date(year, first, first_day), dt.date(year, first, last_day)
    return text, start, end


def make_corpus(seed: int = SEED) -> list[Item]:
    rng = random.Random(seed)
    items: list[Item] = []
    for _ in range(130):
        day = dt.date(2024, 1, 1) + dt.timedelta(days=rng.randrange(3 * 365))
        items.append(Item(_day_text(rng, day), "day", day, day))
    for _ in range(90):
        year, month = rng.choice((2024, 2025, 2026)), rng.randint(1, 12)
        items.append(Item(_month_text(rng, year, month), "month", dt.date(year, month, 1), _last_day(year, month)))
    for _ in range(100):
        year, first = rng.choice((2024, 2025, 2026)), rng.randint(1, 11)
        last = min(12, first + rng.choice((1, 1, 2, 5)))
        text, start, end = _interval_text(rng, year, first, last)
        items.append(Item(text, "interval", start, end))
    for _ in range(15):
        year = rng.choice((2024, 2025, 2026))
        items.append(Item(rng.choice((str(year), f"anno {year}")), "year", dt.date(year, 1, 1), dt.date(year, 12, 31)))
    for text in ("15 settembre", "September 15", "15/09/26", "ago 26", "n/d", "-", "31/02/2026", "agosto"):
        items.append(Item(text, "incomplete"))
    rng.shuffle(items)
    return items


def _ours(text: str) -> DateValue | None:
    try:
        return parse_date(text)
    except UnreadableDate:
        return None


def _dateparser(text: str) -> object:
    return dateparser.parse(text, languages=DATEPARSER_LANGUAGES, settings=DATEPARSER_SETTINGS)


def _seconds_per_call(parse: Callable[[str], object], texts: list[str], passes: int, loops: int) -> float:
    for text in texts:  # warm-up: dateparser loads its language data on first use
        parse(text)
    timings = []
    for _ in range(passes):
        began = time.perf_counter()
        for _ in range(loops):
            for text in texts:
                parse(text)
        timings.append((time.perf_counter() - began) / (loops * len(texts)))
    return statistics.median(timings)


def _precision_report(corpus: list[Item]) -> None:
    rows = []
    for category in ("day", "month", "interval", "year", "incomplete"):
        items = [item for item in corpus if item.category == category]
        ours_right = dp_right = dp_lost = dp_none = dp_wrong = 0
        for item in items:
            ours = _ours(item.text)
            theirs = _dateparser(item.text)
            if category == "incomplete":
                ours_right += ours is None  # refused: no year, two-digit year, impossible day, not a date
                dp_right += theirs is None
                dp_wrong += theirs is not None  # a year or a day invented
                continue
            if ours is not None and (ours.precision, ours.start, ours.end) == (category, item.start, item.end):
                ours_right += 1
            if theirs is None:
                dp_none += 1
            elif not isinstance(theirs, dt.datetime):
                dp_wrong += 1
            elif category == "day":
                if theirs.date() == item.start:
                    dp_right += 1
                else:
                    dp_wrong += 1
            else:
                dp_lost += 1  # one instant where the source states a month, an interval or a year
        rows.append((category, len(items), ours_right, dp_right, dp_lost, dp_none, dp_wrong))

    print()
    print("precision (items read exactly as their source states them)")
    header = ("category", "items", "ours", "dateparser", "dp: lost precision", "dp: not read", "dp: wrong/invented")
    print("  {:<11}{:>6}{:>7}{:>12}{:>20}{:>14}{:>20}".format(*header))
    for row in rows:
        print("  {:<11}{:>6}{:>7}{:>12}{:>20}{:>14}{:>20}".format(*row))
    total = sum(r[1] for r in rows)
    print(
        f"  {'total':<11}{total:>6}{sum(r[2] for r in rows):>7}{sum(r[3] for r in rows):>12}"
        f"{sum(r[4] for r in rows):>20}{sum(r[5] for r in rows):>14}{sum(r[6] for r in rows):>20}"
    )
    print("  (for 'incomplete' items the right answer is a refusal: the year or the day is not in the source)")


def main() -> None:
    corpus = make_corpus()
    texts = [item.text for item in corpus]
    counts = {c: sum(item.category == c for item in corpus) for c in ("day", "month", "interval", "year", "incomplete")}
    print(f"corpus: {len(texts)} strings, " + ", ".join(f"{n} {c}" for c, n in counts.items()))
    print("examples: " + " | ".join(texts[:8]))

    ours = _seconds_per_call(_ours, texts, OUR_PASSES, OUR_LOOPS)
    theirs = _seconds_per_call(_dateparser, texts, DATEPARSER_PASSES, 1)
    speedup = theirs / ours
    print()
    print(f"parse_date        : {1 / ours:>10,.0f} strings/s  ({ours * 1e6:7.1f} µs/string, median of {OUR_PASSES})")
    print(
        f"dateparser.parse  : {1 / theirs:>10,.0f} strings/s  "
        f"({theirs * 1e6:7.1f} µs/string, median of {DATEPARSER_PASSES})"
    )
    verdict = "met" if speedup >= TARGET_SPEEDUP else "NOT MET"
    print(f"speedup: {speedup:.0f}\u00d7 (target \u2265 {TARGET_SPEEDUP:.0f}\u00d7) {verdict}")

    _precision_report(corpus)


if __name__ == "__main__":
    main()
