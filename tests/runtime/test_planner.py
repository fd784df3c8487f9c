"""Model proposals against a real scripted model server and the real catalog.

A proposal is always validated in full; an invalid one gets a bounded number
of new requests that state the precise problems, then a clear refusal; a
model error that asking again would not fix ends it at once. Nothing is run,
every request sent is counted, and no withheld value reaches a request body.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from pytest_django.fixtures import Settings as SettingsWrapper

from apps.accounts.models import User
from apps.runtime.boundary import result_as_json
from apps.runtime.executor import Catalog, StepResult, build_catalog
from apps.runtime.models import StepRecord
from apps.runtime.paths.choice import choose_path
from apps.runtime.paths.planner import (
    MAX_CONTEXT_CHARS,
    MAX_EARLIER_RESULTS_CHARS,
    MAX_FEEDBACK_ERRORS,
    MAX_FEEDBACK_MESSAGE_CHARS,
    MAX_PLANNING_REQUESTS,
    REFUSAL_INVALID,
    REFUSAL_NO_FIT,
    REFUSAL_TIMEOUT,
    REFUSAL_UNAUTHORISED,
    REFUSAL_UNAVAILABLE,
    ModelProposal,
    planning_tier,
    propose_with_model,
)
from apps.runtime.scratchpad import PROJECTION_ITEMS, Scratchpad, scratchpad_for_turn
from apps.runtime.tiers.client import ModelUsage
from apps.runtime.tiers.config import ModelTier
from apps.runtime.turns import turn_submit
from tests.model_server import RecordedRequest, ScriptedModelServer, unused_loopback_port

CANARY = "CANARY-S3CRET-123"
REQUEST = "Read the three quotes in the Purchasing folder, compare their prices, and create a summary table"
# The spec's example plan, over the executors the runtime app registers.
SPEC_PLAN: dict[str, Any] = {
    "steps": [
        {"tool": "find_files", "args": {"base_path": "~/Purchasing", "pattern": "*.pdf"}},
        {"tool": "read_files", "args": {"from_step": 1}},
        {"tool": "extract_entries", "args": {"from_step": 2, "fields": ["supplier", "price"]}},
        {"tool": "create_files_spreadsheet", "args": {"from_step": 3, "path": "~/Purchasing/summary.xlsx"}},
    ]
}


@pytest.fixture
def catalog() -> Catalog:
    """The real catalog: the executors the runtime app registered in ready()."""
    built = build_catalog()
    assert {"find_files", "read_files", "extract_entries", "create_files_spreadsheet"} <= set(built.executors)
    return built


def propose(server: ScriptedModelServer, catalog: Catalog, **options: Any) -> tuple[ModelProposal, ModelUsage]:
    usage = ModelUsage()
    model_tier: ModelTier = options.pop("tier", None) or server.tier("planning")
    proposal = propose_with_model(
        request=options.pop("request", REQUEST), catalog=catalog, tier=model_tier, usage=usage, **options
    )
    return proposal, usage


def messages(request: RecordedRequest) -> list[dict[str, Any]]:
    body = request.json
    assert isinstance(body, dict)
    return list(body["messages"])


def last_user_message(request: RecordedRequest) -> str:
    return str(messages(request)[-1]["content"])


def is_refusal_sentence(text: str | None) -> bool:
    return bool(text) and text is not None and text[0].isupper() and text.endswith(".") and "nothing was run" in text


# --- A valid proposal -------------------------------------------------------------------


def test_valid_first_proposal_is_returned_and_counted(
    scripted_model_server: ScriptedModelServer, catalog: Catalog
) -> None:
    scripted_model_server.script(SPEC_PLAN)

    proposal, usage = propose(scripted_model_server, catalog, tier=scripted_model_server.tier("planning", cloud=True))

    assert proposal.plan is not None
    assert proposal.plan.as_json() == SPEC_PLAN
    assert (proposal.requests_made, proposal.refusal, proposal.error_codes) == (1, None, ())
    assert usage.requests("planning") == 1
    assert usage.cloud_requests == 1  # a cloud tier: counted for the turn
    [request] = scripted_model_server.chat_requests
    body = request.json
    schema = body["response_format"]["json_schema"]["schema"]
    assert schema["properties"]["steps"]["items"]["properties"]["tool"]["enum"] == sorted(catalog.executors)
    assert body["response_format"]["json_schema"]["strict"] is True


def test_prompt_describes_the_catalog_and_the_plan_format(
    scripted_model_server: ScriptedModelServer, catalog: Catalog
) -> None:
    scripted_model_server.script(SPEC_PLAN)

    propose(scripted_model_server, catalog)

    [request] = scripted_model_server.chat_requests
    system, user = messages(request)
    assert system["role"] == "system"
    for name, manifest in catalog.manifests.items():
        assert f'"name":"{name}"' in system["content"]
        assert manifest.purpose in system["content"]
    # Argument schemas come from the manifests, references and numbering are explained.
    assert '"base_path":{"type":"path","required":true' in system["content"]
    assert '"from_step"' in system["content"]
    assert "{{stepN.FIELD}}" in system["content"]
    assert "numbered from 1" in system["content"]
    assert "request_forms" not in system["content"]
    assert user == {"role": "user", "content": f"The user's request:\n{REQUEST}"}


# --- Invalid proposals ------------------------------------------------------------------

INVALID_PROPOSALS = {
    "unknown_executor": {"steps": [{"tool": "format_disk", "args": {}}]},
    "wrong_type": {"steps": [{"tool": "find_files", "args": {"base_path": 42}}]},
    "reference_to_future_step": {
        "steps": [
            {"tool": "read_files", "args": {"from_step": 2}},
            {"tool": "find_files", "args": {"base_path": "~/Purchasing"}},
        ]
    },
    "inconsistent_combination": {
        "steps": [
            {"tool": "find_files", "args": {"base_path": "~/Purchasing"}},
            {"tool": "read_files", "args": {"from_step": 1, "paths": ["~/Purchasing/a.pdf"]}},
        ]
    },
}


@pytest.mark.parametrize("code", sorted(INVALID_PROPOSALS))
def test_invalid_proposal_gets_a_new_request_with_the_errors(
    scripted_model_server: ScriptedModelServer, catalog: Catalog, code: str
) -> None:
    scripted_model_server.script(INVALID_PROPOSALS[code])
    scripted_model_server.script(SPEC_PLAN)

    proposal, usage = propose(scripted_model_server, catalog)

    assert proposal.plan is not None
    assert proposal.plan.as_json() == SPEC_PLAN
    assert proposal.refusal is None
    assert proposal.requests_made == 2 == usage.requests("planning")
    assert proposal.error_codes == (code,)
    first, second = scripted_model_server.chat_requests
    feedback = last_user_message(second)
    assert f"[{code}]" in feedback
    assert "not a valid plan" in feedback
    # The new request repeats the opening, not a growing history.
    assert messages(second)[:2] == messages(first)


def test_refused_plan_is_shown_back_to_the_model(scripted_model_server: ScriptedModelServer, catalog: Catalog) -> None:
    scripted_model_server.script(INVALID_PROPOSALS["wrong_type"])
    scripted_model_server.script(SPEC_PLAN)

    propose(scripted_model_server, catalog)

    _, second = scripted_model_server.chat_requests
    roles = [message["role"] for message in messages(second)]
    assert roles == ["system", "user", "assistant", "user"]
    assert messages(second)[2]["content"] == '{"steps":[{"tool":"find_files","args":{"base_path":42}}]}'
    assert "step 1 (find_files): argument 'base_path'" in last_user_message(second)


def test_three_invalid_proposals_end_in_a_clear_refusal(
    scripted_model_server: ScriptedModelServer, catalog: Catalog
) -> None:
    for code in ("wrong_type", "unknown_executor", "reference_to_future_step"):
        scripted_model_server.script(INVALID_PROPOSALS[code])
    scripted_model_server.script(SPEC_PLAN)  # never asked for

    proposal, usage = propose(scripted_model_server, catalog)

    assert proposal.plan is None
    assert proposal.requests_made == MAX_PLANNING_REQUESTS == 3
    assert usage.requests("planning") == 3
    assert proposal.refusal == REFUSAL_INVALID.format(count=3)
    assert is_refusal_sentence(proposal.refusal)
    assert proposal.error_codes == ("wrong_type", "unknown_executor", "reference_to_future_step")
    assert len(scripted_model_server.chat_requests) == 3
    assert scripted_model_server.pending == 1


def test_max_requests_bounds_the_new_requests(scripted_model_server: ScriptedModelServer, catalog: Catalog) -> None:
    scripted_model_server.script(INVALID_PROPOSALS["wrong_type"])
    scripted_model_server.script(SPEC_PLAN)

    proposal, _ = propose(scripted_model_server, catalog, max_requests=1)

    assert proposal.plan is None
    assert proposal.requests_made == 1
    assert proposal.refusal == REFUSAL_INVALID.format(count=1)
    assert scripted_model_server.pending == 1


def test_feedback_is_bounded(scripted_model_server: ScriptedModelServer, catalog: Catalog) -> None:
    long_value = "x" * 5000
    many_errors = {
        "steps": [{"tool": "find_files", "args": {"base_path": 42, f"extra_{n}": long_value}} for n in range(20)]
    }
    scripted_model_server.script(many_errors)
    scripted_model_server.script(SPEC_PLAN)

    proposal, _ = propose(scripted_model_server, catalog)

    assert proposal.plan is not None
    _, second = scripted_model_server.chat_requests
    feedback = last_user_message(second)
    listed = [line for line in feedback.splitlines() if line.startswith("- [")]
    assert len(listed) == MAX_FEEDBACK_ERRORS
    assert all(len(line) <= MAX_FEEDBACK_MESSAGE_CHARS + 40 for line in listed)
    assert "more problems)" in feedback
    assert long_value not in second.text  # too large to show back: the proposal is left out
    assert [message["role"] for message in messages(second)] == ["system", "user", "user"]


def test_truncated_reply_is_counted_and_treated_as_invalid(
    scripted_model_server: ScriptedModelServer, catalog: Catalog
) -> None:
    scripted_model_server.script(SPEC_PLAN, finish_reason="length")
    scripted_model_server.script(SPEC_PLAN)

    proposal, usage = propose(scripted_model_server, catalog, tier=scripted_model_server.tier("planning", cloud=True))

    assert proposal.plan is not None
    assert proposal.requests_made == 2
    assert usage.cloud_requests == 2  # the truncated request stays counted
    assert proposal.error_codes == ("truncated",)
    assert "[truncated]" in last_user_message(scripted_model_server.chat_requests[1])


def test_reply_that_is_not_json_is_treated_as_invalid(
    scripted_model_server: ScriptedModelServer, catalog: Catalog
) -> None:
    scripted_model_server.script("Sure! Here is the plan: find the files, then read them.")
    scripted_model_server.script(SPEC_PLAN)

    proposal, _ = propose(scripted_model_server, catalog)

    assert proposal.plan is not None
    assert proposal.error_codes == ("not_json",)
    assert "[not_json]" in last_user_message(scripted_model_server.chat_requests[1])


def test_empty_plan_means_no_executor_fits(scripted_model_server: ScriptedModelServer, catalog: Catalog) -> None:
    scripted_model_server.script({"steps": []})
    scripted_model_server.script(SPEC_PLAN)

    proposal, _ = propose(scripted_model_server, catalog, request="Book me a flight to Lisbon")

    assert proposal.plan is None
    assert proposal.refusal == REFUSAL_NO_FIT
    assert is_refusal_sentence(proposal.refusal)
    assert (proposal.requests_made, proposal.error_codes) == (1, ("no_steps",))
    assert scripted_model_server.pending == 1


# --- Model errors that asking again would not fix ------------------------------------


def test_unauthorised_ends_without_further_requests(
    scripted_model_server: ScriptedModelServer, catalog: Catalog
) -> None:
    scripted_model_server.script(status=401)
    scripted_model_server.script(SPEC_PLAN)

    proposal, usage = propose(scripted_model_server, catalog)

    assert proposal.plan is None
    assert proposal.refusal == REFUSAL_UNAUTHORISED
    assert is_refusal_sentence(proposal.refusal)
    assert (proposal.requests_made, proposal.error_codes) == (1, ("unauthorised",))
    assert usage.requests("planning") == 1
    assert len(scripted_model_server.chat_requests) == 1
    assert scripted_model_server.pending == 1


def test_unreachable_model_is_refused_without_counting(catalog: Catalog) -> None:
    unreachable = ModelTier(
        name="planning",
        base_url=f"http://127.0.0.1:{unused_loopback_port()}/v1",
        model="m",
        timeout_seconds=2,
        cloud=False,
    )
    usage = ModelUsage()

    proposal = propose_with_model(request=REQUEST, catalog=catalog, tier=unreachable, usage=usage)

    assert proposal.plan is None
    assert proposal.refusal == REFUSAL_UNAVAILABLE
    assert (proposal.requests_made, proposal.error_codes) == (0, ("connect_failed",))
    assert usage.requests() == 0


def test_passed_deadline_sends_nothing(scripted_model_server: ScriptedModelServer, catalog: Catalog) -> None:
    scripted_model_server.script(SPEC_PLAN)

    proposal, usage = propose(scripted_model_server, catalog, deadline=time.monotonic() - 1)

    assert proposal.refusal == REFUSAL_TIMEOUT
    assert (proposal.requests_made, proposal.error_codes) == (0, ("deadline_passed",))
    assert scripted_model_server.chat_requests == []
    assert usage.requests() == 0


# --- Secrets and context -------------------------------------------------------------


def test_canary_credential_appears_in_no_model_request_body(
    scripted_model_server: ScriptedModelServer, catalog: Catalog
) -> None:
    # The first reply echoes the canary, so the new request would repeat it twice over.
    echo = {"steps": [{"tool": "find_files", "args": {"base_path": 42, "pattern": f"{CANARY}*.pdf"}}]}
    scripted_model_server.script(echo)
    scripted_model_server.script(SPEC_PLAN)

    proposal, _ = propose(
        scripted_model_server,
        catalog,
        request=f"Find the PDF files in ~/Purchasing; my password is {CANARY}",
        context={"note": f"token {CANARY}"},
        secrets=(CANARY,),
    )

    assert proposal.plan is not None
    assert len(scripted_model_server.chat_requests) == 2
    for request in scripted_model_server.requests:
        assert CANARY not in request.text
        assert CANARY not in str(request.headers)
    assert "[redacted]" in scripted_model_server.chat_requests[0].text


def test_context_is_shown_explicitly_truncated(scripted_model_server: ScriptedModelServer, catalog: Catalog) -> None:
    scripted_model_server.script(SPEC_PLAN)
    context = {"step_1": {"truncated": True, "items": ["y" * (MAX_CONTEXT_CHARS * 2)]}}

    propose(scripted_model_server, catalog, context=context)

    user = last_user_message(scripted_model_server.chat_requests[0])
    assert "Context (JSON):" in user
    assert f"[context truncated: the first {MAX_CONTEXT_CHARS} of" in user
    assert len(user) < MAX_CONTEXT_CHARS + len(REQUEST) + 200


# --- The planning tier ----------------------------------------------------------------


def test_planning_tier_is_none_unless_configured(
    settings: SettingsWrapper, scripted_model_server: ScriptedModelServer
) -> None:
    settings.METNOS_MODEL_TIERS = {"extraction": scripted_model_server.settings_entry()}
    assert planning_tier() is None  # never another tier

    settings.METNOS_MODEL_TIERS = {"planning": scripted_model_server.settings_entry()}
    configured = planning_tier()
    assert configured is not None
    assert (configured.name, configured.base_url) == ("planning", scripted_model_server.base_url)


# --- Earlier results: the scratchpad's projection, never the whole results -----------------------

BIG_COLLECTION = 500


def big_find_result(canary: str = "") -> StepResult:
    """A finder's result far larger than the planner may see; the last item is recognisable."""
    items = tuple(
        {"path": f"~/Archive/scan-{n:04d}.pdf", "name": f"scan-{n:04d}.pdf", "note": ("n" * 300) + canary}
        for n in range(BIG_COLLECTION)
    )
    return StepResult(outcome="success", items=items, summary=f"{BIG_COLLECTION} files {canary}")


