"""Shared guards: small, declared corrections to a valid plan, never new capabilities.

Contract (runtime spec, "plans"): after validation, :func:`apply_guards` may

* **insert an indispensable producer.** A producer rule, declared with
  :func:`register_producer_rule` (``consumer``, ``requires_producer_of``,
  ``insert``), says that executor ``consumer`` needs the field
  ``requires_producer_of`` in the items of the collection it consumes, and
  that executor ``insert`` produces it from such a collection. When a step of
  ``consumer`` takes ``from_step: N`` and step N's result shape does not
  declare that field, a step of ``insert`` reading step N is put just before
  the consumer, which then reads it instead (a reader between a file finder
  and an extractor). The decision reads manifests, not tool names: the rule
  is skipped when the producer already declares the field. A tool is
  inserted only if it is in the catalog, returns a collection declaring the
  field, has exactly one collection input and no other required argument;
  otherwise the guard records ``producer_unavailable`` and asks for a new
  proposal.
* **align known dependencies.** When the plan already has, between producer
  and consumer, a step that reads the producer and declares the needed field,
  the consumer is pointed at it instead of inserting another; every
  ``from_step`` and ``{{stepN...}}`` reference follows the renumbering that an
  insertion causes.
* **request a new proposal** when an explicitly requested executor
  (``requested_tools``) is absent from the plan: outcome
  ``needs_new_proposal`` with the missing names. The guard never adds it,
  nor anything outside the catalog. The proposers derive the requested
  executors from the request (:mod:`requested_actions`): the planning model
  is asked again, the model-free proposer refuses naming the action.

An amended plan is validated again in full; if it is no longer valid the
outcome is ``needs_new_proposal``. A plan whose outcome is
``needs_new_proposal`` must not run. Every correction is listed as a
:class:`GuardChange` for the turn's trace.
"""

from __future__ import annotations

import threading
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from apps.runtime.executor import Catalog
from apps.runtime.manifests import Manifest
from apps.runtime.plans.references import (
    FROM_STEP,
    collection_reference,
    is_collection_argument,
    renumber_collection,
    renumber_value,
)
from apps.runtime.plans.schema import sensitive_kind
from apps.runtime.plans.types import MAX_PLAN_STEPS, Plan, PlanInvalid, Step, short
from apps.runtime.plans.validation import CombinationRule, validate_plan

GuardChangeKind = Literal[
    "inserted_producer", "aligned_dependency", "renumbered_references", "producer_unavailable",
    "requested_tool_missing", "amended_plan_invalid",
]  # fmt: skip
GuardOutcomeKind = Literal["unchanged", "amended", "needs_new_proposal"]


class ProducerRuleError(ValueError):
    """Two different producer rules for the same consumer and field."""


@dataclass(frozen=True)
class ProducerRule:
    """``consumer`` needs ``requires_producer_of`` in its input items; ``insert`` produces it."""

    consumer: str
    requires_producer_of: str
    insert: str


@dataclass(frozen=True)
class GuardChange:
    """One correction (or refusal) made by the guards; ``step`` numbers the returned plan."""

    kind: GuardChangeKind
    step: int | None
    detail: str

    def as_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "step": self.step, "detail": self.detail}


@dataclass(frozen=True)
class GuardOutcome:
    """The plan after the guards, what changed, and whether a new proposal is needed."""

    outcome: GuardOutcomeKind
    plan: Plan
    changes: tuple[GuardChange, ...] = ()
    missing_tools: tuple[str, ...] = ()

    @property
    def needs_new_proposal(self) -> bool:
        return self.outcome == "needs_new_proposal"


_producer_rules: dict[tuple[str, str], ProducerRule] = {}
_lock = threading.Lock()


