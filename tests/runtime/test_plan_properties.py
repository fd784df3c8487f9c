"""Properties of the plan validator, of reference resolution and of the guards (hypothesis).

* Any JSON value, any text and any bytes given to ``validate_plan`` yield a
  ``Plan`` or a ``PlanInvalid`` whose codes come from the closed set — never
  another exception — and a mapping and its JSON text get the same answer.
* Plans generated from a small test catalog, following its schemas and the
  reference rules, always validate, and validate again to themselves.
* Resolution never hands a consumer an older step's result: when the
  referenced producer has no data it raises ``MissingInput`` naming it;
  otherwise every value comes from the step the plan names.
* The guards never add a tool outside the catalog, and a plan they do not
  send back for a new proposal is valid.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apps.runtime.executor import Catalog, StepError, StepResult, build_catalog
from apps.runtime.manifests import ArgSpec, Manifest
from apps.runtime.plans.api import (
    PLAN_ERROR_CODES,
    MissingInput,
    Plan,
    PlanInvalid,
    ProducerRule,
    apply_guards,
    resolve_step_args,
    validate_plan,
)
from apps.runtime.plans.references import TEMPLATE
from tests.runtime.test_plans import executor, quotes_catalog

CATALOG = quotes_catalog()
PROPERTY_SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MESSAGE_BOUND = 500  # every message is short, whatever the proposal holds


def outcome(raw: object, catalog: Catalog = CATALOG) -> Plan | PlanInvalid:
    """Validate; anything other than a Plan or PlanInvalid escapes and fails the property."""
    try:
        plan = validate_plan(raw, catalog)
    except PlanInvalid as invalid:
        assert invalid.errors
        for error in invalid.errors:
            assert error.code in PLAN_ERROR_CODES
            assert len(error.message) <= MESSAGE_BOUND, error.message
            assert error.step is None or error.step >= 1
        return invalid
    assert isinstance(plan, Plan)
    assert validate_plan(plan.as_json(), catalog) == plan
    assert validate_plan(plan.canonical_json(), catalog) == plan
    assert len(plan.digest()) == 64
    return plan


# --- arbitrary input --------------------------------------------------------------------------------------------------

scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**18), max_value=10**18)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20)
)
json_values = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=10), children, max_size=5),
    max_leaves=30,
)

TOOLS = sorted(CATALOG.executors)
ARG_NAMES = sorted({name for manifest in CATALOG.manifests.values() for name in manifest.args})
reference_texts = st.builds(
    lambda step, field, before, after: f"{before}{{{{step{step}.{field}}}}}{after}",
    st.integers(min_value=-1, max_value=8),
    st.sampled_from(["count", "first.path", "first.name", "first.text", "summary", "words", "path", "nope", "first"]),
    st.sampled_from(["", "x ", "{{"]),
    st.sampled_from(["", " y", "}}"]),
)
argument_values = (
    json_values
    | reference_texts
    | st.builds(lambda n: {"from_step": n}, st.integers(min_value=-1, max_value=8) | st.text(max_size=3))
    | st.integers(min_value=-1, max_value=12)
    | st.sampled_from(["~/Purchasing", "short", "medium", "*.pdf", "", "a\x00b", "x" * 130])
    | st.floats(min_value=-0.5, max_value=1.5)
    | st.lists(reference_texts | st.sampled_from(["red", "green", "pink", "supplier"]), max_size=4)
)


@st.composite
def plan_shaped(draw: st.DrawFn) -> dict[str, Any]:
    """Proposals close to a plan: mostly known tools and their own argument names, with wrong values."""
    steps: list[Any] = []
    for _ in range(draw(st.integers(min_value=0, max_value=8))):
        kind = draw(st.integers(min_value=0, max_value=9))
        if kind == 0:
            steps.append(draw(json_values))
            continue
        tool = draw(st.text(max_size=8)) if kind == 1 else draw(st.sampled_from(TOOLS))
        manifest = CATALOG.manifest(tool)
        names = st.sampled_from(sorted(manifest.args) if manifest is not None and manifest.args else ARG_NAMES)
        if kind == 2:
            names = names | st.text(max_size=6)
        steps.append({"tool": tool, "args": draw(st.dictionaries(names, argument_values, max_size=5))})
    return {"steps": steps}


@PROPERTY_SETTINGS
@given(json_values)
def test_arbitrary_json_never_crashes_the_validator(raw: Any) -> None:
    outcome(raw)


@PROPERTY_SETTINGS
@given(st.text())
def test_arbitrary_text_never_crashes_the_validator(raw: str) -> None:
    outcome(raw)


@PROPERTY_SETTINGS
@given(st.binary())
def test_arbitrary_bytes_never_crash_the_validator(raw: bytes) -> None:
    outcome(raw)


@PROPERTY_SETTINGS
@given(st.text(alphabet='{}[]":, 0123456789.-steptoolargsfrom_{}NaInfy\\', max_size=80))
def test_json_like_text_never_crashes_the_validator(raw: str) -> None:
    outcome(raw)


@PROPERTY_SETTINGS
@given(plan_shaped())
def test_plan_shaped_proposals_never_crash_and_agree_with_their_json_text(raw: dict[str, Any]) -> None:
    from_mapping = outcome(raw)
    from_text = outcome(json.dumps(raw))
    if isinstance(from_mapping, Plan):
        assert from_text == from_mapping
    else:
        assert isinstance(from_text, PlanInvalid)
        assert from_text.errors == from_mapping.errors


# --- valid plans from the catalog -------------------------------------------------------------------------------------

literal_text = st.text(max_size=30).filter(lambda text: "{{" not in text and "\x00" not in text)


def referable(manifests: list[Manifest]) -> list[str]:
    """Every ``{{stepN.field}}`` the earlier steps offer."""
    refs = []
    for number, producer in enumerate(manifests, start=1):
        shape = producer.result
        if shape.kind == "value":
            refs += [f"{{{{step{number}.{field}}}}}" for field in shape.fields]
        elif shape.kind == "collection":
            refs += [f"{{{{step{number}.count}}}}"] + [f"{{{{step{number}.first.{f}}}}}" for f in shape.fields]
    return refs


def scalar_strategy(spec: ArgSpec, kind: str) -> st.SearchStrategy[Any]:
    if kind in ("string", "path"):
        if spec.enum:
            return st.sampled_from(spec.enum)
        text = literal_text.filter(lambda t: bool(t)) if kind == "path" else literal_text
        return text.map(lambda t: t[: spec.max_length] if spec.max_length is not None else t).filter(
            lambda t: kind != "path" or bool(t)
        )
    if kind == "integer":
        low = int(spec.minimum) if spec.minimum is not None else -(10**6)
        return st.integers(min_value=low, max_value=int(spec.maximum) if spec.maximum is not None else 10**6)
    if kind == "number":
        return st.floats(min_value=spec.minimum, max_value=spec.maximum, allow_nan=False, allow_infinity=False)
    if kind == "boolean":
        return st.booleans()
    # A valid plan's literal object holds no reference opener ("{{"), in its keys or its values.
    literal_scalars = scalars.filter(lambda value: not (isinstance(value, str) and "{{" in value))
    return st.dictionaries(st.text(max_size=5).filter(lambda key: "{{" not in key), literal_scalars, max_size=3)


@st.composite
def valid_plans(draw: st.DrawFn, catalog: Catalog = CATALOG) -> dict[str, Any]:
    manifests = sorted(catalog.manifests.values(), key=lambda manifest: manifest.name)
    chosen: list[Manifest] = []
    steps = []
    for _ in range(draw(st.integers(min_value=1, max_value=12))):
        collections = [n for n, m in enumerate(chosen, start=1) if m.result.kind == "collection"]
        possible = [
            m
            for m in manifests
            if collections
            or not any(s.required and (n == "from_step" or s.type == "collection") for n, s in m.args.items())
        ]
        manifest = draw(st.sampled_from(possible))
        refs = referable(chosen)
        args: dict[str, Any] = {}
        for name, spec in manifest.args.items():
            if not spec.required and draw(st.booleans()):
                continue
            takes_refs = bool(refs) and (spec.accepts_step_values or (spec.sensitive is None and spec.type != "path"))
            if name == "from_step" or spec.type == "collection":
                if not collections:
                    continue
                target = draw(st.sampled_from(collections))
                args[name] = target if name == "from_step" and draw(st.booleans()) else {"from_step": target}
            elif spec.type == "array":
                item = scalar_strategy(spec, spec.items or "string")
                if takes_refs and spec.items == "string" and not spec.enum:
                    item = item | st.sampled_from(refs)
                args[name] = draw(st.lists(item, max_size=spec.max_items if spec.max_items is not None else 4))
            else:
                value = scalar_strategy(spec, spec.type)
                if takes_refs:
                    value = value | st.sampled_from(refs)
                    if spec.type == "string":
                        value = value | st.builds(lambda a, r: f"{a} {r}", literal_text, st.sampled_from(refs))
                args[name] = draw(value)
        chosen.append(manifest)
        steps.append({"tool": manifest.name, "args": args})
    return {"steps": steps}


@PROPERTY_SETTINGS
@given(valid_plans())
def test_plans_that_follow_the_catalog_always_validate(raw: dict[str, Any]) -> None:
    plan = validate_plan(raw, CATALOG)
    assert plan.as_json() == raw
    assert validate_plan(json.dumps(raw), CATALOG).digest() == plan.digest()


READER_RULE = ProducerRule("extract_entries", "text", "read_files")


@PROPERTY_SETTINGS
@given(valid_plans(), st.lists(st.sampled_from([*TOOLS, "fax"]), max_size=3))
def test_guards_never_add_a_tool_outside_the_catalog(raw: dict[str, Any], requested: list[str]) -> None:
    plan = validate_plan(raw, CATALOG)
    guarded = apply_guards(plan, CATALOG, requested_tools=requested, producer_rules=[READER_RULE])
    assert set(guarded.plan.tools) <= set(CATALOG.executors)
    assert set(guarded.missing_tools) == set(requested) - set(guarded.plan.tools)
    if not guarded.needs_new_proposal:
        assert validate_plan(guarded.plan, CATALOG) == guarded.plan
    if guarded.outcome == "unchanged":
        assert guarded.plan == plan


# --- resolution never passes an older step's result ------------------------------------------------------------------

CHAIN = build_catalog(
    {
        "source": executor("source", {"label": ArgSpec("string")}, "collection", ("origin", "name")),
        "relay": executor(
            "relay", {"from_step": ArgSpec("collection", required=True)}, "collection", ("origin", "name")
        ),
        "bundle": executor(
            "bundle",
            {"items": ArgSpec("collection", required=True), "note": ArgSpec("string")},
            "value",
            ("origin", "note"),
        ),
    }
)


@st.composite
def chain_plans(draw: st.DrawFn) -> tuple[Plan, dict[int, StepResult]]:
    steps: list[dict[str, Any]] = [{"tool": "source", "args": {}}]
    kinds = ["collection"]
    for number in range(2, draw(st.integers(min_value=2, max_value=8)) + 1):
        collections = [n for n, kind in enumerate(kinds, start=1) if kind == "collection"]
        tool = draw(st.sampled_from(["source", "relay", "bundle"]))
        if tool == "source":
            steps.append({"tool": "source", "args": {}})
            kinds.append("collection")
        elif tool == "relay":
            steps.append({"tool": "relay", "args": {"from_step": draw(st.sampled_from(collections))}})
            kinds.append("collection")
        else:
            args: dict[str, Any] = {"items": {"from_step": draw(st.sampled_from(collections))}}
            earlier = range(1, number)
            refs = [
                f"{{{{step{n}.first.origin}}}}" if kinds[n - 1] == "collection" else f"{{{{step{n}.origin}}}}"
                for n in earlier
            ]
            refs += [f"{{{{step{n}.count}}}}" for n in earlier if kinds[n - 1] == "collection"]
            if draw(st.booleans()):
                args["note"] = "from " + " and ".join(draw(st.lists(st.sampled_from(refs), min_size=1, max_size=3)))
            steps.append({"tool": "bundle", "args": args})
            kinds.append("value")
    plan = validate_plan({"steps": steps}, CHAIN)
    results: dict[int, StepResult] = {}
    for number, kind in enumerate(kinds, start=1):
        choice = draw(st.sampled_from(["items", "no_items", "empty", "failed", "partial", "not_run", "no_field"]))
        tagged = tuple({"origin": number, "name": f"item {k} of step {number}"} for k in range(draw(st.integers(1, 3))))
        if choice == "not_run":
            continue
        if choice == "empty":
            results[number] = StepResult(outcome="empty")
        elif choice == "failed":
            results[number] = StepResult(outcome="failed", error=StepError("unknown", "boom", "it broke"))
        elif kind == "collection":
            items = () if choice == "no_items" else tagged
            items = tuple({"name": item["name"]} for item in items) if choice == "no_field" else items
            error = StepError("recoverable", "slow", "partly") if choice == "partial" else None
            results[number] = StepResult(outcome="partial" if error else "success", items=items, error=error)
        else:
            value = {} if choice in ("no_items", "no_field") else {"origin": number, "note": f"note of {number}"}
            results[number] = StepResult(outcome="success", value=value)
    return plan, results


def has_data(results: Mapping[int, StepResult], target: int, path: str | None) -> bool:
    """Whether step ``target`` produced what a reference (``path`` None: its collection) needs."""
    result = results.get(target)
    if result is None or result.outcome in ("empty", "failed"):
        return False
    if path is None or path == "count":
        return bool(result.items)
    if path.startswith("first."):
        return bool(result.items) and result.items[0].get(path[6:]) is not None
    return result.value.get(path) is not None


def expected_value(results: Mapping[int, StepResult], target: int, path: str) -> Any:
    result = results[target]
    if path == "count":
        return len(result.items)
    if path.startswith("first."):
        return result.items[0][path[6:]]
    return result.value[path]


@PROPERTY_SETTINGS
@given(chain_plans())
def test_resolution_never_passes_an_older_steps_result(case: tuple[Plan, dict[int, StepResult]]) -> None:
    plan, results = case
    for index, step in enumerate(plan.steps, start=1):
        collection_args = {name: collection_target(value) for name, value in step.args.items() if name != "note"}
        note = step.args.get("note", "")
        template_refs = [(int(m.group(1)), m.group(2)) for m in TEMPLATE.finditer(note)]
        wanted = [(target, None) for target in collection_args.values()] + template_refs
        without_data = {target for target, path in wanted if not has_data(results, target, path)}
        try:
            resolved = resolve_step_args(plan, index, results, CHAIN)
        except MissingInput as missing:
            assert missing.step in without_data, (missing, without_data)
            assert missing.consumer == index
            continue
        assert not without_data
        for name, target in collection_args.items():
            assert resolved.values[name] == results[target].items
            assert all(item["name"].endswith(f"of step {target}") for item in resolved.values[name])
            assert resolved.sources(name) == {target}
        if template_refs:
            expected = TEMPLATE.sub(lambda m: str(expected_value(results, int(m.group(1)), m.group(2))), note)
            assert resolved.values["note"] == expected
            assert resolved.sources("note") == {target for target, _ in template_refs}


def collection_target(value: Any) -> int:
    return value if isinstance(value, int) else value["from_step"]
