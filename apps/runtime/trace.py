"""Recording what a turn did (trace, steps) and telling the user's browsers live.

The trace holds structure — chosen path, steps, controls, timings, outcomes,
undo receipts — in ``data``, and anything that may be personal in
``content``. Nothing recorded here may contain a secret: callers pass values
through :mod:`apps.core.redaction` with the turn's known secrets before they
are stored or sent.
"""

from __future__ import annotations

import contextvars
import json
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max

from apps.core.events import TurnEvent
from apps.runtime.event_sender import send_in_order
from apps.runtime.models import TraceEvent, Turn

MAX_PREVIEW_CHARS = 2000


def preview(value: Any, *, limit: int = MAX_PREVIEW_CHARS) -> Any:
    """A JSON-safe, explicitly truncated preview of a value for records."""
    text = json.dumps(value, default=str, ensure_ascii=False)
    if len(text) <= limit:
        return json.loads(text)
    return {"truncated": True, "preview": text[:limit], "total_chars": len(text)}


class _Unwritten:
    """What was recorded about a turn in memory and is not in the database yet."""

    def __init__(self) -> None:
        self.fields: set[str] = set()
        self.trace: list[TraceEvent] = []
        self.holding = False  # inside turn_recording: trace entries wait for turn_write
        self.next_sequence: int | None = None  # None: look at the table before numbering


def _unwritten(turn: Turn) -> _Unwritten:
    unwritten: _Unwritten | None = turn.__dict__.get("_metnos_unwritten")
    if unwritten is None:
        unwritten = turn.__dict__["_metnos_unwritten"] = _Unwritten()
    return unwritten


@contextmanager
def turn_recording(turn: Turn, *, trace_is_empty: bool = False) -> Iterator[None]:
    """Hold the turn's trace entries and changed fields in memory while it is conducted.

    :func:`turn_write` writes them, with whatever else it is given, in one
    transaction: the boundary does so with the step record before an executor
    runs and again with its result, the conductor when the turn stops or ends.
    So everything about a step that started is in the database before its
    effect can happen; a killed process loses at most entries about planning
    since the last write, and the turn is still found and ended truthfully
    (``turns_reconcile_interrupted``). Whatever is still held when the block
    ends is written then.

    ``trace_is_empty`` lets the conductor of a turn that never ran number its
    entries without looking at the table; if someone wrote meanwhile, the
    unique sequence makes the write fail and the entries are renumbered.
    """
    unwritten = _unwritten(turn)
    unwritten.holding = True
    if trace_is_empty and unwritten.next_sequence is None:
        unwritten.next_sequence = 1
    try:
        yield
    finally:
        unwritten.holding = False
        if unwritten.fields or unwritten.trace:
            turn_write(turn)


@contextmanager
def turn_written_at_once(turn: Turn) -> Iterator[None]:
    """While the block runs (an executor), entries about ``turn`` are written as they are recorded.

    An executor may record entries and then wait (for the user's answer, say):
    nothing it records is held back behind its own end.
    """
    unwritten = _unwritten(turn)
    holding, unwritten.holding = unwritten.holding, False
    if unwritten.fields or unwritten.trace:
        turn_write(turn)
    try:
        yield
    finally:
        unwritten.holding = holding


def turn_changed(turn: Turn, *fields: str) -> None:
    """Note fields of ``turn`` changed in memory; the turn's next :func:`turn_write` writes them."""
    _unwritten(turn).fields.update(fields)


def turn_write(turn: Turn, *fields: str) -> None:
    """Write ``fields``, the fields noted changed and the held trace entries, in one transaction.

    Inside a transaction already open it joins it, so a caller can add its own
    rows (a step record, a consumed approval) to the same commit.
    """
    unwritten = _unwritten(turn)
    names = sorted(unwritten.fields.union(fields))
    if names:
        with transaction.atomic(savepoint=False):
            # An update of the named columns: save() would do the same with more work on every step.
            Turn.objects.filter(pk=turn.pk).update(**{name: getattr(turn, name) for name in names})
            if unwritten.trace:
                _write_trace(turn, unwritten)
    elif unwritten.trace:
        _write_trace(turn, unwritten)
    unwritten.fields.clear()
    unwritten.trace.clear()


def _write_trace(turn: Turn, unwritten: _Unwritten) -> None:
    entries = unwritten.trace
    try:
        with transaction.atomic():
            _number(turn, unwritten, entries)
            TraceEvent.objects.bulk_create(entries)
    except IntegrityError:
        # Someone else wrote to this trace meanwhile (an undo receipt, a
        # decision in the web process): number after what is there, once.
        unwritten.next_sequence = None
        _number(turn, unwritten, entries)
        TraceEvent.objects.bulk_create(entries)


def _number(turn: Turn, unwritten: _Unwritten, entries: list[TraceEvent]) -> None:
    # One process conducts a turn at a time (turns are claimed), so the next
    # number is kept in memory after one look at the table.
    first = unwritten.next_sequence
    if first is None:
        first = (TraceEvent.objects.filter(turn=turn).aggregate(last=Max("sequence"))["last"] or 0) + 1
    for offset, entry in enumerate(entries):
        entry.sequence = first + offset
    unwritten.next_sequence = first + len(entries)


def trace_record(turn: Turn, kind: str, data: Mapping[str, Any] | None = None, content: Any = None) -> TraceEvent:
    """Append one trace entry (sequence numbers are per turn, increasing, without gaps).

    While the turn is conducted (:func:`turn_recording`) the entry is held
    until the turn's next :func:`turn_write`; otherwise it is written at once.
    """
    entry = TraceEvent(
        owner_id=turn.owner_id,
        turn=turn,
        kind=kind,
        data=dict(data or {}),
        content={"value": content} if content is not None else {},
    )
    unwritten = _unwritten(turn)
    unwritten.trace.append(entry)
    if not unwritten.holding:
        turn_write(turn)
    return entry


_observers: contextvars.ContextVar[tuple[Callable[[TurnEvent], None], ...]] = contextvars.ContextVar(
    "turn_observers", default=()
)


@contextmanager
def observe_turn_events(observer: Callable[[TurnEvent], None]) -> Iterator[None]:
    """Also hand every turn event of this context to ``observer`` (the operator CLI prints them)."""
    token = _observers.set((*_observers.get(), observer))
    try:
        yield
    finally:
        _observers.reset(token)


def turn_publish(turn: Turn, event: TurnEvent) -> None:
    """Send a turn event to the owner's browsers once the current transaction commits.

    The event is queued, not awaited (``event_sender``): the turn goes on
    while the events reach the browsers in the order they happened.
    """
    payload: TurnEvent = {**event, "turn_id": turn.pk, "conversation_id": turn.conversation_id}
    for observer in _observers.get():
        observer(payload)
    owner_id = turn.owner_id
    transaction.on_commit(lambda: send_in_order(owner_id, payload))
