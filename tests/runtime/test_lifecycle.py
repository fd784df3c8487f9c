"""The turn's lifecycle: compare-and-set transitions, recorded and announced; the recorder's one gapless trace."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any

import pytest
from django.db import connection

from apps.accounts.models import User
from apps.runtime.executor import ExecutionContext, StepResult, build_catalog
from apps.runtime.lifecycle import (
    FINISHED,
    TRANSITIONS,
    TransitionNotAllowed,
    turn_finish,
    turn_interrupt,
    turn_start,
    turn_transition,
)
from apps.runtime.models import Conversation, TraceEvent, Turn
from apps.runtime.trace import TurnRecorder, observe_turn_events, trace_record
from apps.runtime.turns import turn_conduct, turn_submit
from tests.runtime.test_turns import _WitnessExecutor


def _running(owner: User) -> Turn:
    turn = turn_submit(owner=owner, text="check the status of the backup service", enqueue=False)
    assert turn_start(turn=turn)
    return turn


def _kinds(turn: Turn) -> list[tuple[int, str]]:
    return list(TraceEvent.objects.filter(turn=turn).order_by("sequence").values_list("sequence", "kind"))


def test_every_status_is_reachable_and_every_end_is_final() -> None:
    reached = {to for targets in TRANSITIONS.values() for to in targets}
    assert reached | {Turn.Status.QUEUED} == set(Turn.Status)
    assert not FINISHED & set(TRANSITIONS)  # nothing leaves an end


@pytest.mark.django_db
def test_a_change_the_table_does_not_list_is_refused_before_anything_is_written(owner: User) -> None:
    turn = turn_submit(owner=owner, text="hello", enqueue=False)
    with pytest.raises(TransitionNotAllowed):
        turn_transition(turn=turn, to=Turn.Status.COMPLETED, expected=Turn.Status.QUEUED)
    with pytest.raises(TransitionNotAllowed):
        turn_finish(turn=turn, status=Turn.Status.AWAITING_INPUT, answer="")
    assert Turn.objects.get(pk=turn.pk).status == Turn.Status.QUEUED
    assert _kinds(turn) == []


@pytest.mark.django_db
def test_an_end_is_recorded_and_announced_once_by_whoever_ends_the_turn_first(owner: User) -> None:
    turn = _running(owner)
    stale = Turn.objects.get(pk=turn.pk)  # what another process holds
    seen: list[dict[str, Any]] = []
    with observe_turn_events(lambda event: seen.append(dict(event))):
        assert turn_interrupt(turn=turn, answer="Stopped.")
        assert not turn_finish(turn=stale, status=Turn.Status.COMPLETED, answer="All done.")
    # The loser recorded and announced nothing, and now reads the state that won.
    assert (stale.status, stale.answer) == (Turn.Status.INTERRUPTED, "Stopped.")
    assert _kinds(turn) == [(1, "turn.finished")]
    assert [(event["type"], event["status"]) for event in seen] == [("turn.finished", "interrupted")]


@pytest.mark.django_db
def test_a_turn_that_is_not_queued_is_never_conducted(owner: User) -> None:
    turn = _running(owner)
    assert turn_interrupt(turn=turn, answer="Stopped.")
    conducted = turn_conduct(turn=Turn.objects.get(pk=turn.pk))
    assert conducted.status == Turn.Status.INTERRUPTED
    assert _kinds(turn) == [(1, "turn.finished")]


class _EndedMeanwhile:
    """Test executor: while it runs, the turn is found stale and ended by someone else (the reconciliation)."""

    manifest = _WitnessExecutor.manifest

    def run(self, context: ExecutionContext, args: Mapping[str, Any]) -> StepResult:
        assert turn_interrupt(turn=Turn.objects.get(pk=context.turn_id or 0), answer="Found stopped.")
        return StepResult(outcome="success", value={"status": "ok"}, summary="ok")


@pytest.mark.django_db
def test_the_conductor_does_not_overwrite_an_end_recorded_meanwhile(owner: User) -> None:
    plan = {"steps": [{"tool": "check_service", "args": {"service": "backup"}}]}
    turn = turn_submit(owner=owner, text="", plan=plan, enqueue=False)
    catalog = build_catalog({"check_service": _EndedMeanwhile()})
    turn = turn_conduct(turn=turn, catalog=catalog)
    assert (turn.status, turn.answer) == (Turn.Status.INTERRUPTED, "Found stopped.")
    kinds = [kind for _, kind in _kinds(turn)]
    assert kinds == ["path.chosen", "plan.accepted", "step.started", "turn.finished", "step.finished"]


@pytest.mark.django_db
def test_the_recorder_leaves_the_turns_state_to_the_lifecycle(owner: User) -> None:
    recorder = TurnRecorder(turn_submit(owner=owner, text="hello", enqueue=False))
    for field in ("status", "answer", "finished_at", "started_at", "conducted_by"):
        with pytest.raises(ValueError, match="lifecycle"):
            recorder.changed(field)


@pytest.mark.django_db(transaction=True)
def test_writers_in_other_threads_continue_one_gapless_trace(owner: User) -> None:
    conversation = Conversation.objects.create(owner=owner)
    turn = Turn.objects.create(owner=owner, conversation=conversation, request_text="hello")
    recorder = TurnRecorder(turn)
    start = threading.Barrier(5)
    failures: list[BaseException] = []

    def writer(number: int) -> None:
        try:
            start.wait(timeout=10)
            for entry in range(5):
                trace_record(Turn.objects.get(pk=turn.pk), "note", {"writer": number, "entry": entry})
        except BaseException as error:  # noqa: BLE001 - reported by the assertion below
            failures.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=writer, args=(number,)) for number in range(4)]
    for thread in threads:
        thread.start()
    with recorder.holding():
        start.wait(timeout=10)
        for entry in range(5):
            recorder.record("held", {"entry": entry})
            recorder.write()  # what the boundary does before and after each step
    for thread in threads:
        thread.join(timeout=60)
    assert failures == []
    sequences = [sequence for sequence, _ in _kinds(turn)]
    assert sequences == list(range(1, 26))
    held = list(TraceEvent.objects.filter(turn=turn, kind="held").order_by("sequence").values_list("data", flat=True))
    assert [data["entry"] for data in held] == list(range(5))  # the recorder's own entries keep their order
