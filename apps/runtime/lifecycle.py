"""The turn's lifecycle: the one owner of a turn's state.

A turn's state — its ``status``, with the ``answer`` it stopped or ended
with, ``started_at``, ``finished_at`` and ``conducted_by`` — changes only
here; ``tests/test_house_rules.py`` fails on a write anywhere else. Every
change is one :func:`turn_transition`:

- **compare-and-set**: it applies only while the status is still one the
  caller expected, and only a change :data:`TRANSITIONS` lists;
- **recorded**: in the same transaction as the change, its trace entries
  (``turn.finished`` for every end) and whatever the conductor's
  :class:`~apps.runtime.trace.TurnRecorder` holds;
- **announced**: after commit, ``turn.started`` when a turn starts,
  ``turn.finished`` when it ends — whoever ends it, a batch of long-running
  work included — or the caller's event.

A transition that lost a race (the status moved meanwhile) records and
announces nothing, and the caller's turn reads the state that won.

The services other modules and apps call, each one transition:

==============================  ======================================  =================================
service                         from                                    to
==============================  ======================================  =================================
``turn_claim``, ``turn_start``  queued                                  running
``turn_suspend_for_input``      running                                 awaiting_input
``turn_resume_after_input``     awaiting_input                          running
``turn_await_confirmation``     running, awaiting_input                 awaiting_confirmation
``turn_finish``                 running, awaiting_input                 completed, partial, failed,
                                                                        handed_off
``turn_interrupt``              running, awaiting_input                 interrupted
``turn_decline``                awaiting_confirmation                   declined
``turn_hand_off``               awaiting_confirmation                   handed_off
``turn_batch_create``           (a new turn)                            running
``turn_batch_finish``           running, awaiting_input                 completed, partial, failed
==============================  ======================================  =================================
"""

from __future__ import annotations

import functools
import os
import socket
from collections.abc import Collection, Mapping, Sequence
from typing import Any, Final

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from apps.core.compiled import read_by_pk, update_where
from apps.core.events import TurnEvent
from apps.runtime.executor import StepResult
from apps.runtime.models import ConsentRequest, Turn
from apps.runtime.trace import TURN_STATE_FIELDS, TurnRecorder, turn_publish

Status = Turn.Status

FINISHED: Final = frozenset(
    {Status.COMPLETED, Status.PARTIAL, Status.FAILED, Status.HANDED_OFF, Status.DECLINED, Status.INTERRUPTED}
)
# The conducting process holds its turn while it runs and while a step waits for the user.
CONDUCTED: Final = (Status.RUNNING, Status.AWAITING_INPUT)
_CONDUCT_STOPS: Final = frozenset(
    {Status.AWAITING_CONFIRMATION, Status.COMPLETED, Status.PARTIAL, Status.FAILED, Status.HANDED_OFF,
     Status.INTERRUPTED}
)  # fmt: skip
# Every change of a turn's status there is: from → the statuses it may go to.
TRANSITIONS: Final[Mapping[str, frozenset[str]]] = {
    Status.QUEUED: frozenset({Status.RUNNING}),
    Status.RUNNING: _CONDUCT_STOPS | {Status.AWAITING_INPUT},
    Status.AWAITING_INPUT: _CONDUCT_STOPS | {Status.RUNNING},
    Status.AWAITING_CONFIRMATION: frozenset({Status.DECLINED, Status.HANDED_OFF}),
}

TraceEntries = Sequence[tuple[str, Mapping[str, Any]]]


class TransitionNotAllowed(ValueError):
    """A change of state :data:`TRANSITIONS` does not list: a mistake in the code, never a race."""


def conductor_identity() -> str:
    """``host:pid`` of this process, recorded on the turns it conducts (see ``turns_reconcile_interrupted``)."""
    return _identity(os.getpid())  # a forked child is another conductor


@functools.lru_cache(maxsize=4)
def _identity(pid: int) -> str:
    return f"{socket.gethostname()}:{pid}"


def _check(sources: Collection[str], to: str) -> None:
    for source in sources:
        if to not in TRANSITIONS.get(source, ()):
            raise TransitionNotAllowed(f"A turn does not go from {source} to {to}.")


