"""Admission at the invocation boundary: a disabled executor or an inactive owner runs nothing."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from apps.accounts.models import User
from apps.runtime.executor import ExecutionContext, StepResult, build_catalog, registered_executors
from apps.runtime.manifests import Manifest, ResultShape
from apps.runtime.models import StepRecord, TraceEvent, Turn
from apps.runtime.turns import turn_conduct, turn_submit

pytestmark = pytest.mark.django_db


class RecordingWriter:
    """An executor with an effect we can see: it records every call."""

    manifest = Manifest(
        name="record_call", purpose="Record that it ran.", args={}, result=ResultShape(kind="none"),
        capabilities=frozenset({"files.write"}),
    )  # fmt: skip

    def __init__(self) -> None:
        self.calls: list[Mapping[str, Any]] = []

    def run(self, context: ExecutionContext, args: Mapping[str, Any]) -> StepResult:
        self.calls.append(args)
        return StepResult(outcome="success", summary="recorded")


def _conduct_with(owner: User) -> tuple[Turn, RecordingWriter]:
    writer = RecordingWriter()
    # The catalog was built while the executor was admitted: the boundary must check again.
    catalog = build_catalog({**registered_executors(), "record_call": writer})
    turn = turn_submit(owner=owner, text="", plan={"steps": [{"tool": "record_call", "args": {}}]}, enqueue=False)
    return turn_conduct(turn=turn, catalog=catalog), writer


def _refusals(turn: Turn) -> list[Any]:
    return [event.data for event in TraceEvent.objects.filter(turn=turn, kind="control.refused")]


def _assert_nothing_ran(turn: Turn, writer: RecordingWriter) -> None:
    assert writer.calls == []
    assert turn.status == Turn.Status.FAILED
    assert "record_call is not available to you" in turn.answer
    assert _refusals(turn) == [{"step": 1, "tool": "record_call", "reason": "not_admitted"}]
    outcomes = list(StepRecord.objects.filter(turn=turn).values_list("outcome", flat=True))
    assert outcomes == [StepRecord.Outcome.SKIPPED]


def test_the_recording_executor_runs_when_admitted(owner: User) -> None:
    turn, writer = _conduct_with(owner)
    assert turn.status == Turn.Status.COMPLETED, turn.answer
    assert len(writer.calls) == 1


def test_an_executor_disabled_by_the_operator_is_not_admitted(owner: User, settings: Any) -> None:
    settings.METNOS_DISABLED_EXECUTORS = ["record_call"]
    turn, writer = _conduct_with(owner)
    _assert_nothing_ran(turn, writer)


def test_an_inactive_owner_has_no_executor_admitted(owner: User) -> None:
    owner.is_active = False
    owner.save(update_fields=["is_active"])
    turn, writer = _conduct_with(owner)
    _assert_nothing_ran(turn, writer)


def test_an_executor_withdrawn_from_one_user_is_not_admitted_for_that_user_only(owner: User, second_user: User) -> None:
    owner.disabled_executors = ["record_call"]
    owner.save(update_fields=["disabled_executors"])
    turn, writer = _conduct_with(owner)
    _assert_nothing_ran(turn, writer)
    other, other_writer = _conduct_with(second_user)
    assert other.status == Turn.Status.COMPLETED, other.answer
    assert len(other_writer.calls) == 1
