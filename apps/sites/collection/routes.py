"""Asking a route chooser when the signals of a page are insufficient.

Only when the signals are insufficient — nothing found and no signal names
a route, or a complete collection found rows but nothing leads further
(see ``collect_explore``) — does the collection ask, one group of observed
controls at a time (controls the
page does not offer cannot be chosen). Each decision has at most
``COLLECTION_MODEL_DECISION_TIMEOUT``, inside the collection's active time.
"No decision" (no model configured) and a failed decision end the
collection incomplete with that reason; no other model is tried instead.
"""

from __future__ import annotations

from apps.sites.acting.route_choice import RouteChooser, RouteOption, RouteQuestion
from apps.sites.collection.budget import CollectionLedger
from apps.sites.collection.findings import Findings
from apps.sites.collection.frontier import Candidate, PageState
from apps.sites.collection.scope import CollectionPlan
from apps.sites.collection.signals import Signal
from apps.sites.observation.limits import CONTROL_GROUP_SIZE


class RouteNotChosen(Exception):
    """The chooser gave no decision or failed: the collection ends incomplete."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(reason)
        self.reason = reason
        self.detail = detail


def ask_chooser(
    state: PageState, plan: CollectionPlan, chooser: RouteChooser, ledger: CollectionLedger, findings: Findings
) -> Candidate | None:
    """A candidate chosen among the page's unrecognised controls, or None when none fits."""
    controls = state.unclassified
    if not controls:
        return None
    groups = [controls[start : start + CONTROL_GROUP_SIZE] for start in range(0, len(controls), CONTROL_GROUP_SIZE)]
    for number, group in enumerate(groups, start=1):
        question = RouteQuestion(
            object_words=plan.object_words,
            fields=tuple(options[0] for options in plan.item_fields),
            options=tuple(
                RouteOption(index, control.label, control.section) for index, control in enumerate(group, start=1)
            ),
            group=number,
            of=len(groups),
        )
        decision = chooser.choose(question, deadline=ledger.decision_deadline())
        findings.diagnostics[f"route_choice.{decision.kind}"] += 1
        if decision.kind == "chosen" and decision.index is not None:
            return Candidate(group[decision.index - 1], Signal("section"), order=0)
        if decision.kind == "no_decision":
            raise RouteNotChosen("no_route", decision.reason)
        if decision.kind == "failed":
            raise RouteNotChosen("route_choice_failed", decision.reason)
    return None
