"""Recording what a turn did (trace, steps) and telling the user's browsers live.

The trace holds structure — chosen path, steps, controls, timings, outcomes,
undo receipts — in ``data``, and anything that may be personal in
``content``. Nothing recorded here may contain a secret: callers pass values
through :mod:`apps.core.redaction` with the turn's known secrets before they
are stored or sent.

A conducted turn is recorded through its :class:`TurnRecorder`, which the
conductor creates, holds and passes on (to the boundary, recovery, the
lifecycle). Anyone else writes an entry at once with :func:`trace_record`.
Either way an entry's sequence is taken when it is written, inside the
writing transaction and under the turn's row lock, so writers in other
threads or processes (an undo receipt, a decision in the web process)
continue the same gapless trace instead of colliding with it.
"""

from __future__ import annotations

import contextvars
import functools
import json
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, Final

from django.db import connections, router, transaction

from apps.core.events import TurnEvent
from apps.runtime.event_sender import send_in_order
from apps.runtime.models import TraceEvent, Turn

MAX_PREVIEW_CHARS = 2000
# The turn's state: written only by its lifecycle (apps/runtime/lifecycle.py), never by a recorder.
TURN_STATE_FIELDS: Final = frozenset({"status", "answer", "started_at", "finished_at", "conducted_by"})


def preview(value: Any, *, limit: int = MAX_PREVIEW_CHARS) -> Any:
    """A JSON-safe, explicitly truncated preview of a value for records."""
    text = json.dumps(value, default=str, ensure_ascii=False)
    if len(text) <= limit:
        return json.loads(text)
    return {"truncated": True, "preview": text[:limit], "total_chars": len(text)}


class TurnRecorder:
    """The trace entries and changed fields of one turn that are not written yet, and when they are.

    While :meth:`holding` (the conductor holds its turn's recorder so), an
    entry waits for the recorder's next :meth:`write`, which writes it in one
    transaction with the fields noted :meth:`changed` and whatever the caller
    adds to that transaction: the boundary writes the step record so before
    an executor runs and again with its result, the lifecycle the turn's new
    state. So everything about a step that started is in the database before
    its effect can happen; a killed process loses at most entries about
    planning since the last write, and the turn is still found and ended
    truthfully (``turns_reconcile_interrupted``). Otherwise (and inside
    :meth:`at_once`, while an executor runs) each entry is written as it is
    recorded.
    """

    def __init__(self, turn: Turn) -> None:
        self.turn = turn
        self._fields: set[str] = set()
        self._entries: list[TraceEvent] = []
        self._holding = False

    @contextmanager
    def holding(self) -> Iterator[TurnRecorder]:
        """Hold entries for the next :meth:`write`; what is still held when the block ends is written then."""
        holding, self._holding = self._holding, True
        try:
            yield self
        finally:
            self._holding = holding
            self.write()

    @contextmanager
    def at_once(self) -> Iterator[None]:
        """While the block runs (an executor), entries are written as they are recorded, after what was held.

        An executor may record entries and then wait (for the user's answer, say):
        nothing it records is held back behind its own end.
        """
        self.write()
        holding, self._holding = self._holding, False
        try:
            yield
        finally:
            self._holding = holding

    def record(self, kind: str, data: Mapping[str, Any] | None = None, content: Any = None) -> TraceEvent:
        """Append one trace entry: held for the next :meth:`write`, or written at once when not holding."""
        entry = TraceEvent(
            owner_id=self.turn.owner_id,
            turn=self.turn,
            kind=kind,
            data=dict(data or {}),
            content={"value": content} if content is not None else {},
        )
        self._entries.append(entry)
        if not self._holding:
            self.write()
        return entry

    def changed(self, *fields: str) -> None:
        """Note fields of the turn changed in memory; the next :meth:`write` writes them."""
        owned = TURN_STATE_FIELDS.intersection(fields)
        if owned:
            raise ValueError(f"{sorted(owned)} change only through apps.runtime.lifecycle")
        self._fields.update(fields)

    def write(self, *fields: str) -> None:
        """Write ``fields``, the fields noted changed and the held entries, in one transaction.

        Inside a transaction already open it joins it, so a caller can add its own
        rows (a step record, a consumed approval) to the same commit.
        """
        self.changed(*fields)
        names, entries = sorted(self._fields), self._entries
        if not names and not entries:
            return
        with transaction.atomic(savepoint=False):
            if names:
                # An update of the named columns (it also locks the turn's row for the numbering below).
                Turn.objects.filter(pk=self.turn.pk).update(**{name: getattr(self.turn, name) for name in names})
            if entries:
                _insert_numbered(self.turn.pk, entries, locked=bool(names))
        self._fields.clear()
        self._entries = []

    def publish(self, event: TurnEvent) -> None:
        """:func:`turn_publish` for this recorder's turn."""
        turn_publish(self.turn, event)


def _insert_numbered(turn_id: int, entries: list[TraceEvent], *, locked: bool) -> None:
    """Number ``entries`` after the turn's last one and insert them; inside the writing transaction.

    The turn's row lock orders writers of one trace (the lock an UPDATE of the
    turn takes), so the number read is still the last when the entries land.
    SQLite needs none: its transactions take the database's write lock when
    they begin (IMMEDIATE).
    """
    connection = connections[router.db_for_write(TraceEvent)]
    if not locked and connection.features.has_select_for_update:
        list(Turn.objects.select_for_update(no_key=True).filter(pk=turn_id).values_list("pk"))
    with connection.cursor() as cursor:
        cursor.execute(_last_sequence_sql(connection.alias), [turn_id])
        (last,) = cursor.fetchone()
    for offset, entry in enumerate(entries, start=1):
        entry.sequence = (last or 0) + offset
    TraceEvent.objects.bulk_create(entries)


@functools.cache
def _last_sequence_sql(alias: str) -> str:
    # Written out: building the equivalent queryset costs ten times the read, on the write before every
    # step (bench/bench_turns.py). It reads the unique (turn, sequence) index; only our names go in.
    table = connections[alias].ops.quote_name(TraceEvent._meta.db_table)
    return f"SELECT MAX(sequence) FROM {table} WHERE turn_id = %s"  # noqa: S608


def trace_record(turn: Turn, kind: str, data: Mapping[str, Any] | None = None, content: Any = None) -> TraceEvent:
    """Write one trace entry at once (sequence numbers are per turn, increasing, without gaps).

    For writers outside the turn's conductor (a consent decision, an undo
    receipt, the verification panel); the conductor records through its
    :class:`TurnRecorder`.
    """
    return TurnRecorder(turn).record(kind, data, content)


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
