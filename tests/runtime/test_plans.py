"""Plans: validation, reference resolution before invocation, provenance and the shared guards.

Every test builds its own test-only executors with ``Manifest(...)`` and
``build_catalog({...})``; none depends on a real executor. The bounds cited
come from ``apps.runtime.plans.types``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pytest

from apps.runtime.executor import Catalog, ExecutionContext, StepError, StepResult, build_catalog
from apps.runtime.manifests import ArgSpec, ConsentSpec, Manifest, ResultShape
from apps.runtime.plans import guards as plan_guards
from apps.runtime.plans.api import (
    ECHO_CHARS,
    MAX_PLAN_BYTES,
    MAX_PLAN_STEPS,
    MAX_REPORTED_ERRORS,
    MAX_VALUE_DEPTH,
    PLAN_ERROR_CODES,
    ArgumentsInvalid,
    MissingInput,
    Plan,
    PlanInvalid,
    ProducerRule,
    ProducerRuleError,
    Step,
    apply_guards,
    register_producer_rule,
    registered_producer_rules,
    resolve_step_args,
    validate_plan,
)

# --- a test-only catalog ------------------------------------------------------------------------------------------


@dataclass
class FakeExecutor:
    """A test executor: only its manifest matters to plans."""

    manifest: Manifest

    def run(self, context: ExecutionContext, args: Mapping[str, Any]) -> StepResult:
        return StepResult(outcome="empty")


def executor(
    name: str, args: Mapping[str, ArgSpec], kind: str, fields: tuple[str, ...] = (), **extra: Any
) -> FakeExecutor:
    result = ResultShape(kind, fields)  # type: ignore[arg-type]
    return FakeExecutor(Manifest(name=name, purpose=f"test executor {name}", args=args, result=result, **extra))


def quotes_executors() -> list[FakeExecutor]:
    """The spec's example, plus executors that exercise every argument type and provenance rule."""
    return [
        executor(
            "find_files",
            {
                "base_path": ArgSpec("path", required=True, max_length=200),
                "pattern": ArgSpec("string", max_length=100),
                "limit": ArgSpec("integer", minimum=1, maximum=1000),
            },
            "collection",
            ("path", "name", "size"),
        ),
        executor("read_files", {"from_step": ArgSpec("collection", required=True)}, "collection", ("path", "text")),
        executor(
            "extract_entries",
            {
                "from_step": ArgSpec("collection", required=True),
                "fields": ArgSpec("array", required=True, items="string", max_items=10, max_length=40),
            },
            "collection",
            ("supplier", "price", "path"),
        ),
        executor(
            "create_files_spreadsheet",
            {
                "from_step": ArgSpec("collection", required=True),
                "path": ArgSpec("path", required=True, sensitive="path"),
                "title": ArgSpec("string", max_length=60),
            },
            "value",
            ("path", "rows"),
        ),
        executor(
            "send_message",
            {
                "recipient": ArgSpec("string", required=True, sensitive="recipient"),
                "subject": ArgSpec("string", max_length=120),
                "body": ArgSpec("string"),
            },
            "value",
            ("message_id",),
            consent=ConsentSpec(mode="confirm", shows=("action", "destination")),
        ),
        executor(
            "summarise",
            {
                "documents": ArgSpec("collection", required=True, max_items=3),
                "style": ArgSpec("string", enum=("short", "long")),
                "words": ArgSpec("integer", minimum=10, maximum=500),
            },
            "value",
            ("summary", "words"),
        ),
        executor(
            "copy_file",
            {
                "source": ArgSpec("path", required=True, sensitive="path", accepts_step_values=True),
                "destination": ArgSpec("path", required=True, sensitive="path"),
            },
            "value",
            ("path",),
        ),
        executor(
            "set_options",
            {
                "enabled": ArgSpec("boolean"),
                "ratio": ArgSpec("number", minimum=0, maximum=1),
                "tags": ArgSpec("array", items="string", max_items=3, enum=("red", "green", "blue")),
                "sizes": ArgSpec("array", items="integer", minimum=0, maximum=9),
                "options": ArgSpec("object"),
            },
            "none",
        ),
    ]


def quotes_catalog(*exclude: str) -> Catalog:
    return build_catalog({e.manifest.name: e for e in quotes_executors() if e.manifest.name not in exclude})


@pytest.fixture
def catalog() -> Catalog:
    return quotes_catalog()


def spec_example() -> dict[str, Any]:
    """The runtime spec's example plan, verbatim."""
    return {
        "steps": [
            {"tool": "find_files", "args": {"base_path": "~/Purchasing", "pattern": "*.pdf"}},
            {"tool": "read_files", "args": {"from_step": 1}},
            {"tool": "extract_entries", "args": {"from_step": 2, "fields": ["supplier", "price"]}},
            {"tool": "create_files_spreadsheet", "args": {"from_step": 3, "path": "~/Purchasing/summary.xlsx"}},
        ]
    }


def plan_of(*steps: tuple[str, dict[str, Any]]) -> dict[str, Any]:
    return {"steps": [{"tool": tool, "args": args} for tool, args in steps]}


FIND = ("find_files", {"base_path": "~/Purchasing"})


def refusal(raw: object, catalog: Catalog, **kwargs: Any) -> PlanInvalid:
    with pytest.raises(PlanInvalid) as caught:
        validate_plan(raw, catalog, **kwargs)
    assert set(caught.value.codes) <= PLAN_ERROR_CODES
    return caught.value


def only_error(raw: object, catalog: Catalog) -> tuple[int | None, str | None, str, str]:
    errors = refusal(raw, catalog).errors
    assert len(errors) == 1, errors
    error = errors[0]
    return error.step, error.argument, error.code, error.message


# --- plan types -----------------------------------------------------------------------------------------------------


