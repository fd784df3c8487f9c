"""The model-free proposer: request forms with typed slots."""

from __future__ import annotations

import pytest

from apps.runtime.executor import StepResult, build_catalog
from apps.runtime.manifests import ArgSpec, Manifest, RequestForm, ResultShape
from apps.runtime.paths.forms import AmbiguousRequest, FormError, compile_template, match_form, propose_from_forms

QUOTES_FORM = RequestForm(
    language="en",
    template=(
        "read [the] [all] [{count}] {what} in [the] {folder} folder, compare their {fields}, "
        "and create a summary [table|spreadsheet|sheet]"
    ),
    slots={"count": "count", "what": "documents", "folder": "folder", "fields": "fields"},
    plan=(
        {"tool": "find", "args": {"base_path": "{folder}", "pattern": "{what}"}},
        {"tool": "find", "args": {"base_path": "{folder}/summary.xlsx", "fields": ["supplier", "{fields}"]}},
    ),
)


class _Executor:
    def __init__(self, manifest: Manifest) -> None:
        self.manifest = manifest

    def run(self, context: object, args: object) -> StepResult:
        return StepResult(outcome="empty")


def _catalog(*forms: RequestForm) -> object:
    manifest = Manifest(
        name="find",
        purpose="test executor",
        args={"base_path": ArgSpec(type="string"), "pattern": ArgSpec(type="string"),
              "fields": ArgSpec(type="array", items="string")},
        result=ResultShape(kind="collection", fields=("path",)),
        request_forms=forms,
    )  # fmt: skip
    return build_catalog({"find": _Executor(manifest)})


@pytest.mark.parametrize(
    ("request_text", "folder", "pattern", "fields"),
    [
        ("Read the three quotes in the Purchasing folder, compare their prices, and create a summary table",
         "~/Purchasing", "*", ["supplier", "price"]),
        ("read quotes in Purchasing folder compare their prices and create a summary.",
         "~/Purchasing", "*", ["supplier", "price"]),
        ("Read the PDF invoices in the Bills 2026 folder, compare their amounts and due dates, "
         "and create a summary table",
         "~/Bills 2026", "*.pdf", ["supplier", "amount", "due date"]),
        ("READ THE OLD QUOTES IN THE Offerte FOLDER, COMPARE THEIR PRICES, AND CREATE A SUMMARY SHEET!",
         "~/Offerte", "*", ["supplier", "price"]),
    ],
)  # fmt: skip
def test_request_form_binds_typed_slots(request_text: str, folder: str, pattern: str, fields: list[str]) -> None:
    match = match_form(QUOTES_FORM, "find", request_text)
    assert match is not None
    first, second = match.plan["steps"]
    assert first["args"] == {"base_path": folder, "pattern": pattern}
    assert second["args"]["fields"] == fields
    assert second["args"]["base_path"] == f"{folder}/summary.xlsx"


@pytest.mark.parametrize(
    "request_text",
    [
        "read the quotes and create a summary table",
        "Read theory in the folder, compare their prices",
    ],
)
def test_requests_outside_the_form_do_not_match(request_text: str) -> None:
    assert match_form(QUOTES_FORM, "find", request_text) is None


def test_optional_words_match_only_whole_words() -> None:
    match = match_form(
        QUOTES_FORM, "find", "Read theory notes in the Study folder, compare their prices, and create a summary table"
    )
    assert match is not None
    assert match.slots["folder"] == "~/Study"


def test_a_single_matching_form_is_proposed() -> None:
    proposal = propose_from_forms(
        "Read the three quotes in the Purchasing folder, compare their prices, and create a summary table",
        _catalog(QUOTES_FORM),  # type: ignore[arg-type]
    )
    assert proposal is not None
    assert proposal.executor == "find"


def test_forms_with_different_plans_for_one_request_are_ambiguous() -> None:
    other = RequestForm(
        language="en",
        template="read [the] {what} in [the] {folder} folder, compare their {fields}, and create a summary table",
        slots={"what": "text", "folder": "folder", "fields": "fields"},
        plan=({"tool": "find", "args": {}},),
    )
    with pytest.raises(AmbiguousRequest):
        propose_from_forms(
            "read the quotes in the Purchasing folder, compare their prices, and create a summary table",
            _catalog(QUOTES_FORM, other),  # type: ignore[arg-type]
        )


def test_unbalanced_template_is_a_form_error() -> None:
    with pytest.raises(FormError):
        compile_template("read [the {what}", ())


def test_courtesy_around_the_request_is_ignored() -> None:
    for text in (
        "Please read the three quotes in the Purchasing folder, compare their prices, and create a summary table",
        "Could you read the quotes in the Purchasing folder, compare their prices, and create a summary table, thanks",
    ):
        assert match_form(QUOTES_FORM, "find", text) is not None


def test_long_requests_do_not_backtrack_and_are_not_form_requests() -> None:
    long_request = (
        "read the " + "very " * 700 + "quotes in the X folder, compare their prices, and create a summary table"
    )
    assert propose_from_forms(long_request, _catalog(QUOTES_FORM)) is None  # type: ignore[arg-type]
    # Even matched directly, a slot longer than its bound does not match.
    assert match_form(QUOTES_FORM, "find", long_request) is None


def test_nested_alternatives_compile() -> None:
    pattern = compile_template("look [in [the|my] {folder} folder|here]", (("folder", "folder"),))
    assert pattern.fullmatch("look in my Bills folder ")
    assert pattern.fullmatch("look here ")
