"""The sign-in step's side of a humanity check: the local attempt, the panel, and the way back.

When the procedure stops with ``needs_person`` (:attr:`SignInProcedure.person`
holds the page), :func:`person_help`:

1. tries the local Cloudflare attempt once (at most ten seconds, in the same
   session; :mod:`apps.sites.signin.captcha`, treated as ``unsupported``
   when that module is not installed), then observes the page afresh: only
   that observation, never the attempt's own word, lets the sign-in go on;
2. otherwise opens a :class:`~apps.sites.models.HandoffPanel` and serves it
   from this thread — the sign-in's browser job, in the browser worker
   (:mod:`apps.sites.handoff.server`) — until Resume clears the check, the
   owner cancels, or the panel expires. Waiting consumes none of the
   procedure's time; the session's deadline moves past the panel's (within
   the job's own).

After the session has closed (its cookies saved), :func:`handoff_settle`
ends the panel. A verified sign-in creates the resumed turn, linked to this
one, which continues the request (:func:`handoff_panel_continue`); its own
``sign_in`` step takes the verified result once (:func:`continued_result`).
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from apps.accounts.models import User
from apps.runtime.executor import StepError, StepResult
from apps.runtime.paths.resume import CONTINUED_IN_RESUMED_TURN
from apps.sites.browser.sessions import BrowserSession
from apps.sites.browser.steps import BrowserStep
from apps.sites.handoff.panels import (
    Status,
    handoff_channel,
    handoff_panel_close,
    handoff_panel_continue,
    handoff_panel_open,
    handoff_panel_open_for_turn,
)
from apps.sites.handoff.server import PanelServer
from apps.sites.limits import CAPTCHA_ATTEMPT_TIMEOUT
from apps.sites.models import HandoffPanel
from apps.sites.signin.captcha import cloudflare_attempt
from apps.sites.signin.types import SignInReport

if TYPE_CHECKING:
    from apps.sites.signin.procedure import Recheck, SignInProcedure

# The ends of a panel that are not the sign-in's own: the reason the step reports.
_ENDINGS = {
    "cancelled": ("handoff_cancelled", Status.CANCELLED),
    "expired": ("handoff_expired", Status.EXPIRED),
    "turn_cancelled": ("turn_cancelled", Status.FAILED),
}
_CLOSING = {"handoff_cancelled": Status.CANCELLED, "handoff_expired": Status.EXPIRED}


@dataclass
class Handoff:
    """What became of the step's panel, kept outside the session so any ending can settle it."""

    panel_id: int | None = None
    verified: bool = False


def cloudflare_try(page: Page, *, deadline: float) -> str:
    """The one local attempt: ``cleared``, ``still_open`` or ``unsupported``."""
    try:
        return str(cloudflare_attempt(page, deadline=deadline).outcome)
    except PlaywrightError:
        return "still_open"


class _PersonClock:
    """Rechecks for the panel; the time spent waiting for the person is given back to the procedure."""

    def __init__(self, procedure: SignInProcedure) -> None:
        self.procedure = procedure
        self.since = time.monotonic()

    def recheck(self) -> Recheck:
        self.procedure.extend(time.monotonic() - self.since)
        try:
            result = self.procedure.recheck()
        finally:
            self.since = time.monotonic()
        if isinstance(result, SignInReport) and result.outcome == "needs_person" and self.procedure.person:
            return "still_open"  # the sign-in went on and met a check again: the same panel serves it
        return result


def _session_outlives(
    session: BrowserSession, panel: HandoffPanel, procedure: SignInProcedure, step: BrowserStep
) -> None:
    """The session stays open for the panel and for the rest of the sign-in after it (within the job's time)."""
    remaining = max(procedure.deadline - time.monotonic(), 0.0)
    wanted = min(panel.expires_at + dt.timedelta(seconds=remaining), step.job.deadline)
    if step.deadline is not None:
        wanted = min(wanted, step.deadline)
    if session.deadline is not None and wanted > session.deadline:
        session.deadline = wanted


