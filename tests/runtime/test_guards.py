"""Actions a request names explicitly, and the guards that ask for a new proposal without them.

The requested actions are found without a model, in English and Italian, and
a negated action is not requested. Every path that makes a plan from a
proposal hands them to the guards: the model-free proposer refuses, naming
the action, rather than run a plan without it; the planning model is asked
again saying what was missing, then the turn is refused naming it.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from apps.accounts.models import User
from apps.runtime.executor import Catalog, build_catalog, catalog_subset
from apps.runtime.executors.records import CREATE_SPREADSHEET_MANIFEST
from apps.runtime.manifests import Manifest, ManifestError
from apps.runtime.models import StepRecord, TraceEvent, Turn
from apps.runtime.paths.choice import choose_path
from apps.runtime.paths.planner import MAX_PLANNING_REQUESTS, REFUSAL_MISSING_ACTION, propose_with_model
from apps.runtime.paths.requested_actions import (
    RequestedAction,
    requested_actions,
    requested_actions_missing,
)
from apps.runtime.tiers.client import ModelUsage
from apps.runtime.turns import turn_conduct, turn_submit
from tests.model_server import RecordedRequest, ScriptedModelServer
from tests.runtime.conftest import QUOTES_REQUEST
from tests.runtime.test_planner import SPEC_PLAN

SPREADSHEET = "create_files_spreadsheet"
# The spec's example plan, and the same plan without its spreadsheet.
WITH_SPREADSHEET: dict[str, Any] = SPEC_PLAN
FOUND_AND_READ: dict[str, Any] = {"steps": SPEC_PLAN["steps"][:3]}
# No request form matches it, so a planning model (or nobody) plans it.
# The frames cannot plan it (which fields to compare?), so with a planning model it goes to the model.
MODEL_REQUEST = "Compare the quotes in ~/Purchasing and create a summary table"
# Matches the summary-table form, whose {fields} slot swallows "and delete the old files".
FORM_REQUEST_WITH_DELETION = (
    "Read the three quotes in the Purchasing folder, compare their prices and delete the old files, "
    "and create a summary table"
)


@pytest.fixture
def catalog() -> Catalog:
    return build_catalog()


def executors_requested(request: str, catalog: Catalog) -> list[str]:
    return [action.executor for action in requested_actions(request, catalog)]


# --- Requested actions, deterministically ----------------------------------------------------------


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        (QUOTES_REQUEST, [SPREADSHEET]),
        ("Compare the prices and put them in a spreadsheet", [SPREADSHEET]),
        ("Export the entries to csv", [SPREADSHEET]),
        ("Make me an excel file with the totals", [SPREADSHEET]),
        ("Leggi i preventivi e crea un foglio di calcolo", [SPREADSHEET]),
        ("Confronta i prezzi e salvali in un foglio excel", [SPREADSHEET]),
        ("Cerca le fatture e fammi una tabella riassuntiva", [SPREADSHEET]),
        ("Find the old PDFs in ~/Archive, delete them and build a summary table", ["delete_files", SPREADSHEET]),
        ("Elimina i vecchi preventivi e crea una tabella", ["delete_files", SPREADSHEET]),
        ("Please undo the last turn", ["undo_last_turn"]),
        ("Annulla l'ultima operazione", ["undo_last_turn"]),
        ("Don't forget to create a summary table", [SPREADSHEET]),
        ("Non dimenticare di creare una tabella", [SPREADSHEET]),
    ],
)
def test_explicitly_named_actions_are_requested(catalog: Catalog, request_text: str, expected: list[str]) -> None:
    assert executors_requested(request_text, catalog) == expected


@pytest.mark.parametrize(
    "request_text",
    [
        "Read the quotes in Purchasing but don't create a spreadsheet",
        "Read the quotes in Purchasing and do not create a summary table",
        "Compare the prices without creating a spreadsheet or deleting the files",
        "Rather than deleting the files, list them",
        "Never delete the files in Purchasing",
        "Leggi i preventivi senza creare il foglio di calcolo",
        "Non creare una tabella, elenca solo i file",
        "Confronta i prezzi invece di creare una tabella",
        "Non voglio che tu crei un foglio di calcolo",
        'Find the file called "create a summary table"',  # quoted text is data, not an instruction
        "Read the quotes in Purchasing and compare their prices",
        "Remove the duplicates from my list",  # removing items is not deleting files
    ],
)
def test_negated_quoted_or_unnamed_actions_are_not_requested(catalog: Catalog, request_text: str) -> None:
    assert executors_requested(request_text, catalog) == []


def test_a_negation_stays_in_its_own_clause(catalog: Catalog) -> None:
    request = "Don't delete anything, and create a summary table"
    assert executors_requested(request, catalog) == [SPREADSHEET]
    assert requested_actions(request, catalog)[0].phrase == "create a summary table"


def test_only_executors_in_the_catalog_are_requested(catalog: Catalog) -> None:
    without_sheets = catalog_subset(catalog, [name for name in catalog.executors if name != SPREADSHEET])
    assert executors_requested(QUOTES_REQUEST, without_sheets) == []


def test_a_plan_that_does_the_requested_action_misses_nothing(catalog: Catalog) -> None:
    requested = requested_actions(QUOTES_REQUEST, catalog)
    assert requested_actions_missing(WITH_SPREADSHEET, catalog, requested) == ()
    assert requested_actions_missing(FOUND_AND_READ, catalog, requested) == requested


def test_an_inserted_producer_counts_as_present(catalog: Catalog) -> None:
    finder_to_extractor = {"steps": [FOUND_AND_READ["steps"][0], {**FOUND_AND_READ["steps"][2], "args": {
        "from_step": 1, "fields": ["price"]}}]}  # fmt: skip
    asked = (RequestedAction("read_files", "read the quotes"),)
    assert requested_actions_missing(finder_to_extractor, catalog, asked) == ()


def test_action_phrases_join_the_signature_only_when_declared() -> None:
    assert "action_phrases" in CREATE_SPREADSHEET_MANIFEST.as_json()
    plain = dataclasses.replace(CREATE_SPREADSHEET_MANIFEST, action_phrases=())
    assert "action_phrases" not in plain.as_json()
    assert plain.signature != CREATE_SPREADSHEET_MANIFEST.signature


@pytest.mark.parametrize(
    ("phrases", "problem"),
    [
        (("create {what} table",), "has a slot"),
        (("(create|make a table",), "unbalanced"),
        (("  ",), "empty"),
        (["create a table"], "tuple"),
    ],
)
def test_unusable_action_phrases_are_refused(phrases: Any, problem: str) -> None:
    with pytest.raises(ManifestError, match=problem):
        Manifest(
            name="sheet", purpose="Test only.", args={}, result=CREATE_SPREADSHEET_MANIFEST.result,
            action_phrases=phrases,
        )  # fmt: skip


# --- The model-free proposer -----------------------------------------------------------------------


@pytest.mark.django_db
def test_a_request_understood_only_in_part_gets_a_question_and_runs_nothing(
    owner: User, purchasing: Path, settings: Any
) -> None:
    # The request form's {fields} slot would swallow "and delete the old files"; the frames read the
    # deletion, see it names no files, and ask instead of planning without it.
    settings.METNOS_MODEL_TIERS = {}

    turn = turn_conduct(turn=turn_submit(owner=owner, text=FORM_REQUEST_WITH_DELETION, enqueue=False))

    assert turn.status == Turn.Status.FAILED
    assert turn.answer == "That would touch a lot of files. Which folder or files exactly?"
    assert not StepRecord.objects.filter(turn=turn).exists()  # never a silent run without it
    assert not list(purchasing.glob("*.xlsx"))
    chosen = TraceEvent.objects.get(turn=turn, kind="path.chosen").data
    assert chosen["error_codes"] == ["request_incomplete"]


@pytest.mark.django_db
def test_request_form_runs_when_the_other_action_is_negated(owner: User, purchasing: Path, settings: Any) -> None:
    settings.METNOS_MODEL_TIERS = {}
    request = (
        "Read the three quotes in the Purchasing folder, compare their prices without deleting the files, "
        "and create a summary table"
    )

    choice = choose_path(turn=turn_submit(owner=owner, text=request, enqueue=False), catalog=build_catalog())

    assert (choice.path, choice.refusal) == ("proposal", None)
    assert choice.plan is not None
    assert [step["tool"] for step in choice.plan["steps"]][-1] == SPREADSHEET


@pytest.mark.django_db
def test_request_form_without_a_requested_action_goes_to_the_planning_model(
    owner: User, settings: Any, scripted_model_server: ScriptedModelServer
) -> None:
    settings.METNOS_MODEL_TIERS = {"planning": scripted_model_server.settings_entry()}
    with_deletion = {"steps": [*WITH_SPREADSHEET["steps"], {"tool": "delete_files", "args": {"from_step": 1}}]}
    scripted_model_server.script(with_deletion)

    choice = choose_path(turn=turn_submit(owner=owner, text=FORM_REQUEST_WITH_DELETION, enqueue=False),
                         catalog=build_catalog())  # fmt: skip

    assert choice.path == "proposal" and choice.plan == with_deletion
    assert choice.reason == "model proposal"
    opening = last_user_message(scripted_model_server.chat_requests[0])
    assert "Actions the request names explicitly" in opening
    assert '"delete the old files" (delete_files)' in opening


# --- The planning model ----------------------------------------------------------------------------


def last_user_message(request: RecordedRequest) -> str:
    return str(request.json["messages"][-1]["content"])


def test_model_proposal_without_the_requested_action_is_asked_again(
    scripted_model_server: ScriptedModelServer, catalog: Catalog
) -> None:
    scripted_model_server.script(FOUND_AND_READ)
    scripted_model_server.script(WITH_SPREADSHEET)

    proposal = propose_with_model(
        request=MODEL_REQUEST, catalog=catalog, tier=scripted_model_server.tier("planning"), usage=ModelUsage(),
        requested=requested_actions(MODEL_REQUEST, catalog),
    )  # fmt: skip

    assert proposal.plan is not None and proposal.plan.as_json() == WITH_SPREADSHEET
    assert (proposal.requests_made, proposal.error_codes) == (2, ("requested_tool_missing",))
    first, second = scripted_model_server.chat_requests
    feedback = last_user_message(second)
    assert feedback.startswith("That plan does not do what the request asks, so nothing ran.")
    assert '[requested_tool_missing] The request explicitly asks for "create a summary table" ' in feedback
    assert f"the plan does not use {SPREADSHEET}" in feedback
    # The refused plan is shown back, after the same opening.
    assert [m["role"] for m in second.json["messages"]] == ["system", "user", "assistant", "user"]
    assert json.loads(second.json["messages"][2]["content"]) == FOUND_AND_READ
    assert second.json["messages"][:2] == first.json["messages"]


def test_model_proposal_that_keeps_leaving_out_the_action_is_refused_naming_it(
    scripted_model_server: ScriptedModelServer, catalog: Catalog
) -> None:
    for _ in range(MAX_PLANNING_REQUESTS + 1):
        scripted_model_server.script(FOUND_AND_READ)

    proposal = propose_with_model(
        request=MODEL_REQUEST, catalog=catalog, tier=scripted_model_server.tier("planning"), usage=ModelUsage(),
        requested=requested_actions(MODEL_REQUEST, catalog),
    )  # fmt: skip

    assert proposal.plan is None
    assert proposal.requests_made == MAX_PLANNING_REQUESTS  # the existing bound, not one more
    assert scripted_model_server.pending == 1
    assert proposal.missing_actions == (SPREADSHEET,)
    assert proposal.refusal == REFUSAL_MISSING_ACTION.format(
        count=MAX_PLANNING_REQUESTS, actions=f'"create a summary table" ({SPREADSHEET})'
    )
    assert "nothing was run" in proposal.refusal


def test_guards_that_cannot_insert_a_producer_ask_the_model_again(
    scripted_model_server: ScriptedModelServer, catalog: Catalog
) -> None:
    without_reader = catalog_subset(catalog, [name for name in catalog.executors if name != "read_files"])
    finder_to_extractor = {"steps": [FOUND_AND_READ["steps"][0], {**FOUND_AND_READ["steps"][2], "args": {
        "from_step": 1, "fields": ["price"]}}]}  # fmt: skip
    scripted_model_server.script(finder_to_extractor)
    scripted_model_server.script({"steps": []})

    proposal = propose_with_model(
        request=MODEL_REQUEST, catalog=without_reader, tier=scripted_model_server.tier("planning"),
        usage=ModelUsage(),
    )  # fmt: skip

    assert proposal.plan is None and proposal.requests_made == 2
    assert proposal.error_codes == ("producer_unavailable", "no_steps")
    assert "[producer_unavailable] extract_entries needs 'text'" in last_user_message(
        scripted_model_server.chat_requests[1]
    )


@pytest.mark.django_db
def test_turn_asks_the_planning_model_again_and_runs_the_complete_plan(
    owner: User, purchasing: Path, settings: Any, scripted_model_server: ScriptedModelServer
) -> None:
    settings.METNOS_MODEL_TIERS = {"planning": scripted_model_server.settings_entry(cloud=True)}
    scripted_model_server.script(FOUND_AND_READ)
    scripted_model_server.script(WITH_SPREADSHEET)

    turn = turn_conduct(turn=turn_submit(owner=owner, text=MODEL_REQUEST, enqueue=False))

    assert turn.status == Turn.Status.COMPLETED, turn.answer
    assert turn.cloud_requests == 2
    assert (purchasing / "summary.xlsx").exists()
    assert [record.tool for record in StepRecord.objects.filter(turn=turn)][-1] == SPREADSHEET


@pytest.mark.django_db
def test_turn_is_refused_naming_the_action_the_model_kept_leaving_out(
    owner: User, purchasing: Path, settings: Any, scripted_model_server: ScriptedModelServer
) -> None:
    settings.METNOS_MODEL_TIERS = {"planning": scripted_model_server.settings_entry()}
    for _ in range(MAX_PLANNING_REQUESTS):
        scripted_model_server.script(FOUND_AND_READ)

    turn = turn_conduct(turn=turn_submit(owner=owner, text=MODEL_REQUEST, enqueue=False))

    assert turn.status == Turn.Status.FAILED
    assert '"create a summary table" (create_files_spreadsheet)' in turn.answer
    assert not StepRecord.objects.filter(turn=turn).exists()
    assert TraceEvent.objects.get(turn=turn, kind="path.chosen").data["error_codes"] == ["requested_tool_missing"]


@pytest.mark.django_db
def test_an_autopath_whose_slot_swallows_a_requested_action_is_not_reused(owner: User, catalog: Catalog) -> None:
    from apps.runtime.models import PlanCache
    from apps.runtime.paths.choice import executor_signatures

    plan = {"steps": [{"tool": "find_files", "args": {"base_path": "~/{slot1}", "pattern": "*.pdf"}}]}
    PlanCache.objects.create(
        owner=owner,
        kind=PlanCache.Kind.AUTOPATH,
        request_key="find the pdf files in {slot1}",
        plan=plan,
        slots=["slot1"],
        executor_signatures=executor_signatures(plan, catalog),
        confirmed=True,
    )
    similar = turn_submit(owner=owner, text="find the pdf files in Offers", enqueue=False)
    assert choose_path(turn=similar, catalog=catalog).path == "autopath"

    swallowing = turn_submit(owner=owner, text="find the pdf files in Offers and delete them", enqueue=False)
    assert [action.executor for action in requested_actions(swallowing.request_text, catalog)] == ["delete_files"]
    choice = choose_path(turn=swallowing, catalog=catalog)
    assert choice.path != "autopath"
    assert choice.plan is None or "delete_files" in json.dumps(choice.plan)
