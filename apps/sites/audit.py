"""The sign-in audit: one structural record each time the procedure returns.

It is a trace entry of the turn (``sign_in.audit``), so it is owner-scoped
like the rest of the trace: the owner reads it with the turn, operators see
its structure in the admin. It holds the outcome, reason and internal class,
the last phase, the number of search actions and navigation-refusal counters
(closed-set names with comparisons), and never page data, addresses or
secrets. It is written also when the procedure stops before any credential is
used. Recording it adds no attempt and establishes no cause.
"""

from __future__ import annotations

import logging
from typing import Any

from apps.sites.signin_types import SignInReport

logger = logging.getLogger(__name__)

AUDIT_KIND = "sign_in.audit"


def audit_record(*, owner: Any, turn_id: int | None, kind: str, data: dict[str, Any]) -> dict[str, Any]:
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


def sign_in_audit_record(*, owner: Any, turn_id: int | None, step_index: int, report: SignInReport) -> dict[str, Any]:
    """Record the audit of one sign-in in the turn's trace (when there is a turn) and the log."""
    return audit_record(owner=owner, turn_id=turn_id, kind=AUDIT_KIND, data={"step": step_index, **report.audit()})
