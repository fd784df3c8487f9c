"""The plan a request would get, without running it (``metnos propose``, ``POST /api/v1/plans/propose/``).

It follows the turn's own path choice (:func:`~apps.runtime.paths.choice.choose_path`)
on a turn that is never saved, then validates the plan and applies the
guards, as a turn does before its first step. Nothing is recorded and no
executor runs; with a planning model configured, the model is asked as a
turn would ask it. The request is checked by the same rules as a turn's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from apps.accounts.models import User
from apps.runtime.catalog import current_catalog
from apps.runtime.executor import Catalog, combination_rules
from apps.runtime.models import Conversation, Turn
from apps.runtime.paths.choice import choose_path
from apps.runtime.paths.replanning import requested_tools, what_is_missing
from apps.runtime.plans.api import PlanInvalid, apply_guards, validate_plan
from apps.runtime.turns import request_checked


@dataclass(frozen=True)
class PlanProposal:
    """The path a request would take, its plan, or why it has none."""

    path: str
    plan: dict[str, Any] | None
    reason: str
    refusal: str | None = None

    def as_json(self) -> dict[str, Any]:
        return {"path": self.path, "plan": self.plan, "reason": self.reason, "refusal": self.refusal}


def plan_propose(
    *, owner: User, text: str, conversation: Conversation | None = None, catalog: Catalog | None = None
) -> PlanProposal:
    """The plan ``text`` would get for ``owner`` (see the module docstring); ``TurnRejected`` for a bad request."""
    request = request_checked(text, owner=owner, conversation=conversation)
    catalog = catalog or current_catalog()
    turn = Turn(owner=owner, conversation=conversation, request_text=request)  # never saved: nothing runs
    choice = choose_path(turn=turn, catalog=catalog)
    if choice.plan is None:
        return PlanProposal(choice.path, None, choice.reason, choice.refusal)
    rules = combination_rules()
    try:
        plan = validate_plan(choice.plan, catalog, combination_rules=rules)
    except PlanInvalid as invalid:
        return PlanProposal("none", None, f"the plan is not valid: {invalid}")
    guarded = apply_guards(plan, catalog, requested_tools=requested_tools(request, catalog), combination_rules=rules)
    if guarded.needs_new_proposal:
        return PlanProposal("none", None, f"the plan misses {what_is_missing(guarded)}")
    return PlanProposal(choice.path, guarded.plan.as_json(), choice.reason)
