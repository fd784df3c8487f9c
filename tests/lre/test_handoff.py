"""A turn hands a step over too many items to LRE, and the job finishes the plan."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl
import pytest

from apps.accounts.models import User
from apps.lre.engine import job_advance
from apps.lre.models import LreJob
from apps.runtime.models import StepRecord, TraceEvent, Turn
from apps.runtime.turns import turn_conduct, turn_submit
from tests.lre.test_engine import QUOTES_PLAN, write_quotes

pytestmark = pytest.mark.django_db


def test_a_step_over_more_items_than_the_threshold_continues_as_a_job(owner: User, root: Path, settings: Any) -> None:
    settings.METNOS_LRE_HANDOFF_ITEMS = 5
    settings.METNOS_LRE_BATCH_SIZE = 3
    write_quotes(root / "Quotes", 7)

    turn = turn_conduct(turn=turn_submit(owner=owner, text="read every quote", plan=QUOTES_PLAN, enqueue=False))

    assert turn.status == Turn.Status.HANDED_OFF, turn.answer
    job = LreJob.objects.get(turn=turn)
    assert f"long-running job {job.pk}" in turn.answer and "7 items" in turn.answer
    # The producer ran in the turn; nothing after it did, nor is anything reported done.
    assert list(StepRecord.objects.filter(turn=turn).values_list("index", "outcome")) == [(1, "success")]
    assert "turn.handed_off" in TraceEvent.objects.filter(turn=turn).values_list("kind", flat=True)
    assert not (root / "Quotes" / "summary.xlsx").exists()

    job = job_advance(job_id=job.pk)
    assert job.status == LreJob.Status.COMPLETED
    sheet = openpyxl.load_workbook(root / "Quotes" / "summary.xlsx").active
    assert sheet is not None and sheet.max_row == 1 + 7


def test_below_the_threshold_the_turn_does_the_work_itself(owner: User, root: Path, settings: Any) -> None:
    settings.METNOS_LRE_HANDOFF_ITEMS = 50
    write_quotes(root / "Quotes", 7)
    turn = turn_conduct(turn=turn_submit(owner=owner, text="read every quote", plan=QUOTES_PLAN, enqueue=False))
    assert turn.status == Turn.Status.COMPLETED, turn.answer
    assert not LreJob.objects.exists()


def test_a_disabled_engine_keeps_the_work_in_the_turn(owner: User, root: Path, settings: Any) -> None:
    settings.METNOS_LRE_HANDOFF_ITEMS = 5
    settings.METNOS_LRE_ENABLED = False
    write_quotes(root / "Quotes", 7)
    turn = turn_conduct(turn=turn_submit(owner=owner, text="read every quote", plan=QUOTES_PLAN, enqueue=False))
    assert turn.status == Turn.Status.COMPLETED and not LreJob.objects.exists()
