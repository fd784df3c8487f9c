"""Plans: the one place to import the plan API from.

A plan is a finite list of typed steps ``{"tool", "args"}`` naming executors
of the catalog (runtime spec, "plans"). Its life before each step crosses the
invocation boundary:

1. :func:`validate_plan` turns a proposal into a :class:`Plan` or refuses it
   with :class:`PlanInvalid` — precise :class:`PlanError` entries
   (``plan_validation``);
2. :func:`apply_guards` may insert an indispensable producer, align known
   dependencies, or ask for a new proposal, never adding a capability outside
   the catalog (``plan_guards``);
3. before each step, :func:`resolve_step_args` resolves ``from_step: N`` and
   ``{{stepN.field}}`` and checks the final arguments again, raising
   :class:`MissingInput` when a producer has no data and
   :class:`ArgumentsInvalid` when the final arguments break the schema; the
   provenance of every value travels in :class:`ResolvedArgs`
   (``plan_resolution``).

:meth:`Plan.digest` is the SHA-256 of the plan's canonical JSON, to which a
confirmation is bound. The reference grammar is in ``plan_references``, the
schema rules in ``plan_schema``, the bounds in ``plan_types``.
"""

from __future__ import annotations

from apps.runtime.plans.guards import (
    GuardChange,
    GuardOutcome,
    ProducerRule,
    ProducerRuleError,
    apply_guards,
    register_producer_rule,
    registered_producer_rules,
)
from apps.runtime.plans.resolution import MissingInput, MissingReason, ResolvedArgs, resolve_step_args
from apps.runtime.plans.types import (
    ECHO_CHARS,
    MAX_PLAN_BYTES,
    MAX_PLAN_STEPS,
    MAX_REPORTED_ERRORS,
    MAX_VALUE_DEPTH,
    PLAN_ERROR_CODES,
    ArgumentsInvalid,
    Plan,
    PlanError,
    PlanErrorCode,
    PlanInvalid,
    PlanRejected,
    Step,
)
from apps.runtime.plans.validation import CombinationRule, validate_plan

__all__ = [
    "ECHO_CHARS",
    "MAX_PLAN_BYTES",
    "MAX_PLAN_STEPS",
    "MAX_REPORTED_ERRORS",
    "MAX_VALUE_DEPTH",
    "PLAN_ERROR_CODES",
    "ArgumentsInvalid",
    "CombinationRule",
    "GuardChange",
    "GuardOutcome",
    "MissingInput",
    "MissingReason",
    "Plan",
    "PlanError",
    "PlanErrorCode",
    "PlanInvalid",
    "PlanRejected",
    "ProducerRule",
    "ProducerRuleError",
    "ResolvedArgs",
    "Step",
    "apply_guards",
    "register_producer_rule",
    "registered_producer_rules",
    "resolve_step_args",
    "validate_plan",
]