def register_producer_rule(consumer: str, requires_producer_of: str, insert: str) -> ProducerRule:
    """Declare that ``consumer`` needs ``requires_producer_of`` in its input items, made by ``insert``.

    Registering the same rule twice is harmless; a different ``insert`` for
    the same consumer and field raises :class:`ProducerRuleError`.
    """
    rule = ProducerRule(consumer, requires_producer_of, insert)
    with _lock:
        existing = _producer_rules.get((consumer, requires_producer_of))
        if existing is not None and existing != rule:
            raise ProducerRuleError(f"{consumer} already takes {requires_producer_of!r} from {existing.insert}")
        _producer_rules[(consumer, requires_producer_of)] = rule
    return rule


def registered_producer_rules() -> tuple[ProducerRule, ...]:
    return tuple(_producer_rules.values())


def apply_guards(
    plan: Plan,
    catalog: Catalog,
    *,
    requested_tools: Collection[str] = (),
    producer_rules: Iterable[ProducerRule] | None = None,
    max_steps: int = MAX_PLAN_STEPS,
    combination_rules: Mapping[str, CombinationRule] | None = None,
) -> GuardOutcome:
    """Apply the shared guards to a validated ``plan`` (rules default to the registered ones)."""
    rules: dict[str, list[ProducerRule]] = {}
    for rule in registered_producer_rules() if producer_rules is None else producer_rules:
        rules.setdefault(rule.consumer, []).append(rule)
    guard = _Guard(catalog, rules)
    for old_number, step in enumerate(plan.steps, start=1):
        guard.place(old_number, step)
    changes = guard.changes
    amended = any(change.kind in ("inserted_producer", "aligned_dependency") for change in changes)
    result = Plan(tuple(guard.steps)) if amended else plan
    stop = guard.unavailable
    if amended:
        try:
            result = validate_plan(result, catalog, max_steps=max_steps, combination_rules=combination_rules)
        except PlanInvalid as invalid:
            stop = True
            changes.append(GuardChange("amended_plan_invalid", None, f"the amended plan is not valid: {invalid}"))
    present = set(result.tools)
    missing = tuple(name for name in dict.fromkeys(requested_tools) if name not in present)
    for name in missing:
        where = "it is in the catalog" if catalog.manifest(name) is not None else "it is not in the catalog"
        changes.append(
            GuardChange(
                "requested_tool_missing",
                None,
                f"the request asks for {short(name)}, which the plan does not use ({where})",
            )
        )
    if stop or missing:
        outcome: GuardOutcomeKind = "needs_new_proposal"
    else:
        outcome = "amended" if amended else "unchanged"
    return GuardOutcome(outcome, result, tuple(changes), missing)