def test_spec_example_plan_validates(catalog: Catalog) -> None:
    plan = validate_plan(spec_example(), catalog)
    assert plan.tools == ("find_files", "read_files", "extract_entries", "create_files_spreadsheet")
    assert plan.steps[1] == Step("read_files", {"from_step": 1})
    assert plan.as_json() == spec_example()


def test_json_text_and_bytes_validate_to_the_same_plan(catalog: Catalog) -> None:
    text = json.dumps(spec_example())
    assert validate_plan(text, catalog) == validate_plan(spec_example(), catalog)
    assert validate_plan(text.encode(), catalog) == validate_plan(spec_example(), catalog)


def test_a_plan_validates_again_as_itself(catalog: Catalog) -> None:
    plan = validate_plan(spec_example(), catalog)
    assert validate_plan(plan, catalog) == plan


def test_digest_is_sha256_of_canonical_json_and_ignores_key_order(catalog: Catalog) -> None:
    plan = validate_plan(spec_example(), catalog)
    reordered = {
        "steps": [{"args": dict(reversed(list(s["args"].items()))), "tool": s["tool"]} for s in spec_example()["steps"]]
    }
    assert len(plan.digest()) == 64
    assert validate_plan(reordered, catalog).digest() == plan.digest()


def test_digest_changes_with_any_edit_of_the_plan(catalog: Catalog) -> None:
    original = validate_plan(spec_example(), catalog).digest()
    edited = spec_example()
    edited["steps"][3]["args"]["path"] = "~/Purchasing/summary2.xlsx"
    assert validate_plan(edited, catalog).digest() != original


def test_validated_plan_does_not_change_when_the_proposal_is_edited_later(catalog: Catalog) -> None:
    raw = spec_example()
    plan = validate_plan(raw, catalog)
    digest = plan.digest()
    raw["steps"][2]["args"]["fields"].append("iban")
    raw["steps"][0]["args"]["pattern"] = "*"
    assert plan.digest() == digest


def test_missing_args_mean_no_arguments() -> None:
    catalog = build_catalog({"noop": executor("noop", {}, "none")})
    assert validate_plan({"steps": [{"tool": "noop"}]}, catalog).steps[0].args == {}


# --- the proposal as a whole ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ([], "not_an_object"),
        ("[1, 2]", "not_an_object"),
        (None, "not_an_object"),
        ("{not json", "not_json"),
        ("", "not_json"),
        (b"\xff\xfe", "not_json"),
        ('{"steps": [NaN]}', "not_json"),
        ("[" * 150_000 + "]" * 150_000, "too_large"),
        ("[" * 50_000 + "]" * 50_000, "too_deep"),
        ({}, "no_steps"),
        ({"steps": []}, "no_steps"),
        ({"steps": "find_files"}, "wrong_type"),
    ],
)
def test_proposal_that_is_not_a_plan_is_refused(catalog: Catalog, raw: object, code: str) -> None:
    error = refusal(raw, catalog).errors[0]
    assert (error.step, error.code) == (None, code)


def test_plan_text_over_the_size_bound_is_too_large(catalog: Catalog) -> None:
    padded = json.dumps(spec_example())[:-1] + ', "pad": "' + "x" * MAX_PLAN_BYTES + '"}'
    assert refusal(padded, catalog).codes == ("too_large",)


def test_plan_with_more_steps_than_the_bound_is_refused(catalog: Catalog) -> None:
    raw = plan_of(*[FIND] * (MAX_PLAN_STEPS + 1))
    assert only_error(raw, catalog)[2:] == (
        "too_many_steps",
        f"the plan has {MAX_PLAN_STEPS + 1} steps, more than {MAX_PLAN_STEPS}",
    )
    assert refusal(plan_of(*[FIND] * 3), catalog, max_steps=2).codes == ("too_many_steps",)


def test_unknown_keys_in_plan_and_step_are_refused(catalog: Catalog) -> None:
    raw = {"steps": [{"tool": "find_files", "args": {"base_path": "~"}, "why": "…"}], "comment": "x"}
    errors = refusal(raw, catalog).errors
    assert [(e.step, e.code) for e in errors] == [(None, "unknown_key"), (1, "unknown_key")]


def test_step_that_is_not_an_object_is_refused_with_its_number(catalog: Catalog) -> None:
    assert only_error({"steps": [{"tool": "find_files", "args": {"base_path": "~"}}, "read"]}, catalog)[:3] == (
        2,
        None,
        "not_an_object",
    )


def test_args_that_are_not_an_object_are_refused(catalog: Catalog) -> None:
    assert only_error(plan_of(("find_files", ["~"])), catalog)[:3] == (1, "args", "not_an_object")  # type: ignore[arg-type]


# --- executors and the schema of their arguments --------------------------------------------------------------------


def test_unknown_executor_is_refused_with_its_step_number(catalog: Catalog) -> None:
    raw = plan_of(FIND, ("delete_everything", {}))
    assert only_error(raw, catalog) == (
        2,
        None,
        "unknown_executor",
        "step 2: no executor 'delete_everything' in the catalog",
    )


def test_step_without_a_tool_name_is_an_unknown_executor(catalog: Catalog) -> None:
    assert only_error({"steps": [{"args": {}}]}, catalog)[2] == "unknown_executor"
    assert only_error({"steps": [{"tool": 7, "args": {}}]}, catalog)[2] == "unknown_executor"


def test_unknown_argument_names_the_accepted_ones(catalog: Catalog) -> None:
    raw = plan_of(("find_files", {"base_path": "~", "recursive": True}))
    assert only_error(raw, catalog) == (
        1,
        "recursive",
        "unknown_argument",
        "step 1 (find_files): argument 'recursive' is not in the schema (accepted: base_path, limit, pattern)",
    )


def test_missing_required_argument(catalog: Catalog) -> None:
    assert only_error(plan_of(("find_files", {"pattern": "*.pdf"})), catalog) == (
        1,
        "base_path",
        "missing_argument",
        "step 1 (find_files): argument 'base_path' is required",
    )


