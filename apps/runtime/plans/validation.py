"""Validation of a proposed plan against the catalog.

Contract (runtime spec, "plans" and "references"): a plan is a finite list of
typed steps ``{"tool", "args"}``. :func:`validate_plan` accepts a proposal —
a mapping, JSON text (at most ``MAX_PLAN_BYTES`` of UTF-8), or a
:class:`Plan` to validate again (fast path, autopath, after the guards) —
and either returns the :class:`Plan` or raises :class:`PlanInvalid` listing
the problems it found (at most ``MAX_REPORTED_ERRORS``, then
``too_many_errors``), each a :class:`PlanError` with the 1-based step, the
argument and a code from the closed set ``PLAN_ERROR_CODES``. It raises
nothing else, whatever the input.

It rejects:

* unknown executors (``tool`` not in the catalog) and unknown keys;
* out-of-schema arguments: unknown, missing required, wrong type, out of
  range, not in the enum, too long, too many items (see ``plan_schema``);
* references (see ``plan_references``) to the same step, a future step, a
  step that does not exist, ``from_step`` to a producer whose result is not a
  collection, and ``{{stepN.field}}`` to a field the producer's result shape
  does not declare;
* provenance: a value from another step may not reach an argument that is
  sensitive (``ArgSpec.sensitive`` — a path, a recipient, an authorisation —
  and every argument of type ``path``) unless that argument declares
  ``accepts_step_values``;
* inconsistent combinations: a caller may pass ``combination_rules``, one
  callable per executor name that receives a step's arguments (only when the
  step is otherwise valid; references still unresolved) and returns a
  message when they do not go together.

The returned plan is a fresh copy: later changes to the proposal do not
change it.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from apps.runtime.executor import Catalog
from apps.runtime.manifests import ArgSpec, Manifest
from apps.runtime.plans.references import (
    COUNT_FIELD,
    FIRST_ITEM,
    FROM_STEP,
    ORDER_WORDS,
    TemplateRef,
    collection_reference,
    is_collection_argument,
    order_problem,
    scan_text,
)
from apps.runtime.plans.schema import Problem, check_argument, literal_check, sensitive_kind
from apps.runtime.plans.types import (
    MAX_PLAN_BYTES,
    MAX_PLAN_STEPS,
    MAX_REPORTED_ERRORS,
    MAX_VALUE_DEPTH,
    Plan,
    PlanError,
    PlanErrorCode,
    PlanInvalid,
    Step,
    short,
    show,
    where,
)

CombinationRule = Callable[[Mapping[str, Any]], str | None]


_STEP_KEYS = frozenset({"tool", "args"})


class _Full(Exception):
    """Enough errors reported: stop validating."""


class _NotJsonValue(Exception):
    pass


class _TooDeep(Exception):
    pass


class _Errors:
    __slots__ = ("items",)

    def __init__(self) -> None:
        self.items: list[PlanError] = []

    def add(self, step: int | None, argument: str | None, code: PlanErrorCode, message: str) -> None:
        if len(self.items) >= MAX_REPORTED_ERRORS:
            raise _Full
        self.items.append(PlanError(step, None if argument is None else short(argument), code, message))


def validate_plan(
    raw: object,
    catalog: Catalog,
    *,
    max_steps: int = MAX_PLAN_STEPS,
    combination_rules: Mapping[str, CombinationRule] | None = None,
) -> Plan:
    """Validate a proposed plan against ``catalog``; return the plan or raise :class:`PlanInvalid`."""
    data = _load(raw)
    errors = _Errors()
    steps: list[Step] = []
    try:
        raw_steps = _plan_steps(data, errors, max_steps)
        producers: list[Manifest | None] = []
        for number, raw_step in enumerate(raw_steps, start=1):
            checked = _validate_step(number, raw_step, len(raw_steps), producers, catalog, combination_rules, errors)
            if checked is None:
                producers.append(None)
            else:
                steps.append(checked[0])
                producers.append(checked[1])
    except _Full:
        errors.items.append(
            PlanError(None, None, "too_many_errors", f"more than {MAX_REPORTED_ERRORS} problems: validation stopped")
        )
    if errors.items:
        raise PlanInvalid(tuple(errors.items))
    return Plan(tuple(steps))


def _refuse(code: PlanErrorCode, message: str) -> PlanInvalid:
    return PlanInvalid((PlanError(None, None, code, message),))


def _load(raw: object) -> Any:
    if isinstance(raw, Plan):
        return raw.as_json()
    if isinstance(raw, bytes | bytearray):
        if len(raw) > MAX_PLAN_BYTES:
            raise _refuse("too_large", f"the plan has {len(raw)} bytes, more than {MAX_PLAN_BYTES}")
        try:
            raw = bytes(raw).decode("utf-8")
        except UnicodeDecodeError:
            raise _refuse("not_json", "the plan is not UTF-8 text") from None
    if not isinstance(raw, str):
        return raw
    size = len(raw) if raw.isascii() else len(raw.encode("utf-8", "surrogatepass"))
    if size > MAX_PLAN_BYTES:
        raise _refuse("too_large", f"the plan has {size} bytes, more than {MAX_PLAN_BYTES}")
    try:
        return _DECODER.decode(raw)
    except RecursionError:
        raise _refuse("too_deep", "the plan nests too deeply to read") from None
    except ValueError as error:  # JSONDecodeError, NaN/Infinity, integers too long to read
        detail = error.msg if isinstance(error, json.JSONDecodeError) else "a value JSON cannot carry"
        raise _refuse("not_json", f"the plan is not JSON: {show(detail)}") from None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


_DECODER = json.JSONDecoder(parse_constant=_no_constant)  # NaN and Infinity are not JSON: refused


def _plan_steps(data: Any, errors: _Errors, max_steps: int) -> list[Any]:
    if not isinstance(data, Mapping):
        raise _refuse("not_an_object", f'a plan is an object {{"steps": [...]}}, got {show(data)}')
    for key in data:
        if key != "steps":
            errors.add(None, None, "unknown_key", f"the plan has an unknown key {show(key)}; it holds only 'steps'")
    raw_steps = data.get("steps")
    if raw_steps is None:
        errors.add(None, None, "no_steps", "the plan has no 'steps'")
        return []
    if not isinstance(raw_steps, list | tuple):
        errors.add(None, None, "wrong_type", f"'steps' must be a list of steps, got {show(raw_steps)}")
        return []
    if not raw_steps:
        errors.add(None, None, "no_steps", "the plan has no steps")
    if len(raw_steps) > max_steps:
        errors.add(None, None, "too_many_steps", f"the plan has {len(raw_steps)} steps, more than {max_steps}")
        return []
    return list(raw_steps)


@dataclass(frozen=True, slots=True)
class _ArgRule:
    """One argument of one manifest, prepared once: the validator's hot loop only reads these."""

    spec: ArgSpec
    collection: bool
    guarded: str | None  # the sensitive kind, when the argument refuses values from other steps
    check: Callable[[Any], Problem | None]  # for a value with no reference in it


