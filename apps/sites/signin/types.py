"""What the sign-in procedure reports, and its own timings.

The spec's bounds (four steps per route, 32 actions) are in
:mod:`apps.sites.limits`; the waits below are Metnos's own choices and are
named here so tests cite them.

Outcomes, from a closed set:

- ``signed_in``: sign-in evidence appeared within the observation interval
  and passed its stability check;
- ``unverified``: credentials were submitted but the evidence came late,
  was interrupted, or could not be observed;
- ``rejected``: the website answered with a real error message;
- ``needs_person``: a humanity check (text or widget) needs a person;
- ``needs_code``: a one-time code was needed and none was given;
- ``consent_pending``: a consent notice could not be rejected; the user must answer it;
- ``not_found``: no way in (signals exhausted, bounds reached);
- ``ambiguous``: an ambiguous control, form or code field stopped the procedure;
- ``refused``: a website or value check refused (nothing was submitted after it);
- ``failed``: the browser could not do the work.

``internal_class`` is the spec's loop outcome: ``completed`` (the
postcondition held), ``inconclusive`` (nothing admissible was found) or
``exhausted`` (the attempts or the time ran out).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

SignInOutcome = Literal[
    "signed_in", "unverified", "rejected", "needs_person", "needs_code", "consent_pending", "not_found", "ambiguous",
    "refused", "failed",
]  # fmt: skip
InternalClass = Literal["completed", "inconclusive", "exhausted"]
# After the submission, ways on toward the account taken at most (an interstitial, a closed account menu).
MAX_ONWARD_STEPS = 2

Phase = Literal["open", "search", "credentials", "submit", "verify", "code", "recovery"]

# After a click, how long a page without a form or a way in is watched for a delayed form.
FORM_PATIENCE_SECONDS = 3.0
# After submitting, how long the page is observed for an outcome (once extended by as much
# when the form's own script request has not answered yet).
OUTCOME_INTERVAL_SECONDS = 5.0
# Sign-in evidence must be seen this many times in a row, on the same address. The next look
# comes once the page has loaded and drawn two frames since (a script run at its load has had
# its chance to send it elsewhere), or after this long for a page that never finishes loading.
STABILITY_OBSERVATIONS = 2
STABILITY_PATIENCE_SECONDS = 2.0
OBSERVE_EVERY_SECONDS = 0.25
# The whole procedure, when the step gives no deadline of its own.
SIGN_IN_TIME_BUDGET_SECONDS = 180.0
# At most this many forms in a row (identifier step, password step, one-time code).
MAX_FORMS = 4
# The route-choice model is consulted at most this often in one search.
MAX_MODEL_DECISIONS = 2


@dataclass(frozen=True)
class SignInReport:
    """The procedure's result. ``anchor`` is the verified destination (the page the website actually
    showed, not the opening page), kept in memory and never put in a step result or the audit;
    ``landing_origin`` is its origin."""

    outcome: SignInOutcome
    reason: str
    internal_class: InternalClass
    last_phase: Phase
    search_actions: int
    model_decisions: int = 0
    credentials_used: bool = False
    landing_origin: str = ""
    anchor: str = ""
    refusals: tuple[tuple[str, int], ...] = ()
    # When no way in was chosen: the visible names of the controls seen (the candidates, or the page's
    # first links and buttons), for the answer; page text only, never in the audit.
    seen: tuple[str, ...] = ()

    def audit(self) -> dict[str, object]:
        """The audit record: closed codes and counters only, no page data, address or secret."""
        return {
            "outcome": self.outcome,
            "reason": self.reason,
            "internal_class": self.internal_class,
            "last_phase": self.last_phase,
            "search_actions": self.search_actions,
            "model_decisions": self.model_decisions,
            "credentials_used": self.credentials_used,
            "refusals": dict(self.refusals),
        }