@pytest.mark.parametrize(
    ("args", "argument", "code"),
    [
        ({"limit": "10"}, "limit", "wrong_type"),
        ({"limit": True}, "limit", "wrong_type"),
        ({"limit": 2.5}, "limit", "wrong_type"),
        ({"limit": 0}, "limit", "out_of_range"),
        ({"limit": 1001}, "limit", "out_of_range"),
        ({"pattern": 5}, "pattern", "wrong_type"),
        ({"pattern": "x" * 101}, "pattern", "too_long"),
        ({"base_path": ""}, "base_path", "wrong_type"),
        ({"base_path": "a\x00b"}, "base_path", "wrong_type"),
    ],
)
def test_argument_outside_its_schema_is_refused(
    catalog: Catalog, args: dict[str, Any], argument: str, code: str
) -> None:
    raw = plan_of(("find_files", {"base_path": "~/Purchasing", **args}))
    step, arg, found, message = only_error(raw, catalog)
    assert (step, arg, found) == (1, argument, code)
    assert message.startswith(f"step 1 (find_files): argument {argument!r} ")


@pytest.mark.parametrize(
    ("args", "argument", "code", "message_end"),
    [
        ({"enabled": 1}, "enabled", "wrong_type", "must be true or false, got 1"),
        ({"ratio": 1.5}, "ratio", "out_of_range", "is 1.5, above the maximum 1"),
        ({"ratio": -0.1}, "ratio", "out_of_range", "is -0.1, below the minimum 0"),
        ({"ratio": float("nan")}, "ratio", "wrong_type", "holds a non-finite number, not a JSON value"),
        ({"tags": ["red", "pink"]}, "tags", "not_in_enum", "item 2 must be one of red, green, blue; got 'pink'"),
        ({"tags": ["red"] * 4}, "tags", "too_many_items", "has 4 items, more than 3"),
        ({"tags": "red"}, "tags", "wrong_type", "must be an array of string, got 'red'"),
        ({"sizes": [1, "2"]}, "sizes", "wrong_type", "item 2 must be an integer, got '2'"),
        ({"sizes": [1, 10]}, "sizes", "out_of_range", "item 2 is 10, above the maximum 9"),
        ({"options": [1]}, "options", "wrong_type", "must be an object, got [1]"),
    ],
)
def test_typed_arguments_are_checked_precisely(
    catalog: Catalog, args: dict[str, Any], argument: str, code: str, message_end: str
) -> None:
    step, arg, found, message = only_error(plan_of(("set_options", args)), catalog)
    assert (step, arg, found) == (1, argument, code)
    assert message.endswith(message_end), message


def test_enum_argument_refuses_other_values(catalog: Catalog) -> None:
    raw = plan_of(FIND, ("summarise", {"documents": {"from_step": 1}, "style": "medium"}))
    assert only_error(raw, catalog)[1:3] == ("style", "not_in_enum")


def test_argument_nested_too_deeply_is_refused(catalog: Catalog) -> None:
    nested: Any = "leaf"
    for _ in range(MAX_VALUE_DEPTH + 1):
        nested = {"n": nested}
    assert only_error(plan_of(("set_options", {"options": nested})), catalog)[1:3] == ("options", "too_deep")


def test_argument_that_is_not_a_json_value_is_refused(catalog: Catalog) -> None:
    raw = plan_of(("set_options", {"options": {"when": object()}}))
    assert only_error(raw, catalog)[1:3] == ("options", "wrong_type")


def test_every_problem_is_reported_in_step_order(catalog: Catalog) -> None:
    raw = plan_of(
        ("find_files", {"base_path": "~", "limit": 0}),
        ("nope", {}),
        ("extract_entries", {"from_step": 1}),
    )
    errors = refusal(raw, catalog).errors
    assert [(e.step, e.code) for e in errors] == [(1, "out_of_range"), (2, "unknown_executor"), (3, "missing_argument")]


def test_too_many_problems_stop_validation_and_say_so(catalog: Catalog) -> None:
    raw = plan_of(("find_files", {"base_path": "~", **{f"extra_{n}": n for n in range(MAX_REPORTED_ERRORS + 10)}}))
    errors = refusal(raw, catalog).errors
    assert len(errors) == MAX_REPORTED_ERRORS + 1
    assert errors[-1].code == "too_many_errors"


def test_error_messages_never_echo_huge_values(catalog: Catalog) -> None:
    huge = "x" * 100_000
    raw = plan_of(
        ("find_files", {"base_path": "~", "pattern": [huge], huge: 1}),
        (huge, {}),
        ("set_options", {"tags": [huge]}),
    )
    invalid = refusal(raw, catalog)
    assert len(invalid.errors) == 4
    for error in invalid.errors:
        assert len(error.message) < 300, error.message
        assert error.argument is None or len(error.argument) <= ECHO_CHARS
    assert len(str(invalid)) < 1000


# --- from_step: N --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("target", "code", "words"),
    [
        (3, "reference_to_same_step", "a step cannot use its own result"),
        (4, "reference_to_future_step", "that step runs later"),
        (9, "reference_out_of_range", "there is no such step"),
        (0, "reference_out_of_range", "there is no such step"),
        (-1, "reference_out_of_range", "there is no such step"),
    ],
)
def test_from_step_must_name_an_earlier_step(catalog: Catalog, target: int, code: str, words: str) -> None:
    raw = plan_of(FIND, ("read_files", {"from_step": 1}), ("read_files", {"from_step": target}), FIND)
    assert only_error(raw, catalog) == (
        3,
        "from_step",
        code,
        f"step 3 (read_files): argument 'from_step' refers to step {target}: {words}",
    )


def test_from_step_to_a_producer_that_is_not_a_collection_is_refused(catalog: Catalog) -> None:
    raw = plan_of(FIND, ("summarise", {"documents": {"from_step": 1}}), ("read_files", {"from_step": 2}))
    assert only_error(raw, catalog) == (
        3,
        "from_step",
        "reference_to_non_collection",
        "step 3 (read_files): argument 'from_step' takes a collection from step 2 (summarise), whose result is value",
    )


