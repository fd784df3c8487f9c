"""Recording what a turn did (trace, steps) and telling the user's browsers live.

The trace holds structure — chosen path, steps, controls, timings, outcomes,
undo receipts — in ``data``, and anything that may be personal in
``content``. Nothing recorded here may contain a secret: values pass through
:func:`redact` with the turn's known secrets before they are stored or sent.
"""

from __future__ import annotations

import contextvars
import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max

from apps.core.events import TurnEvent, publish_to_user
from apps.runtime.models import TraceEvent, Turn

REDACTED = "[redacted]"
MAX_PREVIEW_CHARS = 2000


def redact(value: Any, secrets: Iterable[str]) -> Any:
    """Replace every occurrence of a secret in strings nested anywhere in ``value``."""
    needles = [secret for secret in secrets if secret]
    if not needles:
        return value
    if isinstance(value, str):
        for needle in needles:
            value = value.replace(needle, REDACTED)
        return value
    if isinstance(value, Mapping):
        return {key: redact(item, needles) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [redact(item, needles) for item in value]
    return value


def preview(value: Any, *, limit: int = MAX_PREVIEW_CHARS) -> Any:
    """A JSON-safe, explicitly truncated preview of a value for records."""
    text = json.dumps(value, default=str, ensure_ascii=False)
    if len(text) <= limit:
        return json.loads(text)
    return {"truncated": True, "preview": text[:limit], "total_chars": len(text)}


def _next_sequence(turn: Turn) -> int:
    # One process conducts a turn at a time (turns are claimed), so the next
    # number is kept on the instance after one look at the table.
    known: int | None = getattr(turn, "_next_trace_sequence", None)
    if known is None:
        known = (TraceEvent.objects.filter(turn=turn).aggregate(last=Max("sequence"))["last"] or 0) + 1
    turn._next_trace_sequence = known + 1  # type: ignore[attr-defined]
    return known


def trace_record(turn: Turn, kind: str, data: Mapping[str, Any] | None = None, content: Any = None) -> TraceEvent:
    """Append one trace entry (sequence numbers are per turn and increasing)."""
    values = {"data": dict(data or {}), "content": {"value": content} if content is not None else {}}
    try:
        with transaction.atomic():
            return TraceEvent.objects.create(
                owner_id=turn.owner_id, turn=turn, sequence=_next_sequence(turn), kind=kind, **values
            )
    except IntegrityError:
        # Someone else wrote to this trace meanwhile (a decision in the web
        # process): look again once.
        turn._next_trace_sequence = None  # type: ignore[attr-defined]
        return TraceEvent.objects.create(
            owner_id=turn.owner_id, turn=turn, sequence=_next_sequence(turn), kind=kind, **values
        )


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
    """Send a turn event to the owner's browsers once the current transaction commits."""
    payload: TurnEvent = {**event, "turn_id": turn.pk, "conversation_id": turn.conversation_id}
    for observer in _observers.get():
        observer(payload)
    transaction.on_commit(lambda: publish_to_user(turn.owner_id, payload))
