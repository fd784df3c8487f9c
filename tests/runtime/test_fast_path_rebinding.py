"""Fast path and variable arguments: a plan bound to the day it was made is not reused the next day.

A request that says "today" is reused from a plan cache only when its plan
carries "today" to the executor, which binds it when the step runs; a plan
in which the planner fixed the date is never cached, and one cached before
that rule is refused and forgotten. See ``apps/runtime/plans/cache_binding.py``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

import pytest

from apps.accounts.models import User
from apps.runtime.executor import Catalog, ExecutionContext, StepResult, build_catalog
from apps.runtime.manifests import ArgSpec, Manifest, ResultShape
from apps.runtime.models import PlanCache, StepRecord, Turn
from apps.runtime.paths.choice import executor_signatures, normalise_request
from apps.runtime.paths.forms import propose_from_forms
from apps.runtime.plans.cache_binding import relative_terms, time_bound_terms
from apps.runtime.turns import turn_conduct, turn_submit
from tests.model_server import ScriptedModelServer

pytestmark = pytest.mark.django_db

REQUEST = "Which notes did I write today?"
MONDAY, TUESDAY = dt.date(2026, 11, 30), dt.date(2026, 12, 1)
BOUND = {"steps": [{"tool": "list_notes", "args": {"day": MONDAY.isoformat()}}]}
CARRIED = {"steps": [{"tool": "list_notes", "args": {"day": "today"}}]}


class NotesOfDay:
    """Lists the notes of a day; "today" is read against the step's own ``context.today``."""

    manifest = Manifest(
        name="list_notes",
        purpose="Test only: lists the notes written on a day (an ISO date, or 'today').",
        args={"day": ArgSpec(type="string", required=True)},
        result=ResultShape(kind="collection", fields=("day",)),
        capabilities=frozenset({"files.read"}),
    )

    def __init__(self) -> None:
        self.days: list[str] = []

    def run(self, context: ExecutionContext, args: Mapping[str, Any]) -> StepResult:
        day = str(args["day"])
        if day.casefold() == "today" and context.today is not None:
            day = context.today.isoformat()
        self.days.append(day)
        return StepResult(outcome="success", items=({"day": day},), summary=f"notes of {day}")


@pytest.fixture
def notes() -> NotesOfDay:
    return NotesOfDay()


@pytest.fixture
def catalog(notes: NotesOfDay) -> Catalog:
    return build_catalog({"list_notes": notes})


@pytest.fixture
def planning_model(settings: Any, scripted_model_server: ScriptedModelServer) -> ScriptedModelServer:
    settings.METNOS_MODEL_TIERS = {"planning": scripted_model_server.settings_entry()}
    return scripted_model_server


def _ask_on(day: dt.date, owner: User, catalog: Catalog, monkeypatch: pytest.MonkeyPatch) -> Turn:
    # The boundary gives each step the local date it runs on.
    monkeypatch.setattr("django.utils.timezone.localdate", lambda *args, **kwargs: day)
    return turn_conduct(turn=turn_submit(owner=owner, text=REQUEST, enqueue=False), catalog=catalog)


def test_a_plan_whose_date_the_planner_fixed_is_never_cached_and_is_planned_again(
    owner: User, catalog: Catalog, notes: NotesOfDay, planning_model: ScriptedModelServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    planning_model.script(BOUND)
    planning_model.script({"steps": [{"tool": "list_notes", "args": {"day": TUESDAY.isoformat()}}]})

    monday = _ask_on(MONDAY, owner, catalog, monkeypatch)
    assert monday.status == Turn.Status.COMPLETED, monday.answer
    assert not PlanCache.objects.filter(owner=owner).exists()  # neither a fast path nor an autopath

    tuesday = _ask_on(TUESDAY, owner, catalog, monkeypatch)

    assert tuesday.path == Turn.Path.PROPOSAL  # asked again, not Monday's plan replayed
    assert len(planning_model.chat_requests) == 2
    assert notes.days == [MONDAY.isoformat(), TUESDAY.isoformat()]


def test_a_plan_that_carries_today_is_reused_and_bound_again_when_it_runs(
    owner: User, catalog: Catalog, notes: NotesOfDay, planning_model: ScriptedModelServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    planning_model.script(CARRIED)

    monday = _ask_on(MONDAY, owner, catalog, monkeypatch)
    tuesday = _ask_on(TUESDAY, owner, catalog, monkeypatch)

    assert (monday.path, tuesday.path) == (Turn.Path.PROPOSAL, Turn.Path.FAST_PATH)
    assert tuesday.status == Turn.Status.COMPLETED, tuesday.answer
    assert len(planning_model.chat_requests) == 1
    assert notes.days == [MONDAY.isoformat(), TUESDAY.isoformat()]


def test_without_a_model_a_plan_cached_with_a_fixed_date_is_refused_and_forgotten(
    owner: User, catalog: Catalog, notes: NotesOfDay, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.METNOS_MODEL_TIERS = {}
    PlanCache.objects.create(
        owner=owner, kind=PlanCache.Kind.FAST_PATH, request_key=normalise_request(REQUEST), plan=BOUND,
        executor_signatures=executor_signatures(BOUND, catalog),
    )  # fmt: skip

    tuesday = _ask_on(TUESDAY, owner, catalog, monkeypatch)

    assert tuesday.status == Turn.Status.FAILED
    assert "no request form matches and no planning model is configured" in tuesday.answer
    assert notes.days == []  # Monday's plan did not run on Tuesday
    assert not StepRecord.objects.filter(turn=tuesday).exists()
    assert not PlanCache.objects.filter(owner=owner).exists()


def test_the_collection_forms_carry_the_period_to_the_executor_that_binds_it() -> None:
    request = "collect all invoices from last month from https://energy.example into a spreadsheet"
    proposal = propose_from_forms(request, build_catalog())
    assert proposal is not None
    assert relative_terms(request) == ("last month",)
    assert time_bound_terms(request, proposal.plan) == ()
    italian = "raccogli tutte le fatture del mese scorso da https://energy.example in un foglio di calcolo"
    proposal = propose_from_forms(italian, build_catalog())
    assert proposal is not None
    assert time_bound_terms(italian, proposal.plan) == ()


@pytest.mark.parametrize(
    ("request_text", "terms"),
    [
        ("Which notes did I write today?", ("today",)),
        ("List the PDFs I received last week", ("last week",)),
        ("Read the latest invoice in ~/Bills", ("latest",)),
        ("Find the files I changed in the past 3 days", ("past 3 days",)),
        ("Show the quotes from 2 weeks ago", ("2 weeks ago",)),
        ("Quali note ho scritto oggi?", ("oggi",)),
        ("Elenca le fatture del mese scorso", ("mese scorso",)),
        ("Leggi l'ultima fattura nella cartella Bollette", ("ultima",)),
        ("Trova i file di quest'anno", ("quest'anno",)),
        ("Read the three quotes in the Purchasing folder", ()),
        ("Find the files in 2026-11", ()),
        ('Find the file called "latest news"', ()),  # quoted text is data
    ],
)
def test_relative_expressions_are_found_in_english_and_italian(request_text: str, terms: tuple[str, ...]) -> None:
    assert relative_terms(request_text) == terms