def test_collection_argument_takes_from_step_object(catalog: Catalog) -> None:
    plan = validate_plan(plan_of(FIND, ("summarise", {"documents": {"from_step": 1}})), catalog)
    assert plan.steps[1].args == {"documents": {"from_step": 1}}


def test_argument_named_from_step_also_takes_the_object_form(catalog: Catalog) -> None:
    plan = validate_plan(plan_of(FIND, ("read_files", {"from_step": {"from_step": 1}})), catalog)
    assert plan.steps[1].args == {"from_step": {"from_step": 1}}


def test_argument_named_from_step_is_a_collection_reference_whatever_its_declared_type() -> None:
    catalog = build_catalog(
        {
            "list_rows": executor("list_rows", {}, "collection", ("row",)),
            "count_rows": executor("count_rows", {"from_step": ArgSpec("integer", required=True)}, "value", ("n",)),
        }
    )
    plan = validate_plan(plan_of(("list_rows", {}), ("count_rows", {"from_step": 1})), catalog)
    rows = StepResult(outcome="success", items=({"row": 1}, {"row": 2}))
    assert resolve_step_args(plan, 2, {1: rows}, catalog).values == {"from_step": rows.items}
    assert only_error(plan_of(("list_rows", {}), ("count_rows", {"from_step": 2})), catalog)[2] == (
        "reference_to_same_step"
    )


def test_plan_with_a_lone_surrogate_still_has_a_digest(catalog: Catalog) -> None:
    plan = validate_plan('{"steps": [{"tool": "find_files", "args": {"base_path": "~/\\ud800"}}]}', catalog)
    assert len(plan.digest()) == 64


@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("read_files", {"from_step": "1"}),
        ("read_files", {"from_step": True}),
        ("read_files", {"from_step": 1.0}),
        ("read_files", {"from_step": [1]}),
        ("summarise", {"documents": 1}),
        ("summarise", {"documents": {"from_step": "1"}}),
        ("summarise", {"documents": {"from_step": 1, "take": 2}}),
        ("summarise", {"documents": [{"path": "~/a.pdf"}]}),
    ],
)
def test_malformed_collection_reference_is_refused(catalog: Catalog, tool: str, args: dict[str, Any]) -> None:
    assert only_error(plan_of(FIND, (tool, args)), catalog)[:3] == (2, next(iter(args)), "malformed_reference")


def test_argument_that_is_not_a_collection_cannot_take_from_step(catalog: Catalog) -> None:
    step, argument, code, message = only_error(plan_of(FIND, ("set_options", {"options": {"from_step": 1}})), catalog)
    assert (step, argument, code) == (2, "options", "wrong_type")
    assert "cannot take the collection" in message


# --- {{stepN.field}} -----------------------------------------------------------------------------------------------


def test_value_reference_to_a_declared_field_validates(catalog: Catalog) -> None:
    raw = plan_of(
        FIND,
        ("summarise", {"documents": {"from_step": 1}}),
        (
            "send_message",
            {"recipient": "me@example.org", "subject": "Summary ({{step2.words}} words)", "body": "{{step2.summary}}"},
        ),
    )
    assert validate_plan(raw, catalog).steps[2].args["body"] == "{{step2.summary}}"


def test_value_reference_to_an_undeclared_field_names_what_the_producer_offers(catalog: Catalog) -> None:
    raw = plan_of(
        FIND,
        ("summarise", {"documents": {"from_step": 1}}),
        ("send_message", {"recipient": "a@b.c", "body": "{{step2.price}}"}),
    )
    assert only_error(raw, catalog) == (
        3,
        "body",
        "reference_to_undeclared_field",
        "step 3 (send_message): argument 'body': {{step2.price}}: step 2 (summarise) returns a value that does not "
        "declare 'price' (it offers: summary, words)",
    )


def test_collection_reference_offers_count_and_fields_of_the_first_item(catalog: Catalog) -> None:
    ok = plan_of(
        FIND, ("send_message", {"recipient": "a@b.c", "body": "{{step1.count}} files, first {{step1.first.name}}"})
    )
    validate_plan(ok, catalog)
    bad = plan_of(FIND, ("send_message", {"recipient": "a@b.c", "body": "{{step1.name}} {{step1.first.text}}"}))
    errors = refusal(bad, catalog).errors
    assert [e.code for e in errors] == ["reference_to_undeclared_field"] * 2
    assert "(it offers: count, first.path, first.name, first.size)" in errors[0].message


def test_reference_to_a_producer_that_returns_nothing_is_undeclared(catalog: Catalog) -> None:
    raw = plan_of(("set_options", {}), ("send_message", {"recipient": "a@b.c", "body": "{{step1.ok}}"}))
    assert only_error(raw, catalog)[2] == "reference_to_undeclared_field"


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ("{{step2.count}}", "reference_to_same_step"),
        ("see {{step3.count}}", "reference_to_future_step"),
        ("{{step0.count}}", "reference_out_of_range"),
        ("{{step99.count}}", "reference_out_of_range"),
    ],
)
def test_value_reference_must_name_an_earlier_step(catalog: Catalog, body: str, code: str) -> None:
    raw = plan_of(FIND, ("send_message", {"recipient": "a@b.c", "body": body}), FIND)
    assert only_error(raw, catalog)[:3] == (2, "body", code)


@pytest.mark.parametrize(
    "body", ["{{step1}}", "{{ step.count }}", "{{stepX.count}}", "{{Step1.count}}", "{{step1.count", "{{step1.}}"]
)
def test_malformed_value_reference_is_refused(catalog: Catalog, body: str) -> None:
    raw = plan_of(FIND, ("send_message", {"recipient": "a@b.c", "body": body}))
    assert only_error(raw, catalog)[:3] == (2, "body", "malformed_reference")


