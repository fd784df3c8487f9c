"""Helpers (no tests) for the collection end-to-end tests on the fixture site ``collect-signin``.

``collect-signin`` is Brightwater Energy, an English utility whose customer
area is behind sign-in (``/_/login``, ``/private/`` of the fixture web): an
overview, "My bills" with the latest two bills, "All bills" in three numbered
pages (seven bills, no amount in the table), a detail page per bill (the
amount, the due date), an archive by year (2026 and 2025, other date
formats), and a PDF per bill (``/_/pdf``). Its ``credentials.json`` holds the
password the server accepts: a canary that must never leave the field it is
typed into.
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.core.management import call_command
from openpyxl import load_workbook

from apps.documents.files import owner_files_root
from apps.vault.services import credential_save
from tests.sites.fixture_web import WEB_ROOT, FixtureSite

SITE = "collect-signin"
_SETTINGS = json.loads((WEB_ROOT / SITE / "credentials.json").read_text(encoding="utf-8"))
USERNAME: str = _SETTINGS["username"]
PASSWORD: str = _SETTINGS["password"]  # a canary
WRONG_PASSWORD = "CANARY-collect-wrong-5b80"
BILLS_2026 = ["BW-2026-005", "BW-2026-004", "BW-2026-003", "BW-2026-002", "BW-2026-001"]
AMOUNTS_2026 = {"BW-2026-005": "€84.20", "BW-2026-004": "€91.35", "BW-2026-003": "€102.60",
                "BW-2026-002": "€118.05", "BW-2026-001": "€109.90"}  # fmt: skip
SHEET = "invoices 2026.xlsx"


def request_en(url: str) -> str:
    return f"collect all invoices from 2026 from {url} into a spreadsheet"


def request_it(url: str) -> str:
    return f"raccogli tutte le fatture del 2026 da {url} in un foglio di calcolo"


def save_credential(owner: Any, site: FixtureSite, *, password: str = PASSWORD, label: str = "Brightwater") -> Any:
    return credential_save(owner=owner, label=label, origins=[site.origin], username=USERNAME, secret=password)


@dataclass
class Asked:
    """What ``metnos ask`` printed: its exit code, the live events and the final line."""

    code: int
    printed: str
    events: list[dict[str, Any]]
    final: dict[str, Any]


def metnos_ask(owner: Any, request: str) -> Asked:
    out = io.StringIO()
    code = 0
    try:
        call_command("metnos", "ask", "--user", owner.username, request, stdout=out)
    except SystemExit as exited:
        code = int(exited.code or 0)
    printed = out.getvalue()
    lines = [json.loads(line) for line in printed.strip().splitlines()]
    return Asked(code, printed, lines[:-1], lines[-1])


def spreadsheet_rows(owner: Any, name: str = SHEET) -> list[dict[str, Any]]:
    sheet = load_workbook(owner_files_root(owner=owner) / name).active
    assert sheet is not None
    header, *rows = list(sheet.iter_rows(values_only=True))
    return [dict(zip(header, row, strict=True)) for row in rows]


def spreadsheet_text(path: Path) -> str:
    """Every cell of every sheet of an XLSX file, as text."""
    book = load_workbook(path)
    return "\n".join(repr(row) for sheet in book.worksheets for row in sheet.iter_rows(values_only=True))
