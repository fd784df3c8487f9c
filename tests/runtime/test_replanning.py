"""A new proposal when the guards refuse a plan no model proposed.

Plans from the fast path or a resumption that the shared guards refuse go
to the planning model (bounded, with the guards' problems named) when one is
configured, and fail clearly, naming what is missing, when none is; a plan
given explicitly is never replaced. See ``apps/runtime/paths/replanning.py``;
what the planner sees of earlier results then is in
``test_replanning_projection.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from apps.accounts.models import User
from apps.runtime.executor import Catalog, ExecutionContext, StepError, StepResult, build_catalog, catalog_subset
from apps.runtime.manifests import ArgSpec, Manifest, ResultShape
from apps.runtime.models import PlanCache, StepRecord, TraceEvent, Turn
from apps.runtime.paths.choice import executor_signatures, normalise_request
from apps.runtime.paths.replanning import REFUSAL_CHANGED, REFUSAL_NO_MODEL
from apps.runtime.turns import turn_conduct, turn_submit
from tests.model_server import ScriptedModelServer
from tests.runtime.test_canary import CanaryMandate

pytestmark = pytest.mark.django_db

# No request form matches it and it names no action: only a plan cache or a model plans it.
PRICES_REQUEST = "Which prices do the quotes in Purchasing show?"
# A finder straight into the extractor: the guards must insert the reader, which this catalog lacks.
WITHOUT_READER: dict[str, Any] = {
    "steps": [
        {"tool": "find_files", "args": {"base_path": "~/Purchasing", "pattern": "*.pdf"}},
        {"tool": "extract_entries", "args": {"from_step": 1, "fields": ["supplier", "price"]}},
    ]
}
FIND_QUOTES: dict[str, Any] = {
    "steps": [{"tool": "find_files", "args": {"base_path": "~/Purchasing", "pattern": "*.pdf"}}]
}


@pytest.fixture
def no_reader() -> Catalog:
    full = build_catalog()
    return catalog_subset(full, [name for name in full.executors if name != "read_files"])


@pytest.fixture
def planning_model(settings: Any, scripted_model_server: ScriptedModelServer) -> ScriptedModelServer:
    settings.METNOS_MODEL_TIERS = {"planning": scripted_model_server.settings_entry(cloud=True)}
    return scripted_model_server


@pytest.fixture
def no_model(settings: Any) -> None:
    settings.METNOS_MODEL_TIERS = {}


def _cache_fast_path(owner: User, request: str, plan: Mapping[str, Any], catalog: Catalog) -> PlanCache:
    return PlanCache.objects.create(
        owner=owner, kind=PlanCache.Kind.FAST_PATH, request_key=normalise_request(request), plan=dict(plan),
        executor_signatures=executor_signatures(plan, catalog),
    )  # fmt: skip


def _paths_chosen(turn: Turn) -> list[dict[str, Any]]:
    return [event.data for event in TraceEvent.objects.filter(turn=turn, kind="path.chosen").order_by("sequence")]


# --- A fast-path plan the guards refuse ---------------------------------------------------------


def test_without_a_model_a_refused_fast_path_plan_fails_naming_what_it_misses(
    owner: User, purchasing: Path, no_reader: Catalog, no_model: None
) -> None:
    _cache_fast_path(owner, PRICES_REQUEST, WITHOUT_READER, no_reader)

    turn = turn_conduct(turn=turn_submit(owner=owner, text=PRICES_REQUEST, enqueue=False), catalog=no_reader)

    assert turn.status == Turn.Status.FAILED
    assert turn.answer.startswith(REFUSAL_NO_MODEL.split("{missing}")[0])
    assert "read_files" in turn.answer  # the producer it needs, named
    assert "no planning model is configured" in turn.answer
    assert not StepRecord.objects.filter(turn=turn).exists()
    assert turn.cloud_requests == 0
    # A cached plan that cannot serve the request any more is forgotten.
    assert not PlanCache.objects.filter(owner=owner, kind=PlanCache.Kind.FAST_PATH).exists()


def test_with_a_model_a_refused_fast_path_plan_is_proposed_anew_naming_the_problem(
    owner: User, purchasing: Path, no_reader: Catalog, planning_model: ScriptedModelServer
) -> None:
    _cache_fast_path(owner, PRICES_REQUEST, WITHOUT_READER, no_reader)
    planning_model.script(FIND_QUOTES)

    turn = turn_conduct(turn=turn_submit(owner=owner, text=PRICES_REQUEST, enqueue=False), catalog=no_reader)

    assert turn.status == Turn.Status.COMPLETED, turn.answer
    assert turn.path == Turn.Path.PROPOSAL
    assert turn.cloud_requests == 1
    [asked] = planning_model.chat_requests
    assert "the plan checks asked for a new proposal" in asked.text
    assert "[producer_unavailable]" in asked.text and "read_files" in asked.text
    assert [record.tool for record in StepRecord.objects.filter(turn=turn)] == ["find_files"]
    assert [entry["path"] for entry in _paths_chosen(turn)] == ["fast_path", "proposal"]
    # The plan that worked replaces the refused one.
    assert PlanCache.objects.get(owner=owner, kind=PlanCache.Kind.FAST_PATH).plan == FIND_QUOTES


def test_a_new_proposal_that_stays_invalid_is_refused_after_its_bound(
    owner: User, purchasing: Path, no_reader: Catalog, planning_model: ScriptedModelServer
) -> None:
    _cache_fast_path(owner, PRICES_REQUEST, WITHOUT_READER, no_reader)
    for _ in range(3):
        planning_model.script(WITHOUT_READER)  # the same problem again: asked again, within the bound

    turn = turn_conduct(turn=turn_submit(owner=owner, text=PRICES_REQUEST, enqueue=False), catalog=no_reader)

    assert turn.status == Turn.Status.FAILED
    assert len(planning_model.chat_requests) == 3
    assert not StepRecord.objects.filter(turn=turn).exists()


def test_a_plan_given_explicitly_is_never_replaced(
    owner: User, purchasing: Path, no_reader: Catalog, planning_model: ScriptedModelServer
) -> None:
    turn = turn_conduct(
        turn=turn_submit(owner=owner, text=PRICES_REQUEST, plan=WITHOUT_READER, enqueue=False), catalog=no_reader
    )

    assert turn.status == Turn.Status.FAILED
    assert "a new proposal is needed" in turn.answer and "read_files" in turn.answer
    assert planning_model.chat_requests == []


# --- A resumed plan the guards refuse -------------------------------------------------------------

# Names an action (a summary table) that the suspended plan below does not do.
TABLE_REQUEST = "Go through the scans in ~/Archive and create a summary table"
SCANS = 500


class LeakyScanFinder:
    """Reads only; returns far more than the planner may see, each item holding the turn's secret."""

    manifest = Manifest(
        name="find_scans",
        purpose="Test only: lists the scans of a folder.",
        args={"base_path": ArgSpec(type="path", required=True)},
        result=ResultShape(kind="collection", fields=("path", "name", "note")),
        capabilities=frozenset({"files.read"}),
    )

    def run(self, context: ExecutionContext, args: Mapping[str, Any]) -> StepResult:
        secret = context.mandate.secrets()[0] if context.mandate.secrets() else ""
        items = tuple(
            {"path": f"~/Archive/scan-{n:04d}.pdf", "name": f"scan-{n:04d}.pdf", "note": "n" * 300 + secret}
            for n in range(SCANS)
        )
        return StepResult(outcome="success", items=items, summary=f"{SCANS} scans, signed in with {secret}")