def person_help(
    step: BrowserStep,
    session: BrowserSession,
    procedure: SignInProcedure,
    report: SignInReport,
    handoff: Handoff,
    outside: Callable[[Callable[[], Any]], Any],
) -> SignInReport:
    """After ``needs_person``: the local attempt, then the panel (see the module docstring)."""
    held = procedure.person
    if held is None:
        return report
    attempt_until = min(procedure.deadline, time.monotonic() + CAPTCHA_ATTEMPT_TIMEOUT.total_seconds())
    if cloudflare_try(held.page, deadline=attempt_until) != "unsupported":
        again = procedure.recheck()
        if not isinstance(again, str):
            return again
    turn_id = step.turn_id
    if turn_id is None or not step.can_ask:
        return report  # outside a conducted turn (a test, a device) there is nobody to hand the page to
    panel: HandoffPanel = outside(
        lambda: handoff_panel_open(turn_id=turn_id, step_index=step.step_index, credentials_submitted=held.submitted)
    )
    handoff.panel_id = panel.pk
    _session_outlives(session, panel, procedure, step)
    server = PanelServer(
        session, held.page, panel_id=panel.pk, channel=handoff_channel(panel), outside=outside,
        cancelled=step.cancelled, submitted=lambda: bool(procedure.person and procedure.person.submitted),
    )  # fmt: skip
    served = server.serve(_PersonClock(procedure).recheck)
    if served.ending == "verified" and isinstance(served.result, SignInReport):
        handoff.verified = served.result.outcome == "signed_in"
        return served.result
    reason, _ = _ENDINGS.get(served.ending, ("handoff_failed", Status.FAILED))
    return procedure.report("needs_person", reason, "inconclusive")


def handoff_settle(handoff: Handoff, report: SignInReport) -> int | None:
    """End the step's panel once its session has closed; the resumed turn's id after a verified sign-in."""
    if handoff.panel_id is None:
        return None
    if handoff.verified and report.outcome == "signed_in":
        result = {"outcome": report.outcome, "reason": report.reason, "landing_origin": report.landing_origin}
        return handoff_panel_continue(panel_id=handoff.panel_id, result=result).pk
    handoff_panel_close(
        panel_id=handoff.panel_id, status=_CLOSING.get(report.reason, Status.FAILED), reason=report.reason
    )
    return None


def handoff_abandon(handoff: Handoff) -> None:
    """The step stopped by an exception (a time limit, a crash): its panel must not stay open."""
    if handoff.panel_id is not None:
        handoff_panel_close(panel_id=handoff.panel_id, status=Status.FAILED, reason="step_interrupted")


def handoff_abandon_for_step(*, owner: User, turn_id: int | None, step_index: int) -> None:
    """The step's browser worker died: a panel it was serving closes (nobody serves it any more)."""
    if turn_id is None:
        return
    panel = handoff_panel_open_for_turn(owner=owner, turn_id=turn_id)
    if panel is not None and panel.step_index == step_index:
        handoff_panel_close(panel_id=panel.pk, status=Status.FAILED, reason="step_interrupted")


def continued_in(report: SignInReport, resumed_turn: int, value: dict[str, Any]) -> StepResult:
    """This turn's step after a verified sign-in: the request continues in the resumed turn."""
    message = (
        f"Signed in to {report.landing_origin} after your check in the verification panel; "
        f"the request continues in turn {resumed_turn}."
    )
    return StepResult(
        outcome="failed",
        value=value,
        error=StepError("recoverable", CONTINUED_IN_RESUMED_TURN, message),
        summary=message,
    )


def continued_result(panel: HandoffPanel) -> StepResult:
    """The resumed turn's sign-in step: the verified result its panel kept, taken once, without a browser."""
    value = {key: panel.result.get(key) for key in ("outcome", "reason", "landing_origin")}
    origin = value.get("landing_origin") or "the website"
    summary = f"Signed in to {origin} after your check in the verification panel (continued from turn {panel.turn_id})."
    return StepResult(outcome="success", value=value, summary=summary)