def test_step_number_in_a_reference_is_bounded(catalog: Catalog) -> None:
    raw = plan_of(FIND, ("send_message", {"recipient": "a@b.c", "body": "{{step" + "9" * 5000 + ".count}}"}))
    step, argument, code, message = only_error(raw, catalog)
    assert (step, argument, code) == (2, "body", "malformed_reference")
    assert len(message) < 200


def test_double_braces_that_do_not_open_a_step_reference_are_text(catalog: Catalog) -> None:
    raw = plan_of(FIND, ("send_message", {"recipient": "a@b.c", "body": "Dear {{name}}, {{ }}"}))
    validate_plan(raw, catalog)


def test_references_inside_arrays_and_objects_are_checked(catalog: Catalog) -> None:
    raw = plan_of(FIND, ("set_options", {"tags": ["{{step1.first.colour}}"], "options": {"a": ["{{step3.count}}"]}}))
    errors = refusal(raw, catalog).errors
    assert [(e.argument, e.code) for e in errors] == [
        ("tags", "reference_to_undeclared_field"),
        ("options", "reference_out_of_range"),
    ]


def test_whole_string_reference_defers_the_type_check_to_resolution(catalog: Catalog) -> None:
    raw = plan_of(FIND, ("summarise", {"documents": {"from_step": 1}, "words": "{{step1.count}}"}))
    validate_plan(raw, catalog)


def test_embedded_reference_cannot_make_an_integer(catalog: Catalog) -> None:
    raw = plan_of(FIND, ("summarise", {"documents": {"from_step": 1}, "words": "about {{step1.count}}"}))
    assert only_error(raw, catalog)[1:3] == ("words", "wrong_type")


# --- provenance ----------------------------------------------------------------------------------------------------


def test_value_from_a_step_does_not_become_a_recipient(catalog: Catalog) -> None:
    raw = plan_of(FIND, ("send_message", {"recipient": "{{step1.first.name}}", "body": "hello"}))
    assert only_error(raw, catalog) == (
        2,
        "recipient",
        "provenance_refused",
        "step 2 (send_message): argument 'recipient' is a recipient and does not accept values from other steps "
        "(here from step 1)",
    )


def test_value_from_a_step_does_not_become_a_local_path(catalog: Catalog) -> None:
    raw = plan_of(FIND, ("create_files_spreadsheet", {"from_step": 1, "path": "~/out/{{step1.first.name}}.xlsx"}))
    assert only_error(raw, catalog)[1:3] == ("path", "provenance_refused")


def test_every_path_argument_is_sensitive_even_when_not_marked(catalog: Catalog) -> None:
    raw = plan_of(FIND, ("find_files", {"base_path": "{{step1.first.path}}"}))
    assert only_error(raw, catalog)[1:3] == ("base_path", "provenance_refused")


def test_sensitive_argument_that_declares_it_accepts_step_values_takes_them(catalog: Catalog) -> None:
    raw = plan_of(FIND, ("copy_file", {"source": "{{step1.first.path}}", "destination": "~/Archive/quote.pdf"}))
    validate_plan(raw, catalog)
    raw["steps"][1]["args"]["destination"] = "~/Archive/{{step1.first.name}}"
    assert only_error(raw, catalog)[1:3] == ("destination", "provenance_refused")


def test_sensitive_collection_argument_refuses_from_step() -> None:
    catalog = build_catalog(
        {
            "list_contacts": executor("list_contacts", {}, "collection", ("email",)),
            "mail_all": executor(
                "mail_all", {"recipients": ArgSpec("collection", True, sensitive="recipient")}, "none"
            ),
        }
    )
    raw = plan_of(("list_contacts", {}), ("mail_all", {"recipients": {"from_step": 1}}))
    assert only_error(raw, catalog)[1:3] == ("recipients", "provenance_refused")


# --- inconsistent combinations --------------------------------------------------------------------------------------


def _pattern_needs_limit(args: Mapping[str, Any]) -> str | None:
    if args.get("pattern") == "*" and "limit" not in args:
        return "a pattern matching everything needs a limit"
    return None


def test_combination_rule_refuses_an_inconsistent_combination(catalog: Catalog) -> None:
    raw = plan_of(("find_files", {"base_path": "~", "pattern": "*"}))
    with pytest.raises(PlanInvalid) as caught:
        validate_plan(raw, catalog, combination_rules={"find_files": _pattern_needs_limit})
    (error,) = caught.value.errors
    assert (error.step, error.code, error.message) == (
        1,
        "inconsistent_combination",
        "step 1 (find_files): a pattern matching everything needs a limit",
    )
    raw["steps"][0]["args"]["limit"] = 10
    validate_plan(raw, catalog, combination_rules={"find_files": _pattern_needs_limit})


def test_combination_rule_sees_only_steps_that_are_otherwise_valid(catalog: Catalog) -> None:
    seen: list[Mapping[str, Any]] = []

    def rule(args: Mapping[str, Any]) -> str | None:
        seen.append(args)
        return None

    raw = plan_of(("find_files", {"base_path": "~", "limit": -1}), ("find_files", {"base_path": "~"}))
    refusal(raw, catalog, combination_rules={"find_files": rule})
    assert seen == [{"base_path": "~"}]


# --- resolution before invocation ------------------------------------------------------------------------------------

QUOTES = (
    {"path": "~/Purchasing/a.pdf", "name": "a.pdf", "size": 10},
    {"path": "~/Purchasing/b.pdf", "name": "b.pdf", "size": 20},
)


def found(*items: Mapping[str, Any]) -> StepResult:
    return StepResult(outcome="success", items=tuple(items))


def test_from_step_receives_the_items_of_that_step_with_their_provenance(catalog: Catalog) -> None:
    plan = validate_plan(spec_example(), catalog)
    resolved = resolve_step_args(plan, 2, {1: found(*QUOTES)}, catalog)
    assert resolved.values == {"from_step": QUOTES}
    assert resolved.provenance == {"from_step": frozenset({1})}