class BusyArchiver:
    """Writes, so its recoverable failure is not retried; it recorded no effect (or the one given)."""

    manifest = Manifest(
        name="archive_scans",
        purpose="Test only: moves scans to an archive.",
        args={"from_step": ArgSpec(type="collection", required=True)},
        result=ResultShape(kind="none"),
        capabilities=frozenset({"files.write"}),
    )

    def __init__(self, effects: tuple[Mapping[str, Any], ...] = ()) -> None:
        self.effects = effects

    def run(self, context: ExecutionContext, args: Mapping[str, Any]) -> StepResult:
        error = StepError("recoverable", "busy", "The archive was busy.")
        return StepResult(outcome="failed", error=error, effects=self.effects)


SUSPENDED_PLAN: dict[str, Any] = {
    "steps": [
        {"tool": "find_scans", "args": {"base_path": "~/Archive"}},
        {"tool": "archive_scans", "args": {"from_step": 1}},
    ]
}
TABLE_PLAN: dict[str, Any] = {
    "steps": [
        {"tool": "find_files", "args": {"base_path": "~/Archive", "pattern": "*.pdf"}},
        {"tool": "create_files_spreadsheet", "args": {"from_step": 1, "path": "~/Archive/summary.xlsx"}},
    ]
}


def suspended_turn(owner: User, root: Path, archiver: BusyArchiver) -> tuple[Turn, Catalog]:
    """A turn stopped by a recoverable error, whose plan came from the fast path before the guards' check."""
    (root / "Archive").mkdir()
    (root / "Archive" / "scan-0000.pdf").write_bytes(b"%PDF-1.4\n")
    catalog = build_catalog({**build_catalog().executors, "find_scans": LeakyScanFinder(), "archive_scans": archiver})
    turn = turn_submit(owner=owner, text=TABLE_REQUEST, plan=SUSPENDED_PLAN, enqueue=False)
    turn = turn_conduct(turn=turn, catalog=catalog, mandate=CanaryMandate())
    assert turn.status == Turn.Status.PARTIAL, turn.answer
    Turn.objects.filter(pk=turn.pk).update(path=Turn.Path.FAST_PATH)
    return turn, catalog


def resume_turn(owner: User, suspended: Turn, catalog: Catalog) -> Turn:
    turn = turn_submit(owner=owner, text="continue", conversation=suspended.conversation, enqueue=False)
    return turn_conduct(turn=turn, catalog=catalog)


def test_without_a_model_a_refused_resumed_plan_fails_naming_the_missing_action(
    owner: User, root: Path, no_model: None
) -> None:
    suspended, catalog = suspended_turn(owner, root, BusyArchiver())

    resumed = resume_turn(owner, suspended, catalog)

    assert resumed.status == Turn.Status.FAILED
    assert resumed.answer == REFUSAL_NO_MODEL.format(missing="create_files_spreadsheet")
    assert resumed.resumed_from_id == suspended.pk
    assert not StepRecord.objects.filter(turn=resumed).exists()


def test_a_resumed_plan_whose_steps_changed_something_is_not_planned_anew(
    owner: User, root: Path, planning_model: ScriptedModelServer
) -> None:
    suspended, catalog = suspended_turn(owner, root, BusyArchiver(effects=({"kind": "moved", "count": 1},)))

    resumed = resume_turn(owner, suspended, catalog)

    assert resumed.status == Turn.Status.FAILED
    assert resumed.answer == REFUSAL_CHANGED.format(missing="create_files_spreadsheet")
    assert planning_model.chat_requests == []