def test_planner_view_fits_its_budget_and_says_what_it_cut() -> None:
    pad = Scratchpad()
    pad.put(1, big_find_result(), tool="find_files")
    pad.put(2, StepResult(outcome="empty", summary="nothing read"), tool="read_files")

    view = pad.planner_view(max_chars=MAX_EARLIER_RESULTS_CHARS)

    assert len(json.dumps(view, ensure_ascii=False)) <= MAX_EARLIER_RESULTS_CHARS
    first, second = view
    assert (first["step"], first["tool"], first["truncated"]) == (1, "find_files", True)
    assert first["total_items"] == BIG_COLLECTION and 0 < first["shown_items"] < PROJECTION_ITEMS
    assert first["items"][0]["note"].endswith("more characters]")
    assert (second["tool"], second["outcome"], second["truncated"]) == ("read_files", "empty", False)


def test_planner_view_uses_the_default_projection_when_it_fits() -> None:
    pad = Scratchpad()
    pad.put(1, StepResult(outcome="success", items=({"path": "~/a.pdf"},)))
    assert pad.planner_view(max_chars=MAX_EARLIER_RESULTS_CHARS) == pad.projections()


def test_model_sees_the_projection_of_earlier_results_never_the_whole_nor_a_secret(
    scripted_model_server: ScriptedModelServer, catalog: Catalog
) -> None:
    scripted_model_server.script(SPEC_PLAN)
    earlier = Scratchpad()
    earlier.put(1, big_find_result(canary=CANARY), tool="find_files")

    proposal, _ = propose(scripted_model_server, catalog, earlier=earlier, secrets=(CANARY,))

    assert proposal.plan is not None
    [request] = scripted_model_server.chat_requests
    user = last_user_message(request)
    assert "Results of the steps that already ran in this turn" in user
    shown = json.loads(user.split("cannot reference these results.\n", 1)[1])
    assert shown[0]["truncated"] is True
    assert (shown[0]["total_items"], shown[0]["tool"]) == (BIG_COLLECTION, "find_files")
    assert shown[0]["shown_items"] < BIG_COLLECTION
    assert "more characters]" in user  # strings are cut with a visible marker
    assert "scan-0000.pdf" in user
    assert f"scan-{BIG_COLLECTION - 1:04d}.pdf" not in request.text  # the full collection stays in the scratchpad
    assert len(request.text) < 40_000
    assert CANARY not in request.text
    assert "[redacted]" in request.text


