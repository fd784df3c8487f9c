"""Reference resolution before invocation: the final arguments of one step, with their provenance.

Contract (runtime spec, "references"): results are not copied by hand into
the next step. Just before step ``index`` (1-based) crosses the invocation
boundary, :func:`resolve_step_args` replaces

* ``from_step: N`` (an argument named ``from_step``, or ``{"from_step": N}``
  as a ``collection`` argument) with the tuple of items step N returned;
* ``{{stepN.field}}`` with that value of step N's result — a whole-string
  reference passes the value itself (text when the argument is text), an
  embedded one its text; for collection producers ``count`` is the number of
  items and ``first.FIELD`` the field of the first item;

and then checks the final arguments against the schema again, raising
:class:`ArgumentsInvalid` with :class:`PlanError` entries for this step.

If a producer returned no data — it did not run, failed, was empty, returned
no items, or lacks the referenced field — :class:`MissingInput` names it and
why: the runtime stops that branch honestly. The consumer never receives an
older step's result or a placeholder instead.

Provenance travels with values: :class:`ResolvedArgs` maps every argument
that received something from another step to the step numbers it came from
(direct producers). Here a sensitive argument (``ArgSpec.sensitive`` — a
path, a recipient, an authorisation — and every argument of type ``path``)
refuses such values with ``provenance_refused`` unless it declares
``accepts_step_values``. What the declarations let through is verified at
the invocation boundary, not here, because it needs the owner:
:func:`apps.runtime.provenance.step_provenance_verify` checks that a
declared path argument, and every item field of a ``from_step`` collection
marked as a path (by the consumer's ``ArgSpec.item_sensitive`` or the
producer's ``ResultShape.sensitive_fields``), lies inside the owner's files
root, and refuses a recipient or an authorisation from another step (no
verifier exists for them). The resolved arguments are fresh copies of the
plan's values; the items of a collection are the producer's own and are
read-only by contract.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from apps.runtime.executor import Catalog, StepResult
from apps.runtime.manifests import ArgSpec, Manifest
from apps.runtime.plans.references import (
    COUNT_FIELD,
    ORDER_WORDS,
    TEMPLATE,
    collection_reference,
    is_collection_argument,
    order_problem,
    scan_text,
    whole_reference,
)
from apps.runtime.plans.schema import check_argument, check_collection, sensitive_kind
from apps.runtime.plans.types import ArgumentsInvalid, Plan, PlanError, PlanErrorCode, short, show, where
from apps.runtime.plans.validation import CombinationRule, referable_field

MissingReason = Literal["not_run", "failed", "empty", "no_items", "field_absent"]

_REASON_WORDS: dict[str, str] = {
    "not_run": "has no result",
    "failed": "failed",
    "empty": "found nothing",
    "no_items": "returned no items",
    "field_absent": "did not return the field",
}


class MissingInput(Exception):
    """Step ``step`` produced nothing for ``argument`` of step ``consumer``: that branch stops here."""

    def __init__(self, *, step: int, reason: MissingReason, consumer: int, argument: str) -> None:
        self.step = step
        self.reason = reason
        self.consumer = consumer
        self.argument = argument
        super().__init__(
            f"step {consumer} cannot run: its argument {short(argument)!r} needs step {step}, "
            f"which {_REASON_WORDS[reason]}"
        )


@dataclass(frozen=True)
class ResolvedArgs:
    """The final arguments of a step and, per argument, the steps its value came from."""

    values: dict[str, Any]
    provenance: Mapping[str, frozenset[int]] = field(default_factory=dict)

    def sources(self, argument: str) -> frozenset[int]:
        """The steps ``argument``'s value came from; empty when the plan wrote it literally."""
        return self.provenance.get(argument, frozenset())


