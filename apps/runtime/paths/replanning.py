"""Checking a turn's plan, and a new proposal when the shared guards ask for one.

Contract (runtime spec, "plans": shared guards may "request a new proposal
when an explicitly requested action is missing"; "paths": plan caches "are
not shortcuts around the controls"):

* :func:`plan_checked` validates a turn's plan and applies the shared guards,
  given the actions the request names explicitly (none for a plan given
  explicitly: its request is only a label). What the guards change is traced.
* When the guards ask for a new proposal for a plan that came from a request
  form, the fast path, an autopath or a resumption (the resume rule, or the
  turn a confirmation resumed), :func:`plan_again` asks the planning model
  through the same bounded proposal as any model proposal
  (:func:`apps.runtime.paths.planner.propose_with_model`), with the guards'
  problems in its first request — the missing executors named — and the
  requested actions it must include. A model proposal is not asked again
  here (it already had its bounded new requests), and a plan given
  explicitly is never replaced: something nobody gave would run.
* Without a planning model the turn fails clearly, naming what the plan
  misses, as before.
* **Earlier results reach the planner here.** The planner is asked again
  with the projection of the results already recorded for the turn
  (:func:`apps.runtime.scratchpad.scratchpad_for_turn`: the turn's own steps
  and those of the turn it resumes), explicitly truncated. This is where
  steps have already run when a turn plans: a resumption inherits the work of
  the suspended turn. A follow-up request in the same conversation is a
  different turn, whose earlier turn's plan is finished: its results stay out
  of the planner's messages (and out of a cloud model's reach) unless the
  user resumes.
* A resumed turn is planned anew only when no step of the turn it resumes
  recorded an effect or a file, or failed with an unknown cause (it may have
  had an effect nobody recorded): a new plan might do that again. The new plan
  then runs whole — the suspended turn's results are shown to the planner
  but not inherited, since its step numbers mean other steps in the new plan
  (they only read, so reading again is safe).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from apps.runtime.executor import Catalog, combination_rules
from apps.runtime.models import StepRecord, Turn
from apps.runtime.paths.choice import PathChoice
from apps.runtime.paths.planner import planning_tier, propose_with_model
from apps.runtime.paths.requested_actions import requested_actions
from apps.runtime.plans.api import GuardOutcome, PlanInvalid, apply_guards, validate_plan
from apps.runtime.scratchpad import scratchpad_for_turn
from apps.runtime.tiers.client import ModelUsage
from apps.runtime.trace import TurnRecorder

# Why the guards ask for a new proposal; their other changes are corrections.
_PROBLEMS: Final = frozenset({"requested_tool_missing", "producer_unavailable", "amended_plan_invalid"})

REFUSAL_NO_MODEL: Final = (
    "The plan misses {missing}; a new proposal is needed, and no planning model is configured to make one, "
    "so nothing was run."
)
REFUSAL_CHANGED: Final = (
    "The plan misses {missing}; a new proposal is needed, but steps of the request it resumes already changed "
    "something, so I will not plan it anew over them. Ask again for what is still missing."
)


def plan_checked(
    *, recorder: TurnRecorder, raw_plan: Any, catalog: Catalog, requested: Sequence[str]
) -> GuardOutcome | str:
    """``raw_plan`` validated and guarded for ``recorder``'s turn, or the answer saying why it is not valid."""
    rules = combination_rules()
    try:
        plan = validate_plan(raw_plan, catalog, combination_rules=rules)
    except PlanInvalid as invalid:
        recorder.record("plan.invalid", {"errors": [error.code for error in invalid.errors]})
        return f"The plan is not valid: {invalid}"
    guarded = apply_guards(plan, catalog, requested_tools=requested, combination_rules=rules)
    if guarded.changes:
        recorder.record("plan.guarded", {"changes": [change.as_json() for change in guarded.changes]})
    return guarded


def requested_tools(request: str, catalog: Catalog) -> list[str]:
    return [action.executor for action in requested_actions(request, catalog)]


def what_is_missing(guarded: GuardOutcome) -> str:
    """The missing executors, or the first problem the guards found, for a sentence."""
    if guarded.missing_tools:
        return ", ".join(guarded.missing_tools)
    problems = [change.detail for change in guarded.changes if change.kind in _PROBLEMS]
    return f"a step it needs ({problems[0]})" if problems else "a required step"


def plan_again(*, turn: Turn, catalog: Catalog, request: str, guarded: GuardOutcome) -> PathChoice:
    """A new proposal for ``request`` after the guards refused ``turn``'s plan (see the module docstring)."""
    problems = [(change.kind, change.detail) for change in guarded.changes if change.kind in _PROBLEMS]
    codes = tuple(dict.fromkeys(code for code, _ in problems))
    missing = what_is_missing(guarded)
    if turn.resumed_from_id is not None and _changed_something(turn.resumed_from_id):
        refusal = REFUSAL_CHANGED.format(missing=missing)
        return PathChoice("none", None, "the resumed steps changed something", refusal=refusal, error_codes=codes)
    tier = planning_tier()
    if tier is None:
        reason = "the guards asked for a new proposal and no planning model is configured"
        return PathChoice("none", None, reason, refusal=REFUSAL_NO_MODEL.format(missing=missing), error_codes=codes)
    model = propose_with_model(
        request=request,
        catalog=catalog,
        tier=tier,
        usage=ModelUsage(),
        requested=requested_actions(request, catalog),
        earlier=scratchpad_for_turn(turn),
        rejected=problems,
    )
    if model.plan is None:
        return PathChoice("none", None, "the planning model gave no valid new plan", refusal=model.refusal,
                          model_requests=model.requests_made, error_codes=(*codes, *model.error_codes))  # fmt: skip
    return PathChoice(
        "proposal",
        model.plan.as_json(),
        "model proposal after the guards asked for a new one",
        model_requests=model.requests_made,
        error_codes=(*codes, *model.error_codes),
    )


def _changed_something(turn_id: int) -> bool:
    """Whether a step of ``turn_id`` recorded an effect or a file, or failed in a way that may hide one."""
    records = StepRecord.objects.filter(turn_id=turn_id).values_list("effects", "files", "error_class")
    return any(effects or files or error_class == "unknown" for effects, files, error_class in records)