class _Guard:
    """Rebuilds the plan step by step: references only point backwards, so appending keeps them valid."""

    def __init__(self, catalog: Catalog, rules: Mapping[str, list[ProducerRule]]) -> None:
        self.catalog = catalog
        self.rules = rules
        self.steps: list[Step] = []
        self.new_number: dict[int, int] = {}
        self.inserted: dict[tuple[int, str], int] = {}
        self.changes: list[GuardChange] = []
        self.unavailable = False

    def _renumber(self, number: int) -> int:
        return self.new_number.get(number, number)

    def place(self, old_number: int, step: Step) -> None:
        manifest = self.catalog.manifest(step.tool)
        args = dict(step.args)
        renumbered = False
        if len(self.steps) != old_number - 1:  # an insertion shifted the steps this one may name
            for name, value in step.args.items():
                spec = manifest.args.get(name) if manifest is not None else None
                if name == FROM_STEP or (spec is not None and spec.type == "collection"):
                    args[name] = renumber_collection(name, value, self._renumber)
                else:
                    args[name] = renumber_value(value, self._renumber)
            renumbered = args != step.args
        if manifest is not None and step.tool in self.rules:
            for name in list(args):
                spec = manifest.args.get(name)
                if spec is not None and is_collection_argument(name, spec.type):
                    args[name] = self._supply(step.tool, name, args[name])
        self.steps.append(Step(step.tool, args))
        number = len(self.steps)
        self.new_number[old_number] = number
        if renumbered:
            self.changes.append(
                GuardChange(
                    "renumbered_references",
                    number,
                    f"step {old_number} ({step.tool}) is now step {number}; its references follow the steps they name",
                )
            )

    def _supply(self, consumer: str, name: str, value: Any) -> Any:
        """The consumer's input, pointed at a step that declares every field its rules require."""
        for rule in self.rules[consumer]:
            target = collection_reference(name, value)
            if isinstance(target, str) or not 1 <= target <= len(self.steps):
                return value
            producer = self.catalog.manifest(self.steps[target - 1].tool)
            field = rule.requires_producer_of
            if producer is None or producer.result.kind != "collection" or field in producer.result.fields:
                continue
            consumer_number = len(self.steps) + 1
            provider = self._existing_provider(target, field) or self.inserted.get((target, rule.insert))
            if provider is not None:
                self.changes.append(
                    GuardChange(
                        "aligned_dependency",
                        consumer_number,
                        f"{consumer} needs {field!r}: it now reads step {provider} ({self.steps[provider - 1].tool}) "
                        f"instead of step {target} ({producer.name})",
                    )
                )
                value = _point(name, value, provider)
                continue
            source, problem = self._insertable(rule.insert, field)
            if source is None:
                self.unavailable = True
                self.changes.append(
                    GuardChange(
                        "producer_unavailable",
                        consumer_number,
                        f"{consumer} needs {field!r}, which step {target} ({producer.name}) does "
                        f"not declare, and {problem}",
                    )
                )
                continue
            self.steps.append(Step(rule.insert, {source: target if source == FROM_STEP else {FROM_STEP: target}}))
            inserted = len(self.steps)
            self.inserted[(target, rule.insert)] = inserted
            self.changes.append(
                GuardChange(
                    "inserted_producer",
                    inserted,
                    f"inserted {rule.insert} as step {inserted} between step {target} ({producer.name}) "
                    f"and {consumer}: {consumer} needs {field!r}, which {producer.name} does "
                    "not declare",
                )
            )
            value = _point(name, value, inserted)
        return value

    def _existing_provider(self, target: int, field: str) -> int | None:
        """A step after ``target`` that reads it and declares ``field``: the dependency the plan already has."""
        for number in range(target + 1, len(self.steps) + 1):
            step = self.steps[number - 1]
            manifest = self.catalog.manifest(step.tool)
            if manifest is None or manifest.result.kind != "collection" or field not in manifest.result.fields:
                continue
            for name, value in step.args.items():
                spec = manifest.args.get(name)
                if (
                    spec is not None
                    and is_collection_argument(name, spec.type)
                    and collection_reference(name, value) == target
                ):
                    return number
        return None

    def _insertable(self, tool: str, field: str) -> tuple[str | None, str]:
        """``(collection input, "")`` if the guard may insert ``tool``, else ``(None, why not)``."""
        manifest: Manifest | None = self.catalog.manifest(tool)
        if manifest is None:
            return None, f"{tool} is not in the catalog"
        if manifest.result.kind != "collection" or field not in manifest.result.fields:
            return None, f"{tool} does not declare {field!r} in its result"
        inputs = [name for name, spec in manifest.args.items() if is_collection_argument(name, spec.type)]
        if len(inputs) != 1:
            return None, f"{tool} has no single collection input"
        others = sorted(name for name, spec in manifest.args.items() if spec.required and name != inputs[0])
        if others:
            return None, f"{tool} also needs {', '.join(others)}, which the guard cannot supply"
        spec = manifest.args[inputs[0]]
        if sensitive_kind(spec) is not None and not spec.accepts_step_values:
            return None, f"{tool}'s input does not accept values from other steps"
        return inputs[0], ""


def _point(name: str, value: Any, target: int) -> Any:
    """``value`` rewritten to take the collection of step ``target``, in the form it was written."""
    return target if name == FROM_STEP and type(value) is int else {FROM_STEP: target}