def test_collection_argument_receives_items_and_literals_keep_no_provenance(catalog: Catalog) -> None:
    plan = validate_plan(plan_of(FIND, ("summarise", {"documents": {"from_step": 1}, "style": "short"})), catalog)
    resolved = resolve_step_args(plan, 2, {1: found(*QUOTES)}, catalog)
    assert resolved.values == {"documents": QUOTES, "style": "short"}
    assert resolved.sources("documents") == frozenset({1})
    assert resolved.sources("style") == frozenset()


def test_value_references_are_replaced_whole_or_as_text(catalog: Catalog) -> None:
    raw = plan_of(
        FIND,
        ("summarise", {"documents": {"from_step": 1}, "words": "{{step1.first.size}}"}),
        (
            "send_message",
            {
                "recipient": "me@example.org",
                "subject": "{{step2.words}}",
                "body": "{{step1.count}} quotes: {{step2.summary}}",
            },
        ),
    )
    plan = validate_plan(raw, catalog)
    results = {1: found(*QUOTES), 2: StepResult(outcome="success", value={"summary": "B is cheaper", "words": 3})}
    assert resolve_step_args(plan, 2, results, catalog).values["words"] == 10
    resolved = resolve_step_args(plan, 3, results, catalog)
    assert resolved.values == {"recipient": "me@example.org", "subject": "3", "body": "2 quotes: B is cheaper"}
    assert resolved.provenance == {"subject": frozenset({2}), "body": frozenset({1, 2})}


def test_resolved_values_are_copies_of_the_plan(catalog: Catalog) -> None:
    plan = validate_plan(plan_of(("set_options", {"tags": ["red"], "options": {"a": [1]}})), catalog)
    resolved = resolve_step_args(plan, 1, {}, catalog)
    resolved.values["tags"].append("blue")
    resolved.values["options"]["a"].append(2)
    assert plan.steps[0].args == {"tags": ["red"], "options": {"a": [1]}}


@pytest.mark.parametrize(
    ("result", "reason"),
    [
        (None, "not_run"),
        (StepResult(outcome="empty"), "empty"),
        (StepResult(outcome="failed", error=StepError("permanent", "denied", "no access")), "failed"),
        (StepResult(outcome="success"), "no_items"),
        (StepResult(outcome="partial", error=StepError("recoverable", "timeout", "slow")), "no_items"),
    ],
)
def test_consumer_of_a_producer_without_data_never_receives_an_older_result(
    catalog: Catalog, result: StepResult | None, reason: str
) -> None:
    raw = plan_of(FIND, ("find_files", {"base_path": "~/Other"}), ("read_files", {"from_step": 2}))
    plan = validate_plan(raw, catalog)
    results: dict[int, StepResult] = {1: found(*QUOTES)}
    if result is not None:
        results[2] = result
    with pytest.raises(MissingInput) as caught:
        resolve_step_args(plan, 3, results, catalog)
    assert (caught.value.step, caught.value.reason, caught.value.consumer, caught.value.argument) == (
        2,
        reason,
        3,
        "from_step",
    )
    assert "step 3 cannot run" in str(caught.value)


def test_partial_producer_with_items_passes_the_items_it_has(catalog: Catalog) -> None:
    plan = validate_plan(spec_example(), catalog)
    partial = StepResult(outcome="partial", items=QUOTES[:1], error=StepError("recoverable", "timeout", "slow"))
    assert resolve_step_args(plan, 2, {1: partial}, catalog).values == {"from_step": QUOTES[:1]}


def test_value_reference_to_an_absent_field_stops_the_branch(catalog: Catalog) -> None:
    raw = plan_of(
        FIND,
        ("summarise", {"documents": {"from_step": 1}}),
        ("send_message", {"recipient": "a@b.c", "body": "{{step2.summary}}"}),
    )
    plan = validate_plan(raw, catalog)
    results = {1: found(*QUOTES), 2: StepResult(outcome="success", value={"words": 0})}
    with pytest.raises(MissingInput) as caught:
        resolve_step_args(plan, 3, results, catalog)
    assert (caught.value.step, caught.value.reason) == (2, "field_absent")


def test_first_item_reference_to_an_empty_collection_stops_the_branch(catalog: Catalog) -> None:
    plan = validate_plan(
        plan_of(FIND, ("send_message", {"recipient": "a@b.c", "body": "{{step1.first.name}}"})), catalog
    )
    with pytest.raises(MissingInput) as caught:
        resolve_step_args(plan, 2, {1: StepResult(outcome="empty")}, catalog)
    assert (caught.value.step, caught.value.reason) == (1, "empty")


def test_final_arguments_are_checked_against_the_schema_again(catalog: Catalog) -> None:
    raw = plan_of(FIND, ("summarise", {"documents": {"from_step": 1}, "words": "{{step1.first.name}}"}))
    plan = validate_plan(raw, catalog)
    four = found(*QUOTES, *QUOTES)
    with pytest.raises(ArgumentsInvalid) as caught:
        resolve_step_args(plan, 2, {1: four}, catalog)
    assert [(e.step, e.argument, e.code) for e in caught.value.errors] == [
        (2, "documents", "too_many_items"),
        (2, "words", "wrong_type"),
    ]
    assert caught.value.errors[0].message == "step 2 (summarise): argument 'documents' receives 4 items, more than 3"


def test_resolved_text_longer_than_allowed_is_refused(catalog: Catalog) -> None:
    raw = plan_of(
        FIND,
        ("summarise", {"documents": {"from_step": 1}}),
        ("send_message", {"recipient": "a@b.c", "subject": "{{step2.summary}}"}),
    )
    plan = validate_plan(raw, catalog)
    results = {1: found(*QUOTES), 2: StepResult(outcome="success", value={"summary": "y" * 500, "words": 1})}
    with pytest.raises(ArgumentsInvalid) as caught:
        resolve_step_args(plan, 3, results, catalog)
    assert caught.value.codes == ("too_long",)
    assert len(caught.value.errors[0].message) < 200


