"""A built-in Italian request form, end to end with no model: the three quotes in an Italian folder."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import openpyxl
import pytest

from apps.accounts.models import User
from apps.runtime.models import StepRecord, Turn
from apps.runtime.turns import turn_conduct, turn_submit
from tests.runtime.conftest import owner_folder
from tests.runtime.quotes import QUOTES, write_quotes

pytestmark = pytest.mark.django_db

RICHIESTA = "Leggi i tre preventivi nella cartella Acquisti, confronta i loro prezzi e crea una tabella riassuntiva."


def test_italian_summary_request_runs_through_its_request_form(owner: User, files_root: Path) -> None:
    acquisti = owner_folder(files_root, owner, "Acquisti")
    write_quotes(acquisti)

    turn = turn_conduct(turn=turn_submit(owner=owner, text=RICHIESTA, enqueue=False))

    assert turn.status == Turn.Status.COMPLETED, turn.answer
    assert turn.path == Turn.Path.PROPOSAL
    assert turn.plan is not None
    steps = turn.plan["steps"]
    assert [step["tool"] for step in steps] == [
        "find_files",
        "read_files",
        "extract_entries",
        "create_files_spreadsheet",
    ]
    assert steps[0]["args"]["base_path"] == "~/Acquisti"
    assert steps[2]["args"]["fields"] == ["fornitore", "prezzo"]
    outcomes = set(StepRecord.objects.filter(turn=turn).values_list("outcome", flat=True))
    assert outcomes == {StepRecord.Outcome.SUCCESS}
    sheet = openpyxl.load_workbook(acquisti / "riepilogo.xlsx").active
    assert sheet is not None
    rows = list(sheet.iter_rows(values_only=True))
    header = list(rows[0])
    supplier, price = header.index("fornitore"), header.index("prezzo")
    found = {str(row[supplier]): Decimal(str(row[price])) for row in rows[1:]}
    assert found == {quote.supplier: quote.total for quote in QUOTES}