_compiled: dict[int, tuple[Manifest, dict[str, _ArgRule], tuple[str, ...]]] = {}
_COMPILED_BOUND = 4096


def _rules(manifest: Manifest) -> tuple[dict[str, _ArgRule], tuple[str, ...]]:
    """The prepared argument rules and required arguments of ``manifest`` (cached per manifest object)."""
    entry = _compiled.get(id(manifest))
    if entry is not None and entry[0] is manifest:
        return entry[1], entry[2]
    rules = {
        name: _ArgRule(
            spec=spec,
            collection=is_collection_argument(name, spec.type),
            guarded=None if spec.accepts_step_values else sensitive_kind(spec),
            check=literal_check(spec),
        )
        for name, spec in manifest.args.items()
    }
    required = tuple(name for name, spec in manifest.args.items() if spec.required)
    if len(_compiled) >= _COMPILED_BOUND:
        _compiled.clear()
    _compiled[id(manifest)] = (manifest, rules, required)  # holding the manifest keeps its id unique
    return rules, required


def _validate_step(
    number: int,
    raw_step: Any,
    total: int,
    producers: list[Manifest | None],
    catalog: Catalog,
    combination_rules: Mapping[str, CombinationRule] | None,
    errors: _Errors,
) -> tuple[Step, Manifest] | None:
    if type(raw_step) is not dict and not isinstance(raw_step, Mapping):
        errors.add(number, None, "not_an_object", f"step {number} must be an object with 'tool' and 'args'")
        return None
    if len(raw_step) > 2 or not raw_step.keys() <= _STEP_KEYS:
        for key in raw_step:
            if key not in _STEP_KEYS:
                errors.add(number, None, "unknown_key", f"step {number} has an unknown key {show(key)}")
    tool = raw_step.get("tool")
    if type(tool) is not str:
        errors.add(number, None, "unknown_executor", f"step {number} names no executor ('tool' is {show(tool)})")
        return None
    manifest = catalog.manifest(tool)
    if manifest is None:
        errors.add(number, None, "unknown_executor", f"step {number}: no executor {show(tool)} in the catalog")
        return None
    raw_args = raw_step.get("args", _NO_ARGS)
    if type(raw_args) is not dict and not isinstance(raw_args, Mapping):
        errors.add(number, "args", "not_an_object", f"{where(number, tool)}: 'args' must be an object")
        return None
    before = len(errors.items)
    rules, required = _rules(manifest)
    args: dict[str, Any] = {}
    for name, value in raw_args.items():
        rule = rules.get(name)
        if rule is None:
            accepted = ", ".join(sorted(rules)) or "none"
            errors.add(
                number,
                str(name),
                "unknown_argument",
                f"{where(number, tool, str(name))} is not in the schema (accepted: {accepted})",
            )
            continue
        value_type = type(value)
        if rule.collection:
            target = value if value_type is int and name == FROM_STEP else collection_reference(name, value)
            if type(target) is not int:
                errors.add(number, name, "malformed_reference", f"{where(number, tool, name)}: {target}")
                continue
            if 0 < target < number:
                producer = producers[target - 1]
                if producer is not None and producer.result.kind != "collection":
                    errors.add(
                        number,
                        name,
                        "reference_to_non_collection",
                        f"{where(number, tool, name)} takes a collection from step {target} ({producer.name}), "
                        f"whose result is {producer.result.kind}",
                    )
            else:
                code = order_problem(number, target, total) or "reference_out_of_range"
                errors.add(
                    number, name, code, f"{where(number, tool, name)} refers to step {target}: {ORDER_WORDS[code]}"
                )
            if rule.guarded is not None:
                _refuse_provenance(number, tool, name, rule.guarded, [target], errors)
            args[name] = target if value_type is int else {FROM_STEP: target}
            continue
        if value_type is str:
            literal = "{{" not in value
        elif value_type is list:
            literal = _plain_texts(value)
        elif value_type is float:
            literal = math.isfinite(value)
        else:
            literal = value_type is int or value_type is bool or value is None
        if literal:  # no reference inside: its final value is known now
            problem = rule.check(value)
            args[name] = list(value) if value_type is list else value
        else:
            checked = _check_composite(number, tool, name, rule, value, total, producers, errors)
            if checked is _REFUSED:
                continue
            args[name] = checked
            problem = None
        if problem is not None:
            errors.add(number, name, problem[0], f"{where(number, tool, name)} {problem[1]}")
    for name in required:
        if name not in raw_args:
            errors.add(number, name, "missing_argument", f"{where(number, tool, name)} is required")
    if len(errors.items) == before and combination_rules is not None:
        rule_for_tool = combination_rules.get(tool)
        message = rule_for_tool(args) if rule_for_tool is not None else None
        if message:
            errors.add(number, None, "inconsistent_combination", f"{where(number, tool)}: {message[:200]}")
    return Step(tool, args), manifest