def resolve_step_args(
    plan: Plan,
    index: int,
    results: Mapping[int, StepResult],
    catalog: Catalog,
    *,
    combination_rules: Mapping[str, CombinationRule] | None = None,
) -> ResolvedArgs:
    """Resolve the references of step ``index`` (1-based) from ``results`` (keyed by step number).

    Raises :class:`MissingInput` when a referenced producer has no data and
    :class:`ArgumentsInvalid` when the final arguments break the schema.
    """
    if not 1 <= index <= len(plan.steps):
        raise IndexError(f"the plan has no step {index}")
    step = plan.steps[index - 1]
    manifest = catalog.manifest(step.tool)
    if manifest is None:
        error = PlanError(
            index,
            None,
            "unknown_executor",
            f"step {index}: no executor {show(step.tool)} in the catalog",
        )
        raise ArgumentsInvalid((error,))
    resolver = _Resolver(plan, index, results, catalog)
    values: dict[str, Any] = {}
    provenance: dict[str, frozenset[int]] = {}
    for name, value in step.args.items():
        spec = manifest.args.get(name)
        if spec is None:
            resolver.error(name, "unknown_argument", f"{where(index, step.tool, name)} is not in the schema")
            continue
        resolver.sources = set()
        resolver.argument = name
        if is_collection_argument(name, spec.type):
            values[name] = resolver.collection(value)
        else:
            values[name] = resolver.value(value, spec)
        if resolver.sources:
            provenance[name] = frozenset(resolver.sources)
    _check_final(index, manifest, values, provenance, resolver)
    if not resolver.errors and combination_rules is not None:
        rule = combination_rules.get(step.tool)
        message = rule(values) if rule is not None else None
        if message:
            resolver.error(None, "inconsistent_combination", f"{where(index, step.tool)}: {message[:200]}")
    if resolver.errors:
        raise ArgumentsInvalid(tuple(resolver.errors))
    return ResolvedArgs(values, provenance)


def _check_final(
    index: int, manifest: Manifest, values: dict[str, Any], provenance: dict[str, frozenset[int]], resolver: _Resolver
) -> None:
    for name, spec in manifest.args.items():
        if name in resolver.refused:
            continue
        if name not in values:
            if spec.required:
                resolver.error(name, "missing_argument", f"{where(index, manifest.name, name)} is required")
            continue
        if name in provenance and not spec.accepts_step_values:
            kind = sensitive_kind(spec)
            if kind is not None:
                steps = ", ".join(str(n) for n in sorted(provenance[name]))
                resolver.error(
                    name,
                    "provenance_refused",
                    f"{where(index, manifest.name, name)} is a {kind} and does not accept values from step {steps}",
                )
                continue
        if is_collection_argument(name, spec.type):
            problem = check_collection(spec, values[name])
        else:
            problem = check_argument(spec, values[name], resolved=True)
        if problem is not None:
            resolver.error(name, problem[0], f"{where(index, manifest.name, name)} {problem[1]}")


