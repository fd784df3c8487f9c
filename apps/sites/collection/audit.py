"""The collection audit: one structural trace entry each time a collection returns.

``collect.audit`` holds why the exploration ended (a closed-set reason), the
actions by kind, pages read, the deepest level, the bounds met, active
seconds, and the counters of route decisions and controls not found again.
It also holds, in closed categories:

- ``recovery``: each recovery by its reason and outcome (:data:`RECOVERY_OUTCOMES`):
  the one fresh read after the document changed during the check, and a
  route prepared again for a control missing on return;
- ``decisions``: for each model decision kind (route choice, record
  recognition), how many were asked, their outcomes, their total and slowest
  time, and whether the input window the model was given was complete or
  truncated. Completeness here is of that window only (the page text or the
  control names sent), never of the website's inventory.

Never page text, addresses, field values or model output. It describes this
run only; it establishes no cause and changes no decision or attempt.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Literal, get_args

from apps.accounts.models import User
from apps.sites.acting.route_choice import DecisionKind
from apps.sites.browser.audit import audit_record
from apps.sites.collection.budget import CollectionLedger
from apps.sites.collection.findings import Findings
from apps.sites.collection.recognition import RecognitionKind

AUDIT_KIND = "collect.audit"

RecoveryReason = Literal["document_changed", "control_missing"]
DocumentChangedOutcome = Literal["recovered", "left_page", "still_changing"]
ControlMissingOutcome = Literal["found", "missing", "ambiguous"]
RECOVERY_OUTCOMES: dict[str, tuple[str, ...]] = {
    "document_changed": get_args(DocumentChangedOutcome),
    "control_missing": get_args(ControlMissingOutcome),
}
DecisionName = Literal["route_choice", "recognition"]
DECISION_OUTCOMES: dict[str, tuple[str, ...]] = {
    "route_choice": get_args(DecisionKind),
    "recognition": get_args(RecognitionKind),
}
InputWindow = Literal["complete", "truncated"]
# Counter keys these notes write; the audit shows them structured, not again among the counters.
_RECOVERY = "recovery."
_DECISION = "decision."


def note_recovery(counters: Counter[str], reason: RecoveryReason, outcome: str) -> None:
    """Count one recovery; an outcome outside the reason's closed set is a programming error."""
    if outcome not in RECOVERY_OUTCOMES[reason]:
        raise ValueError(f"recovery outcome {outcome!r} is not one of {reason}'s")
    counters[f"{_RECOVERY}{reason}.{outcome}"] += 1


def note_decision(counters: Counter[str], name: DecisionName, *, seconds: float, window: InputWindow) -> None:
    """Count one model decision: its time (milliseconds) and whether its input window was complete."""
    milliseconds = max(0, round(seconds * 1000))
    prefix = f"{_DECISION}{name}."
    counters[f"{prefix}count"] += 1
    counters[f"{prefix}ms"] += milliseconds
    counters[f"{prefix}slowest_ms"] = max(counters[f"{prefix}slowest_ms"], milliseconds)
    counters[f"{prefix}window_{window}"] += 1


def _recovery(counters: Counter[str]) -> dict[str, dict[str, int]]:
    return {
        reason: {outcome: counters[f"{_RECOVERY}{reason}.{outcome}"] for outcome in outcomes}
        for reason, outcomes in RECOVERY_OUTCOMES.items()
    }


def _decisions(counters: Counter[str]) -> dict[str, dict[str, Any]]:
    decisions = {}
    for name, outcomes in DECISION_OUTCOMES.items():
        prefix = f"{_DECISION}{name}."
        decisions[name] = {
            "count": counters[f"{prefix}count"],
            "outcomes": {outcome: counters[f"{name}.{outcome}"] for outcome in outcomes},
            "seconds": round(counters[f"{prefix}ms"] / 1000, 3),
            "slowest_seconds": round(counters[f"{prefix}slowest_ms"] / 1000, 3),
            "input_window": {window: counters[f"{prefix}window_{window}"] for window in get_args(InputWindow)},
        }
    return decisions


def collection_audit(findings: Findings, ledger: CollectionLedger) -> dict[str, Any]:
    stop = findings.stop
    counters = findings.diagnostics
    return {
        "stop": stop.reason if stop else "",
        "stop_detail": stop.detail if stop else "",
        "actions": dict(sorted(ledger.actions.items())),
        "pages_read": findings.pages_read,
        "deepest_level": ledger.deepest_level,
        "limits_met": sorted(findings.limits_met),
        "active_seconds": round(ledger.active_seconds(), 1),
        "rows_read": findings.row_count(),
        "documents_saved": len(findings.documents),
        "recovery": _recovery(counters),
        "decisions": _decisions(counters),
        "counters": {
            key: value for key, value in sorted(counters.items()) if not key.startswith((_RECOVERY, _DECISION))
        },
    }


def collection_audit_record(
    *, owner: User, turn_id: int | None, step_index: int, findings: Findings, ledger: CollectionLedger
) -> dict[str, Any]:
    """Record the audit in the turn's trace (when there is a turn) and the log."""
    data = {"step": step_index, **collection_audit(findings, ledger)}
    return audit_record(owner=owner, turn_id=turn_id, kind=AUDIT_KIND, data=data)
