"""Benchmark ``merge_rows`` on 10,000 and 100,000 rows read from 50 sources.

Run: ``cd /work/main && .venv/bin/python bench/bench_merge.py``

Targets (issue 3): 100,000 rows under 2 s on this machine, and the 100k/10k
time ratio at most 12 (no quadratic path); each target is printed with PASS
or MISS, judged on the best of five runs (the median is printed too, with
the load average, since the machine is shared). Every time is measured in
the same process, next to a baseline over the same rows: a
plain pass that normalises every cell and groups rows by (field, value), the
least work any merge that looks at every value has to do.

``merge_rows`` runs with automatic garbage collection on, as it does in the
server, whose other threads must not see it switched off; the targets are
judged on those times. To show what the collector costs, ``merge_rows`` and
the baseline are also timed with the collector paused around each call (by
this benchmark, in its own process): the ratio "as is / paused" is the share
automatic collection adds. The merge keeps it small by allocating few
containers and ones the collector soon stops tracking (tuples of numbers and
text rather than lists, frozensets shared between rows), and by freeing its
index before the output rows are built.

The data imitate what collection reads from a utility portal: bill lists
(40 sources) where a supply identifier (POD) repeats on many rows and the
supplier on every row, archive pages (8 sources) that read again about a
tenth of those bills with dates and amounts typed and sometimes a day off
on the issue date, and credit notes (2 sources) that cite an invoice code.
"""

from __future__ import annotations

import datetime as dt
import gc
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from decimal import Decimal
from functools import partial

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from apps.records.identity.rows import merge_rows
from apps.records.rows import CellValue, Row, Source

LIST_SOURCES, ARCHIVE_SOURCES, CREDIT_SOURCES = 40, 8, 2
TARGET_SECONDS = 2.0
TARGET_RATIO = 12.0
SUPPLIERS = ("Enel Energia", "Servizio Elettrico Nazionale", "TIM", "Iren Mercato", "A2A Energia")
STATUSES = ("Pagata", "Da pagare", "Scaduta", "In lavorazione")
MONTHS = ("Gennaio", "Febbraio", "Marzo", "Aprile", "Maggio", "Giugno", "Luglio", "Agosto")


def _code(rng: random.Random, n: int) -> str:
    style = n % 3
    if style == 0:
        return f"INV-{2025 + n % 2}-{n:06d}"
    if style == 1:
        return f"{2025 + n % 2}F{n:07d}"
    return f"A{n:07d}/{rng.choice('ABE')}"


def _italian_amount(value: Decimal) -> str:
    whole, cents = f"{value:.2f}".split(".")
    groups = f"{int(whole):,}".replace(",", ".")
    return f"{groups},{cents} €"


