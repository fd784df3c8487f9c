"""XLSX writing with protection and receipts against a bare openpyxl dump.

Target (issue 3): ``write_xlsx`` takes at most 1.3x the time of a bare
openpyxl write-only dump of the same cells, measured in the same run.

    cd /work/main && .venv/bin/python bench/bench_sheets.py [--rows N] [--repeat K]

Both sides write the same 20,000 x 10 cells (text, active text, integers,
Decimal amounts, floats, dates, datetimes, booleans, empties) to the same
folder. The bare side is ``Workbook(write_only=True)``, ``ws.append(row)``,
``save``; ``write_xlsx`` adds column resolution, validation, cleaning,
protection, the receipt and the atomic replace (temporary file, fsync,
``os.replace``). The two sides alternate so neither gets a warmer cache, and
the best of K runs is compared. The verdict uses CPU time of this process
(``time.process_time``): on a shared machine wall time swings by tens of
percent with other people's work. Wall time is printed too; it includes the
fsync of the atomic write, which CPU time does not see.
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import sys
import tempfile
import time
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from openpyxl import Workbook

from apps.records.rows import CellValue
from apps.records.sheets.xlsx import write_xlsx

TARGET_RATIO = 1.3
FIELDS = (
    "Numero fattura",
    "Fornitore",
    "Importo",
    "Imponibile",
    "Data emissione",
    "Scadenza",
    "Pagata",
    "Quantità",
    "Descrizione",
    "Note",
)
SUPPLIERS = ("ACME S.p.A.", "Beta Energia", "Gamma Telecom", "Delta Acqua", "mario@example.org")
ACTIVE = ("=SUM(A1:A9)", "+39 06 1234567", "@SUM(1+1)*cmd|' /C calc'!A0", ' =HYPERLINK("x")', "-2+3")


def make_rows(count: int, seed: int = 7) -> list[dict[str, CellValue]]:
    generator = random.Random(seed)
    start = dt.date(2026, 1, 1)
    rows: list[dict[str, CellValue]] = []
    for index in range(count):
        issued = start + dt.timedelta(days=index % 365)
        # About 2% of the description cells are active text.
        description = ACTIVE[index % len(ACTIVE)] if index % 50 == 0 else f"Bolletta luce e gas periodo {index}"
        rows.append(
            {
                "Numero fattura": f"INV-{2026}-{index:06d}",
                "Fornitore": SUPPLIERS[index % len(SUPPLIERS)],
                "Importo": Decimal(generator.randint(-5000, 500000)) / 100,
                "Imponibile": generator.random() * 1000,
                "Data emissione": issued,
                # Naive on purpose: the bare dump (openpyxl) refuses aware datetimes.
                "Scadenza": dt.datetime(2026, 1, 1, 12, 0) + dt.timedelta(hours=index),  # noqa: DTZ001
                "Pagata": index % 3 == 0,
                "Quantità": generator.randint(1, 99),
                "Descrizione": description,
                "Note": None if index % 4 else "Unita a un'altra lettura della stessa pagina",
            }
        )
    return rows


def bare_dump(rows: list[dict[str, CellValue]], path: Path) -> None:
    workbook = Workbook(write_only=True)
    worksheet = workbook.create_sheet("Sheet1")
    worksheet.append(list(FIELDS))
    for row in rows:
        worksheet.append([row[field] for field in FIELDS])
    workbook.save(path)


def protected_write(rows: list[dict[str, CellValue]], path: Path) -> None:
    receipt = write_xlsx(rows, path)
    assert receipt.rows_written == len(rows)
    assert receipt.protected_cells > 0


def timed(action: Callable[[], None]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) for one call."""
    cpu, wall = time.process_time(), time.perf_counter()
    action()
    return time.process_time() - cpu, time.perf_counter() - wall


def runs(times: list[tuple[float, float]], which: int) -> str:
    return ", ".join(f"{sample[which]:.2f}" for sample in times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rows", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3)
    arguments = parser.parse_args()

    rows = make_rows(arguments.rows)
    bare_times: list[tuple[float, float]] = []
    protected_times: list[tuple[float, float]] = []
    with tempfile.TemporaryDirectory() as folder:
        bare_path = Path(folder) / "bare.xlsx"
        protected_path = Path(folder) / "protected.xlsx"
        bare_dump(rows[:100], bare_path)  # warm up imports and caches on both sides
        protected_write(rows[:100], protected_path)
        for _ in range(arguments.repeat):
            bare_times.append(timed(lambda: bare_dump(rows, bare_path)))
            protected_times.append(timed(lambda: protected_write(rows, protected_path)))

    cells = arguments.rows * len(FIELDS)
    print(f"cells: {arguments.rows:,} rows x {len(FIELDS)} columns = {cells:,}; best of {arguments.repeat}")
    ratios = []
    for which, clock in ((0, "CPU"), (1, "wall")):
        bare = min(sample[which] for sample in bare_times)
        protected = min(sample[which] for sample in protected_times)
        ratios.append(protected / bare)
        print(f"{clock} time")
        print(f"  bare openpyxl write-only dump: {bare:.3f} s  (runs: {runs(bare_times, which)})")
        print(f"  write_xlsx with protection:    {protected:.3f} s  (runs: {runs(protected_times, which)})")
        print(f"  ratio: {protected / bare:.2f}x")
    verdict = "OK" if ratios[0] <= TARGET_RATIO else "OVER TARGET"
    print(f"verdict (CPU ratio {ratios[0]:.2f}x, target <= {TARGET_RATIO}x): {verdict}")
    return 0 if ratios[0] <= TARGET_RATIO else 1


if __name__ == "__main__":
    raise SystemExit(main())
