"""The audit of a browser procedure: one structural record in the turn's trace and the log.

Sign-in and collection each write theirs through :func:`audit_record` when
they return. The record is a trace entry of the owner's turn, so it is
owner-scoped like the rest of the trace; it holds closed-set names and
counts, never page data, addresses or secrets. Recording it adds no attempt
and establishes no cause.
"""

from __future__ import annotations

import logging
from typing import Any

from apps.accounts.models import User

logger = logging.getLogger(__name__)


def audit_record(*, owner: User, turn_id: int | None, kind: str, data: dict[str, Any]) -> dict[str, Any]:
    """Write one browser procedure's audit to the owner's turn trace (when there is a turn) and the log."""
    logger.info("%s", kind, extra={"audit": data})
    if turn_id is None:
        return data
    from apps.runtime.models import Turn
    from apps.runtime.trace import trace_record

    turn = Turn.objects.filter(pk=turn_id, owner_id=owner.pk).first()
    if turn is not None:
        trace_record(turn, kind, data)
    return data