def _check_composite(
    number: int,
    tool: str,
    name: str,
    rule: _ArgRule,
    value: Any,
    total: int,
    producers: list[Manifest | None],
    errors: _Errors,
) -> Any:
    """Check a value that holds references, containers or non-JSON data; return its copy or ``_REFUSED``."""
    spec = rule.spec
    if type(value) is not list and isinstance(value, Mapping) and FROM_STEP in value and len(value) == 1:
        errors.add(
            number,
            name,
            "wrong_type",
            f"{where(number, tool, name)} has type {spec.type}: it cannot take the collection {{'from_step': N}}",
        )
        return _REFUSED
    refs: list[TemplateRef] = []
    malformed: list[str] = []
    try:
        value = _copy_scan(value, 0, refs, malformed)
    except _TooDeep:
        errors.add(number, name, "too_deep", f"{where(number, tool, name)} nests deeper than {MAX_VALUE_DEPTH}")
        return _REFUSED
    except _NotJsonValue as error:
        errors.add(number, name, "wrong_type", f"{where(number, tool, name)} holds {error}, not a JSON value")
        return _REFUSED
    for fragment in malformed:
        errors.add(
            number,
            name,
            "malformed_reference",
            f"{where(number, tool, name)}: {show(fragment)} is not a reference {{{{stepN.field}}}}",
        )
    if refs:
        for ref in dict.fromkeys(refs):
            _check_template_ref(number, tool, name, ref, total, producers, errors)
        if rule.guarded is not None:
            _refuse_provenance(number, tool, name, rule.guarded, [ref[0] for ref in refs], errors)
    problem = check_argument(spec, value, resolved=False)
    if problem is not None:
        errors.add(number, name, problem[0], f"{where(number, tool, name)} {problem[1]}")
    return value