class _Resolver:
    """The state of resolving one step: where values come from and what went wrong."""

    def __init__(self, plan: Plan, index: int, results: Mapping[int, StepResult], catalog: Catalog) -> None:
        self.plan = plan
        self.index = index
        self.tool = plan.steps[index - 1].tool
        self.results = results
        self.catalog = catalog
        self.errors: list[PlanError] = []
        self.refused: set[str] = set()  # arguments already refused: no second error for the same cause
        self.sources: set[int] = set()
        self.argument = ""

    def error(self, argument: str | None, code: PlanErrorCode, message: str) -> None:
        if argument is not None:
            self.refused.add(argument)
        self.errors.append(PlanError(self.index, None if argument is None else short(argument), code, message))

    def _located(self) -> str:
        return where(self.index, self.tool, self.argument)

    def _producer(self, target: int, text: str) -> tuple[Manifest, StepResult] | None:
        """The producer's manifest and its data, or ``None`` after recording why it may not be used."""
        code = order_problem(self.index, target, len(self.plan.steps))
        if code is not None:
            self.error(self.argument, code, f"{self._located()}: {text} refers to step {target}: {ORDER_WORDS[code]}")
            return None
        manifest = self.catalog.manifest(self.plan.steps[target - 1].tool)
        if manifest is None:
            self.error(
                self.argument,
                "unknown_executor",
                f"{self._located()}: step {target} names no executor in the catalog",
            )
            return None
        result = self.results.get(target)
        if result is None:
            raise MissingInput(step=target, reason="not_run", consumer=self.index, argument=self.argument)
        if result.outcome in ("failed", "empty"):
            raise MissingInput(step=target, reason=result.outcome, consumer=self.index, argument=self.argument)
        return manifest, result

    def collection(self, value: Any) -> Any:
        target = collection_reference(self.argument, value)
        if isinstance(target, str):
            self.error(self.argument, "malformed_reference", f"{self._located()}: {target}")
            return value
        found = self._producer(target, f"from_step {target}")
        if found is None:
            return value
        manifest, result = found
        if manifest.result.kind != "collection":
            self.error(
                self.argument,
                "reference_to_non_collection",
                f"{self._located()} takes a collection from step {target} ({manifest.name}), "
                f"whose result is {manifest.result.kind}",
            )
            return value
        if not result.items:
            raise MissingInput(step=target, reason="no_items", consumer=self.index, argument=self.argument)
        self.sources.add(target)
        return tuple(result.items)

    def value(self, value: Any, spec: ArgSpec | None) -> Any:
        """A copy of ``value`` with its references replaced; ``spec`` says when text is wanted."""
        if isinstance(value, str):
            if "{{" not in value:
                return value
            wants_text = spec is not None and spec.type in ("string", "path")
            return self._text(value, wants_text)
        if isinstance(value, list | tuple):
            text_items = spec is not None and spec.type == "array" and spec.items in ("string", "path")
            item_spec = _ITEM_TEXT if text_items else None
            return [self.value(item, item_spec) for item in value]
        if isinstance(value, Mapping):
            return {key: self.value(item, None) for key, item in value.items()}
        return value

    def _text(self, text: str, wants_text: bool) -> Any:
        refs: list[tuple[int, str]] = []
        malformed: list[str] = []
        scan_text(text, refs, malformed)
        for fragment in malformed:
            self.error(
                self.argument,
                "malformed_reference",
                f"{self._located()}: {show(fragment)} is not a reference {{{{stepN.field}}}}",
            )
        if not refs:
            return text
        whole = whole_reference(text)
        if whole is not None:
            found = self._lookup(*whole)
            return text if found is _UNRESOLVED else (_as_text(found) if wants_text else found)

        def replace(match: Any) -> str:
            found = self._lookup(int(match.group(1)), match.group(2))
            return str(match.group(0)) if found is _UNRESOLVED else _as_text(found)

        return TEMPLATE.sub(replace, text)

    def _lookup(self, target: int, path: str) -> Any:
        text = f"{{{{step{target}.{path}}}}}"
        found = self._producer(target, text)
        if found is None:
            return _UNRESOLVED
        manifest, result = found
        if not referable_field(manifest, path):
            self.error(
                self.argument,
                "reference_to_undeclared_field",
                f"{self._located()}: {text}: step {target} ({manifest.name}) does not declare {show(path)}",
            )
            return _UNRESOLVED
        if manifest.result.kind == "collection":
            if not result.items:
                raise MissingInput(step=target, reason="no_items", consumer=self.index, argument=self.argument)
            self.sources.add(target)
            if path == COUNT_FIELD:
                return len(result.items)
            found_value = result.items[0].get(path.partition(".")[2])
        else:
            found_value = result.value.get(path)
        if found_value is None:
            raise MissingInput(step=target, reason="field_absent", consumer=self.index, argument=self.argument)
        self.sources.add(target)
        return found_value


_UNRESOLVED: Any = object()
_ITEM_TEXT = ArgSpec(type="string")


def _as_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    return json.dumps(value, ensure_ascii=False, default=str, sort_keys=True)
