"""``metnos ask`` exits 3 for partial work and 5 for a hand-off; ``metnos plan`` runs a valid plan file."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from django.core.management import call_command

from apps.accounts.models import User
from apps.lre.models import LreJob
from apps.runtime.models import Turn
from tests.lre.test_engine import QUOTES_PLAN, write_quotes

pytestmark = pytest.mark.django_db

EXTRACT_REQUEST = "extract the supplier and price from the quotes in the Quotes folder into summary.xlsx"


def _metnos(*args: str) -> tuple[int, list[dict[str, Any]]]:
    """Run ``metnos`` and return its exit code and the JSON lines it printed."""
    out = StringIO()
    try:
        call_command("metnos", *args, stdout=out)
        code = 0
    except SystemExit as exited:
        code = int(exited.code or 0)
    return code, [json.loads(line) for line in out.getvalue().splitlines() if line.strip()]


def test_ask_exits_3_when_the_work_is_partial(owner: User, root: Path) -> None:
    write_quotes(root / "Quotes", 2)
    (root / "Quotes" / "summary.xlsx").write_bytes(b"mine")  # the last step refuses to overwrite it

    code, lines = _metnos("ask", "--user", owner.username, EXTRACT_REQUEST)

    assert lines[-1]["status"] == Turn.Status.PARTIAL, lines[-1]["answer"]
    assert code == 3
    assert (root / "Quotes" / "summary.xlsx").read_bytes() == b"mine"


def test_ask_exits_5_when_the_work_is_handed_off(owner: User, root: Path, settings: Any) -> None:
    settings.METNOS_LRE_HANDOFF_ITEMS = 5
    write_quotes(root / "Quotes", 7)

    code, lines = _metnos("ask", "--user", owner.username, EXTRACT_REQUEST)

    assert lines[-1]["status"] == Turn.Status.HANDED_OFF, lines[-1]["answer"]
    assert code == 5
    assert LreJob.objects.filter(turn_id=lines[-1]["turn"]).exists()
    assert not (root / "Quotes" / "summary.xlsx").exists()


def test_plan_validates_and_runs_a_plan_file(owner: User, root: Path, tmp_path: Path) -> None:
    write_quotes(root / "Quotes", 3)
    plan_file = tmp_path / "plan.json"
    plan_file.write_text(json.dumps(QUOTES_PLAN), encoding="utf-8")

    code, lines = _metnos("plan", "--user", owner.username, str(plan_file))

    assert code == 0
    assert lines[0]["type"] == "turn.started"
    finished = [line["tool"] for line in lines if line.get("type") == "turn.step_finished"]
    assert finished == [step["tool"] for step in QUOTES_PLAN["steps"]]
    assert lines[-1]["status"] == Turn.Status.COMPLETED and lines[-1]["path"] == Turn.Path.PLAN
    sheet = openpyxl.load_workbook(root / "Quotes" / "summary.xlsx").active
    assert sheet is not None and sheet.max_row == 1 + 3