def _state_values(sources: Collection[str], to: str, answer: str | None) -> dict[str, Any]:
    """The state fields a transition to ``to`` writes besides the status."""
    values: dict[str, Any] = {}
    if answer is not None:
        values["answer"] = answer
    if to in FINISHED:
        values["finished_at"] = timezone.now()
    if to == Status.RUNNING and Status.QUEUED in sources:
        values.update(started_at=timezone.now(), conducted_by=conductor_identity())
    return values


def _compare_and_set(turn_id: int, sources: Collection[str], to: str, values: Mapping[str, Any], **match: Any) -> bool:
    if len(sources) == 1 and None not in values.values():
        # The claim and most transitions: compiled once (apps/core/compiled.py), run on every turn.
        (source,) = sources
        where = {"pk": turn_id, "status": source, **match}
        return update_where(Turn, where=where, values={"status": to, **values}) == 1
    return Turn.objects.filter(pk=turn_id, status__in=list(sources), **match).update(status=to, **values) == 1


def _announcement(turn: Turn, sources: Collection[str], to: str) -> TurnEvent | None:
    if to in FINISHED:
        return {"type": "turn.finished", "status": to, "answer": turn.answer}
    if to == Status.RUNNING and Status.QUEUED in sources:
        return {"type": "turn.started", "path": turn.path, "request": turn.request_text}
    return None


def turn_transition(
    *,
    turn: Turn,
    to: str,
    expected: str | Collection[str],
    answer: str | None = None,
    recorder: TurnRecorder | None = None,
    trace: TraceEntries = (),
    event: TurnEvent | None = None,
) -> bool:
    """Move ``turn`` to ``to`` if its status is still one of ``expected``; whether it moved.

    One transaction writes the new state, then — only when it applied — the
    ``trace`` entries (and ``turn.finished`` for an end), together with what
    ``recorder`` (the conductor's, when it holds the turn) still holds. After
    commit it announces ``turn.started`` or ``turn.finished`` for those
    transitions, else ``event``. When it did not apply, nothing of it is
    recorded or announced and the state fields of ``turn`` are read again.
    """
    sources = (expected,) if isinstance(expected, str) else tuple(expected)
    _check(sources, to)  # before the transaction: a mistake in the code leaves it untouched
    recorder = recorder or TurnRecorder(turn)
    if recorder.turn is not turn:
        raise ValueError("The recorder records another turn.")
    values = _state_values(sources, to, answer)
    with recorder.holding(), transaction.atomic(savepoint=False):
        applied = _compare_and_set(turn.pk, sources, to, values)
        if applied:
            turn.status = to
            for name, value in values.items():
                setattr(turn, name, value)
            for kind, data in trace:
                recorder.record(kind, data)
            if to in FINISHED:
                recorder.record("turn.finished", {"status": to})
        recorder.write()
        announced = _announcement(turn, sources, to) or event
        if applied and announced is not None:
            turn_publish(turn, announced)
    if not applied:
        turn.refresh_from_db(fields=sorted(TURN_STATE_FIELDS))
    return applied


# --- starting ---------------------------------------------------------------------------


def turn_claim(*, turn_id: int, owner_id: int) -> Turn | None:
    """Take a queued turn of ``owner_id`` for conducting and read it; None if another delivery already took it.

    The claim is a conditional update (queued → running), so a turn delivered
    twice is conducted once. It also says who conducts and since when, so a
    turn whose process dies at any point after it is found and ended
    truthfully. The turn is read with its owner, whom the conductor needs at
    once (admission, the step's context).
    """
    sources, to = (Status.QUEUED,), Status.RUNNING
    _check(sources, to)
    if not _compare_and_set(turn_id, sources, to, _state_values(sources, to, None), owner_id=owner_id):
        return None
    # Read with the SQL the ORM compiled once (apps/core/compiled.py): compiling costs more than the read.
    turn = read_by_pk(Turn, turn_id)
    owner = read_by_pk(get_user_model(), owner_id)
    if turn is None or owner is None:  # deleted between the claim and the read
        return None
    turn.owner = owner
    announced = _announcement(turn, sources, to)
    if announced is not None:
        turn_publish(turn, announced)
    return turn


def turn_start(*, turn: Turn) -> bool:
    """Start a queued turn conducted without a claim (the operator CLI conducts inline); False if not queued."""
    return turn_transition(turn=turn, to=Status.RUNNING, expected=Status.QUEUED)