def _refuse_provenance(number: int, tool: str, name: str, kind: str, sources: list[int], errors: _Errors) -> None:
    errors.add(
        number,
        name,
        "provenance_refused",
        f"{where(number, tool, name)} is a {kind} and does not accept values from other steps "
        f"(here from step {', '.join(map(str, sorted(set(sources))))})",
    )


_REFUSED: Any = object()
_NO_ARGS: Mapping[str, Any] = {}


def _check_template_ref(
    number: int, tool: str, name: str, ref: TemplateRef, total: int, producers: list[Manifest | None], errors: _Errors
) -> None:
    target, field = ref
    text = f"{{{{step{target}.{field}}}}}"
    code = order_problem(number, target, total)
    if code is not None:
        errors.add(
            number,
            name,
            code,
            f"{where(number, tool, name)}: {text} refers to step {target}: {ORDER_WORDS[code]}",
        )
        return
    producer = producers[target - 1]
    if producer is None or referable_field(producer, field):
        return
    shape = producer.result
    offered = _offered_fields(producer)
    errors.add(
        number,
        name,
        "reference_to_undeclared_field",
        f"{where(number, tool, name)}: {text}: step {target} ({producer.name}) returns "
        f"a {shape.kind} that does not declare {show(field)} (it offers: {offered})",
    )


def referable_field(producer: Manifest, field: str) -> bool:
    """Whether ``{{stepN.<field>}}`` names something ``producer``'s result shape declares."""
    shape = producer.result
    if shape.kind == "value":
        return field in shape.fields
    if shape.kind == "collection":
        if field == COUNT_FIELD:
            return True
        head, _, rest = field.partition(".")
        return head == FIRST_ITEM and rest in shape.fields
    return False


def _offered_fields(producer: Manifest) -> str:
    shape = producer.result
    if shape.kind == "value":
        return ", ".join(shape.fields) or "nothing"
    if shape.kind == "collection":
        return ", ".join([COUNT_FIELD, *(f"{FIRST_ITEM}.{field}" for field in shape.fields)])
    return "nothing"


def _plain_texts(values: list[Any]) -> bool:
    """True for a list of strings none of which holds a reference (the common ``fields``/``tags`` case)."""
    return all(type(item) is str and "{{" not in item for item in values)


def _copy_scan(value: Any, depth: int, refs: list[TemplateRef], malformed: list[str]) -> Any:
    """A copy of one JSON argument value, collecting the step references in its strings."""
    value_type = type(value)
    if value_type is str:
        if "{{" in value:
            scan_text(value, refs, malformed)
        return value
    if value_type is int or value_type is bool or value is None:
        return value
    if value_type is float:
        if not math.isfinite(value):
            raise _NotJsonValue("a non-finite number")
        return value
    if depth >= MAX_VALUE_DEPTH:
        raise _TooDeep
    if value_type is list:
        return [_copy_scan(item, depth + 1, refs, malformed) for item in value]
    if value_type is dict:
        copied: dict[str, Any] = {}
        for key, item in value.items():
            if type(key) is not str:
                raise _NotJsonValue("a key that is not text")
            copied[key] = _copy_scan(item, depth + 1, refs, malformed)
        return copied
    return _copy_scan_other(value, depth, refs, malformed)


def _copy_scan_other(value: Any, depth: int, refs: list[TemplateRef], malformed: list[str]) -> Any:
    """The rare cases: subclasses of JSON types, tuples and other mappings from Python callers."""
    if isinstance(value, str):
        return _copy_scan(str(value), depth, refs, malformed)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return _copy_scan(float(value), depth, refs, malformed)
    if isinstance(value, list | tuple):
        return _copy_scan(list(value), depth, refs, malformed)
    if isinstance(value, Mapping):
        return _copy_scan(dict(value), depth, refs, malformed)
    raise _NotJsonValue(f"a {type(value).__name__}")