def test_no_earlier_results_means_no_results_section(
    scripted_model_server: ScriptedModelServer, catalog: Catalog
) -> None:
    scripted_model_server.script(SPEC_PLAN)
    propose(scripted_model_server, catalog, earlier=Scratchpad())
    assert "already ran" not in scripted_model_server.chat_requests[0].text


@pytest.mark.django_db
def test_a_resumed_turn_plans_with_the_projection_of_its_recorded_results(
    owner: User, second_user: User, settings: SettingsWrapper, scripted_model_server: ScriptedModelServer,
    catalog: Catalog,
) -> None:  # fmt: skip
    settings.METNOS_MODEL_TIERS = {"planning": scripted_model_server.settings_entry()}
    scripted_model_server.script(SPEC_PLAN)
    earlier = turn_submit(owner=owner, text="List the scans in ~/Archive", enqueue=False)
    StepRecord.objects.create(
        owner=owner, turn=earlier, index=1, tool="find_files", outcome="success",
        result=result_as_json(big_find_result()),
    )  # fmt: skip
    resumed = turn_submit(owner=owner, text="Now read them and make a table of their dates", enqueue=False)
    resumed.resumed_from = earlier
    resumed.save(update_fields=["resumed_from"])
    assert scratchpad_for_turn(resumed).results.keys() == {1}
    # A turn pointed at another owner's turn sees none of its results.
    foreign = turn_submit(owner=second_user, text="Read my notes", enqueue=False)
    StepRecord.objects.create(
        owner=second_user, turn=foreign, index=1, tool="read_files", outcome="success",
        result=result_as_json(StepResult(outcome="success", items=({"text": "FOREIGN-TEXT"},))),
    )  # fmt: skip
    stray = turn_submit(owner=owner, text="Read them", enqueue=False)
    stray.resumed_from = foreign
    stray.save(update_fields=["resumed_from"])
    assert len(scratchpad_for_turn(stray)) == 0

    choice = choose_path(turn=resumed, catalog=catalog)

    assert choice.path == "proposal"
    [request] = scripted_model_server.chat_requests
    user = last_user_message(request)
    assert '"tool": "find_files"' in user and '"truncated": true' in user
    assert f'"total_items": {BIG_COLLECTION}' in user
    assert f"scan-{BIG_COLLECTION - 1:04d}.pdf" not in request.text