def test_resolution_refuses_a_hand_built_plan_that_breaks_provenance(catalog: Catalog) -> None:
    plan = Plan((Step(*FIND), Step("send_message", {"recipient": "{{step1.first.name}}"})))
    with pytest.raises(ArgumentsInvalid) as caught:
        resolve_step_args(plan, 2, {1: found(*QUOTES)}, catalog)
    assert caught.value.codes == ("provenance_refused",)


def test_resolution_records_provenance_for_a_sensitive_argument_that_accepts_it(catalog: Catalog) -> None:
    raw = plan_of(FIND, ("copy_file", {"source": "{{step1.first.path}}", "destination": "~/Archive/a.pdf"}))
    resolved = resolve_step_args(validate_plan(raw, catalog), 2, {1: found(*QUOTES)}, catalog)
    assert resolved.values["source"] == "~/Purchasing/a.pdf"
    assert resolved.sources("source") == frozenset({1})
    assert resolved.sources("destination") == frozenset()


@pytest.mark.parametrize(
    ("args", "code"),
    [
        ({"from_step": 2}, "reference_to_same_step"),
        ({"from_step": 3}, "reference_to_future_step"),
        ({"from_step": {"from_step": "1"}}, "malformed_reference"),
    ],
)
def test_resolution_refuses_a_hand_built_reference_that_validation_would_refuse(
    catalog: Catalog, args: dict[str, Any], code: str
) -> None:
    plan = Plan((Step(*FIND), Step("read_files", args), Step(*FIND)))
    with pytest.raises(ArgumentsInvalid) as caught:
        resolve_step_args(plan, 2, {1: found(*QUOTES), 2: found(*QUOTES), 3: found(*QUOTES)}, catalog)
    assert caught.value.codes == (code,)


def test_resolution_of_an_executor_no_longer_in_the_catalog_is_refused(catalog: Catalog) -> None:
    plan = validate_plan(spec_example(), catalog)
    with pytest.raises(ArgumentsInvalid) as caught:
        resolve_step_args(plan, 2, {1: found(*QUOTES)}, quotes_catalog("read_files"))
    assert caught.value.codes == ("unknown_executor",)


def test_resolution_applies_combination_rules_to_final_arguments(catalog: Catalog) -> None:
    raw = plan_of(FIND, ("find_files", {"base_path": "~", "pattern": "{{step1.first.name}}"}))
    plan = validate_plan(raw, catalog)
    rule = {"find_files": lambda args: "no .pdf patterns" if str(args.get("pattern", "")).endswith(".pdf") else None}
    with pytest.raises(ArgumentsInvalid) as caught:
        resolve_step_args(plan, 2, {1: found(*QUOTES)}, catalog, combination_rules=rule)
    assert caught.value.codes == ("inconsistent_combination",)


def test_resolution_index_is_one_based(catalog: Catalog) -> None:
    plan = validate_plan(spec_example(), catalog)
    with pytest.raises(IndexError):
        resolve_step_args(plan, 0, {}, catalog)
    with pytest.raises(IndexError):
        resolve_step_args(plan, 5, {}, catalog)


# --- shared guards -------------------------------------------------------------------------------------------------

READER_RULE = ProducerRule(consumer="extract_entries", requires_producer_of="text", insert="read_files")


def finder_to_extractor() -> dict[str, Any]:
    return plan_of(
        ("find_files", {"base_path": "~/Purchasing", "pattern": "*.pdf"}),
        ("extract_entries", {"from_step": 1, "fields": ["supplier", "price"]}),
        (
            "create_files_spreadsheet",
            {"from_step": 2, "path": "~/Purchasing/summary.xlsx", "title": "{{step1.count}} quotes"},
        ),
        ("send_message", {"recipient": "me@example.org", "body": "Saved {{step3.path}} ({{step3.rows}} rows)"}),
    )


def test_guard_inserts_a_reader_between_a_finder_and_an_extractor(catalog: Catalog) -> None:
    plan = validate_plan(finder_to_extractor(), catalog)
    guarded = apply_guards(plan, catalog, producer_rules=[READER_RULE])
    assert guarded.outcome == "amended"
    assert guarded.plan.as_json() == plan_of(
        ("find_files", {"base_path": "~/Purchasing", "pattern": "*.pdf"}),
        ("read_files", {"from_step": 1}),
        ("extract_entries", {"from_step": 2, "fields": ["supplier", "price"]}),
        (
            "create_files_spreadsheet",
            {"from_step": 3, "path": "~/Purchasing/summary.xlsx", "title": "{{step1.count}} quotes"},
        ),
        ("send_message", {"recipient": "me@example.org", "body": "Saved {{step4.path}} ({{step4.rows}} rows)"}),
    )
    assert [(c.kind, c.step) for c in guarded.changes] == [
        ("inserted_producer", 2),
        ("renumbered_references", 4),
        ("renumbered_references", 5),
    ]
    assert "between step 1 (find_files) and extract_entries" in guarded.changes[0].detail
    assert validate_plan(guarded.plan, catalog) == guarded.plan


def test_guard_keeps_the_collection_argument_form_when_it_inserts() -> None:
    catalog = build_catalog(
        {
            "list_pages": executor("list_pages", {}, "collection", ("url",)),
            "fetch_pages": executor(
                "fetch_pages", {"pages": ArgSpec("collection", True)}, "collection", ("url", "html")
            ),
            "scrape": executor("scrape", {"pages": ArgSpec("collection", True)}, "collection", ("price",)),
        }
    )
    plan = validate_plan(plan_of(("list_pages", {}), ("scrape", {"pages": {"from_step": 1}})), catalog)
    guarded = apply_guards(plan, catalog, producer_rules=[ProducerRule("scrape", "html", "fetch_pages")])
    assert guarded.plan.as_json() == plan_of(
        ("list_pages", {}), ("fetch_pages", {"pages": {"from_step": 1}}), ("scrape", {"pages": {"from_step": 2}})
    )