def make_sources(total_rows: int, seed: int = 20260915) -> list[Source]:
    """Synthetic reads: bill lists, archive re-reads with small disagreements, credit notes."""
    rng = random.Random(seed)
    archive_rows = total_rows // 10
    credit_rows = total_rows * 2 // 100
    list_rows = total_rows - archive_rows - credit_rows
    bills: list[dict[str, CellValue]] = []
    typed: list[tuple[dt.date, Decimal]] = []
    pods = [f"IT001E{rng.randrange(10**8):08d}" for _ in range(max(1, list_rows // 40))]
    for n in range(list_rows):
        issued = dt.date(2025, 1, 1) + dt.timedelta(days=rng.randrange(540))
        amount = Decimal(rng.randrange(1500, 250000)) / 100
        month = MONTHS[issued.month % len(MONTHS)]
        bills.append(
            {
                "Numero fattura": _code(rng, n),
                "Data emissione": issued.strftime("%d/%m/%Y"),
                "Scadenza": (issued + dt.timedelta(days=20)).strftime("%d/%m/%Y"),
                "Importo": _italian_amount(amount),
                "Stato": rng.choice(STATUSES),
                "POD": rng.choice(pods),
                "Periodo": f"{month} {issued.year}",
            }
        )
        typed.append((issued, amount))
    sources: list[Source] = []
    per_list = -(-list_rows // LIST_SOURCES)
    for s in range(LIST_SOURCES):
        chunk = bills[s * per_list : (s + 1) * per_list]
        supplier = SUPPLIERS[s % len(SUPPLIERS)]
        rows: list[Row] = [{**bill, "Fornitore": supplier} for bill in chunk]
        sources.append(Source(id=f"list-{s:02d}", rows=rows, page=f"https://portal.example/bollette?page={s + 1}"))
    picked = rng.sample(range(list_rows), archive_rows)
    per_archive = -(-archive_rows // ARCHIVE_SOURCES)
    for s in range(ARCHIVE_SOURCES):
        rows = []
        for n in picked[s * per_archive : (s + 1) * per_archive]:
            issued, amount = typed[n]
            if rng.random() < 0.2:  # the archive dates the bill a day later than the list
                issued += dt.timedelta(days=1)
            rows.append(
                {
                    "Numero fattura": bills[n]["Numero fattura"],
                    "Data emissione": issued,
                    "Importo": amount,
                    "Stato": bills[n]["Stato"],
                    "Documento": f"Bolletta {bills[n]['Periodo']}",
                }
            )
        sources.append(Source(id=f"archive-{s}", rows=rows, page="https://portal.example/archivio"))
    cited = rng.sample(range(list_rows), credit_rows)
    per_credit = -(-credit_rows // CREDIT_SOURCES)
    for s in range(CREDIT_SOURCES):
        rows = []
        for k, n in enumerate(cited[s * per_credit : (s + 1) * per_credit]):
            issued, amount = typed[n]
            rows.append(
                {
                    "Numero fattura": f"NC-{s}-{k:06d}",
                    "Data emissione": (issued + dt.timedelta(days=30)).strftime("%d/%m/%Y"),
                    "Importo": _italian_amount(-amount),
                    "Stato": "Emessa",
                    "Causale": f"Storno fattura {bills[n]['Numero fattura']}",
                }
            )
        sources.append(Source(id=f"credit-{s}", rows=rows, page="https://portal.example/note-di-credito"))
    return sources


def baseline(sources: Sequence[Source]) -> int:
    """Normalise every cell and group rows by (field, value): the floor for any merge that reads every value."""
    groups: dict[tuple[str, str], list[tuple[str, int]]] = {}
    for source in sources:
        for index, row in enumerate(source.rows):
            for key, value in row.items():
                text = " ".join(str(value).split()).casefold()
                groups.setdefault((key, text), []).append((source.id, index))
    return len(groups)


def timed(runs: int, work: Callable[[], object], *, collector_paused: bool = False) -> tuple[float, float]:
    """Best and median wall time of ``runs`` calls; optionally with automatic garbage collection paused."""
    times = []
    for _ in range(runs):
        if collector_paused:
            gc.disable()
        try:
            start = time.perf_counter()
            work()
            times.append(time.perf_counter() - start)
        finally:
            gc.enable()
    return min(times), statistics.median(times)


def main() -> int:
    started = time.perf_counter()
    small, large = make_sources(10_000), make_sources(100_000)
    result = merge_rows(large)
    print(f"100k: {result.input_count} rows from {result.source_count} sources -> {len(result.rows)} rows")
    print(f"      {result.message()}")
    del result
    measured = []
    for sources in (small, large):
        t, m = timed(5, partial(merge_rows, sources))
        tp, _ = timed(5, partial(merge_rows, sources), collector_paused=True)
        b, _ = timed(5, partial(baseline, sources))
        bp, _ = timed(5, partial(baseline, sources), collector_paused=True)
        measured.append((t, m, tp, b, bp))
    (t_small, *_), (t_large, *_) = measured
    ratio = t_large / t_small
    for label, (t, m, tp, b, bp) in zip(("10k", "100k"), measured, strict=True):
        print(
            f"merge_rows {label:>4}: best {t:.3f} s, median {m:.3f} s | baseline {b:.3f} s ({t / b:.1f}x) "
            f"| collector paused: merge_rows {tp:.3f} s, baseline {bp:.3f} s ({tp / bp:.1f}x) "
            f"| collector's share, as is / paused: merge_rows {t / tp:.2f}x, baseline {b / bp:.2f}x"
        )
    load = os.getloadavg()[0]
    print(f"load average (1 min) at the end: {load:.2f} on {os.cpu_count()} cores")
    print(f"ratio 100k/10k: {ratio:.2f} (target <= {TARGET_RATIO:g}): {'PASS' if ratio <= TARGET_RATIO else 'MISS'}")
    print(
        f"100k best {t_large:.3f} s (target < {TARGET_SECONDS:g} s): {'PASS' if t_large < TARGET_SECONDS else 'MISS'}"
    )
    print(f"(whole benchmark {time.perf_counter() - started:.0f} s)")
    return 0 if ratio <= TARGET_RATIO and t_large < TARGET_SECONDS else 1


if __name__ == "__main__":
    sys.exit(main())
