"""The resume rule's refusals: each said plainly, and nothing of the suspended plan runs again."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path

import pytest

from apps.accounts.models import User
from apps.runtime.models import StepRecord, Turn
from apps.runtime.paths.resume import RESUMABLE_FOR, turn_resumption_create
from tests.lre.test_engine import write_quotes
from tests.runtime.test_resume import interrupted_at, say

pytestmark = pytest.mark.django_db


def _expire(suspended: Turn) -> None:
    Turn.objects.filter(pk=suspended.pk).update(
        created_at=suspended.created_at - RESUMABLE_FOR - dt.timedelta(minutes=1)
    )


def _resume_elsewhere(suspended: Turn) -> None:
    # Resumed already (by a confirmation or a panel), in a turn older than the request that asks again.
    linked = turn_resumption_create(turn=suspended)
    Turn.objects.filter(pk=linked.pk).update(created_at=suspended.created_at - dt.timedelta(seconds=1))


def _change_catalog(suspended: Turn) -> None:
    Turn.objects.filter(pk=suspended.pk).update(catalog_signature="0" * 32)


def _fail_permanently(suspended: Turn) -> None:
    StepRecord.objects.filter(turn=suspended, outcome=StepRecord.Outcome.FAILED).update(
        error_class="permanent", error_code="unreadable"
    )


@pytest.mark.parametrize(
    ("change", "refusal"),
    [
        (_expire, "too old to resume"),
        (_resume_elsewhere, "already resumed"),
        (_change_catalog, "capabilities changed since that request"),
        (_fail_permanently, "Step 2 (read_files) would fail the same way again"),
    ],
    ids=["expired", "already-resumed", "changed-catalog", "permanent-error"],
)
def test_a_resumption_that_no_longer_holds_is_refused_and_runs_nothing(
    owner: User, root: Path, change: Callable[[Turn], None], refusal: str
) -> None:
    write_quotes(root / "Quotes", 2)
    suspended = interrupted_at(owner, step=2)
    records_before = list(StepRecord.objects.filter(turn=suspended).values_list("index", "outcome", "finished_at"))
    change(suspended)

    turn = say(owner, "continue", suspended.conversation)

    assert turn.status == Turn.Status.FAILED
    assert refusal in turn.answer
    assert turn.resumed_from_id is None
    assert not StepRecord.objects.filter(turn=turn).exists()
    assert list(StepRecord.objects.filter(turn=suspended).values_list("index", "outcome", "finished_at")) == (
        records_before
    )
    assert not (root / "Quotes" / "summary.xlsx").exists()
