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

from typing import Any

from apps.accounts.models import User
from apps.sites.browser.audit import audit_record
from apps.sites.signin.types import SignInReport

AUDIT_KIND = "sign_in.audit"


def sign_in_audit_record(*, owner: User, turn_id: int | None, step_index: int, report: SignInReport) -> dict[str, Any]:
    """Record the audit of one sign-in in the turn's trace (when there is a turn) and the log."""
    return audit_record(owner=owner, turn_id=turn_id, kind=AUDIT_KIND, data={"step": step_index, **report.audit()})