def test_guard_leaves_alone_a_producer_that_already_declares_the_field(catalog: Catalog) -> None:
    plan = validate_plan(spec_example(), catalog)
    guarded = apply_guards(plan, catalog, producer_rules=[READER_RULE])
    assert (guarded.outcome, guarded.plan, guarded.changes) == ("unchanged", plan, ())


def test_guard_aligns_a_consumer_with_the_reader_already_in_the_plan(catalog: Catalog) -> None:
    raw = plan_of(
        ("find_files", {"base_path": "~/Purchasing"}),
        ("read_files", {"from_step": 1}),
        ("extract_entries", {"from_step": 1, "fields": ["price"]}),
    )
    guarded = apply_guards(validate_plan(raw, catalog), catalog, producer_rules=[READER_RULE])
    assert guarded.outcome == "amended"
    assert guarded.plan.tools == ("find_files", "read_files", "extract_entries")
    assert guarded.plan.steps[2].args["from_step"] == 2
    assert [(c.kind, c.step) for c in guarded.changes] == [("aligned_dependency", 3)]


def test_guard_inserts_one_reader_for_two_consumers_of_the_same_finder(catalog: Catalog) -> None:
    raw = plan_of(
        ("find_files", {"base_path": "~/Purchasing"}),
        ("extract_entries", {"from_step": 1, "fields": ["price"]}),
        ("extract_entries", {"from_step": 1, "fields": ["supplier"]}),
    )
    guarded = apply_guards(validate_plan(raw, catalog), catalog, producer_rules=[READER_RULE])
    assert guarded.plan.tools == ("find_files", "read_files", "extract_entries", "extract_entries")
    assert [step.args["from_step"] for step in guarded.plan.steps[2:]] == [2, 2]


def test_guard_never_inserts_a_tool_outside_the_catalog() -> None:
    catalog = quotes_catalog("read_files")
    plan = validate_plan(finder_to_extractor(), catalog)
    guarded = apply_guards(plan, catalog, producer_rules=[READER_RULE])
    assert guarded.outcome == "needs_new_proposal"
    assert guarded.plan.tools == plan.tools
    assert [c.kind for c in guarded.changes] == ["producer_unavailable"]
    assert "read_files is not in the catalog" in guarded.changes[0].detail


def test_guard_does_not_insert_a_tool_that_needs_arguments_it_cannot_supply() -> None:
    catalog = build_catalog(
        {
            "list_pages": executor("list_pages", {}, "collection", ("url",)),
            "fetch_pages": executor(
                "fetch_pages",
                {"pages": ArgSpec("collection", True), "cookie": ArgSpec("string", True)},
                "collection",
                ("html",),
            ),
            "scrape": executor("scrape", {"pages": ArgSpec("collection", True)}, "collection", ("price",)),
        }
    )
    plan = validate_plan(plan_of(("list_pages", {}), ("scrape", {"pages": {"from_step": 1}})), catalog)
    guarded = apply_guards(plan, catalog, producer_rules=[ProducerRule("scrape", "html", "fetch_pages")])
    assert guarded.outcome == "needs_new_proposal"
    assert "fetch_pages also needs cookie" in guarded.changes[0].detail


def test_guard_does_not_insert_a_tool_whose_result_lacks_the_field(catalog: Catalog) -> None:
    rule = ProducerRule("extract_entries", "text", "find_files")
    guarded = apply_guards(validate_plan(finder_to_extractor(), catalog), catalog, producer_rules=[rule])
    assert guarded.outcome == "needs_new_proposal"
    assert "find_files does not declare 'text'" in guarded.changes[0].detail


def test_guard_asks_for_a_new_proposal_when_the_amended_plan_is_too_long(catalog: Catalog) -> None:
    plan = validate_plan(finder_to_extractor(), catalog, max_steps=4)
    guarded = apply_guards(plan, catalog, producer_rules=[READER_RULE], max_steps=4)
    assert guarded.outcome == "needs_new_proposal"
    assert guarded.changes[-1].kind == "amended_plan_invalid"
    assert "more than 4" in guarded.changes[-1].detail


def test_guard_asks_for_a_new_proposal_when_a_requested_tool_is_missing(catalog: Catalog) -> None:
    plan = validate_plan(spec_example(), catalog)
    guarded = apply_guards(plan, catalog, requested_tools=["create_files_spreadsheet", "send_message", "fax"])
    assert guarded.outcome == "needs_new_proposal"
    assert guarded.missing_tools == ("send_message", "fax")
    assert guarded.plan == plan  # never adds the capability itself
    assert [c.detail for c in guarded.changes] == [
        "the request asks for send_message, which the plan does not use (it is in the catalog)",
        "the request asks for fax, which the plan does not use (it is not in the catalog)",
    ]


def test_guard_counts_an_inserted_producer_as_present_for_requested_tools(catalog: Catalog) -> None:
    plan = validate_plan(finder_to_extractor(), catalog)
    guarded = apply_guards(plan, catalog, requested_tools=["read_files"], producer_rules=[READER_RULE])
    assert guarded.outcome == "amended"


def test_guard_uses_the_registered_producer_rules_by_default(catalog: Catalog, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(plan_guards, "_producer_rules", {})
    assert register_producer_rule("extract_entries", "text", "read_files") == READER_RULE
    assert register_producer_rule("extract_entries", "text", "read_files") == READER_RULE
    assert registered_producer_rules() == (READER_RULE,)
    assert apply_guards(validate_plan(finder_to_extractor(), catalog), catalog).outcome == "amended"
    with pytest.raises(ProducerRuleError):
        register_producer_rule("extract_entries", "text", "find_files")