# --- while it runs -----------------------------------------------------------------------


def turn_suspend_for_input(*, turn: Turn, recorder: TurnRecorder | None = None) -> bool:
    """A step waits for the person (a question, the verification panel): running → awaiting_input."""
    return turn_transition(turn=turn, to=Status.AWAITING_INPUT, expected=Status.RUNNING, recorder=recorder)


def turn_resume_after_input(*, turn: Turn, recorder: TurnRecorder | None = None) -> bool:
    """The step works again after the person answered or the wait ended: awaiting_input → running."""
    return turn_transition(turn=turn, to=Status.RUNNING, expected=Status.AWAITING_INPUT, recorder=recorder)


def turn_await_confirmation(*, recorder: TurnRecorder, consent: ConsentRequest) -> bool:
    """The conductor stops before a step that needs ``consent``; the user's decision continues it."""
    return turn_transition(
        turn=recorder.turn,
        to=Status.AWAITING_CONFIRMATION,
        expected=CONDUCTED,
        answer="Waiting for your confirmation before: " + str(consent.proposal.get("action", "")),
        recorder=recorder,
        event={"type": "turn.confirmation_requested", "step": consent.step_index, "consent_id": consent.pk,
               "proposal": dict(consent.proposal)},
    )  # fmt: skip


# --- ending ---------------------------------------------------------------------------


def turn_finish(*, turn: Turn, status: str, answer: str, recorder: TurnRecorder | None = None) -> bool:
    """The conductor ends its turn with ``status`` and ``answer`` (``turn.finished`` is recorded and published)."""
    if status not in FINISHED:
        raise TransitionNotAllowed(f"{status} does not end a turn.")
    return turn_transition(turn=turn, to=status, expected=CONDUCTED, answer=answer, recorder=recorder)


def turn_interrupt(*, turn: Turn, answer: str, recorder: TurnRecorder | None = None) -> bool:
    """End a turn whose conducting process died: interrupted, never a success it did not observe."""
    return turn_transition(turn=turn, to=Status.INTERRUPTED, expected=CONDUCTED, answer=answer, recorder=recorder)


def turn_decline(*, turn: Turn, answer: str, trace: TraceEntries = ()) -> bool:
    """A confirmation was declined or expired: the turn ends declined, nothing done for that step."""
    return turn_transition(
        turn=turn, to=Status.DECLINED, expected=Status.AWAITING_CONFIRMATION, answer=answer, trace=trace
    )


def turn_hand_off(*, turn: Turn, answer: str, trace: TraceEntries = ()) -> bool:
    """A confirmation was given: the turn ends handed off to the resumed turn that continues its plan."""
    return turn_transition(
        turn=turn, to=Status.HANDED_OFF, expected=Status.AWAITING_CONFIRMATION, answer=answer, trace=trace
    )


# --- the turns of long-running work -----------------------------------------------------


def turn_batch_create(*, handed_off_by: Turn, request_text: str, plan: Mapping[str, Any]) -> Turn:
    """A running turn that records one batch of long-running work, linked to the turn that handed it off.

    It runs ``plan``'s step for the batch through the invocation boundary like
    any step, and ends through :func:`turn_batch_finish`.
    """
    now = timezone.now()
    turn = Turn.objects.create(
        owner_id=handed_off_by.owner_id,
        conversation_id=handed_off_by.conversation_id,
        request_text=request_text[:4000],
        status=Status.RUNNING,
        path=Turn.Path.PLAN,
        plan=dict(plan),
        plan_digest=handed_off_by.plan_digest,
        catalog_signature=handed_off_by.catalog_signature,
        resumed_from=handed_off_by,
        started_at=now,
        conducted_by=conductor_identity(),
    )
    turn_publish(turn, {"type": "turn.started", "path": turn.path, "request": turn.request_text})
    return turn


def turn_batch_finish(*, turn: Turn, result: StepResult, recorder: TurnRecorder | None = None) -> bool:
    """End a batch's turn from its step's result, as any turn ends (``turn.finished`` recorded and published)."""
    status = {"partial": Status.PARTIAL, "failed": Status.FAILED}.get(result.outcome, Status.COMPLETED)
    return turn_finish(turn=turn, status=status, answer=result.summary[:4000], recorder=recorder)
