"""The collection executors through the runtime: turns, request forms, documents, an interrupted search."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from openpyxl import load_workbook

from apps.documents.files import owner_files_root
from apps.documents.models import StoredDownload
from apps.runtime.catalog import current_catalog
from apps.runtime.executor import ExecutionContext, build_catalog
from apps.runtime.models import ConsentRequest, StepRecord, TraceEvent
from apps.runtime.paths.forms import propose_from_forms
from apps.runtime.turns import turn_conduct, turn_submit
from apps.sites.collection.budget import CollectionBudget
from apps.sites.collection.executor import CollectSiteDocuments, CollectSiteRecords
from tests.model_server import ScriptedModelServer
from tests.sites.fixture_web import FixtureWeb

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
TODAY = dt.date(2026, 7, 1)


def _spreadsheet_rows(owner: Any, name: str) -> list[dict[str, Any]]:
    sheet = load_workbook(owner_files_root(owner=owner) / name).active
    header, *rows = list(sheet.iter_rows(values_only=True))
    return [dict(zip(header, row, strict=True)) for row in rows]


def _plan(url: str, what: str, path: str) -> dict[str, Any]:
    return {
        "steps": [
            {"tool": "collect_site_records", "args": {"url": url, "what": what}},
            {"tool": "create_files_spreadsheet", "args": {"from_step": 1, "path": path}},
        ]
    }


def test_a_turn_collects_the_invoices_and_writes_them_into_a_spreadsheet(owner: Any, fixture_web: FixtureWeb) -> None:
    site = fixture_web.fresh("collect-telco")
    text = f"collect all invoices from 2026 from {site.url('/')} into a spreadsheet"
    turn = turn_submit(
        owner=owner, text=text, plan=_plan(site.url("/"), "all invoices from 2026", "~/invoices.xlsx"), enqueue=False
    )
    turn = turn_conduct(turn=turn)
    assert turn.status == "completed", turn.answer
    rows = _spreadsheet_rows(owner, "invoices.xlsx")
    numbers = [row["identifier_number"] for row in rows]
    assert numbers[:3] == ["INV-2026-005", "INV-2026-004", "INV-2026-003"]
    assert "INV-20-005" in numbers and "INV-200-05" in numbers and "INV-2025-012" not in numbers
    # The rows read on the summary and in the full list are one row each, and the sheet says so.
    assert rows[0]["note"].startswith("Merged: same identifier INV-2026-005")
    assert turn.cloud_requests == 0
    assert site.presses() == []  # "Sign out" was never followed
    audit = TraceEvent.objects.get(turn=turn, kind="collect.audit").data
    # The full list stays at its list's level.
    assert (audit["stop"], audit["pages_read"], audit["deepest_level"]) == ("", 6, 3)
    assert site.origin not in str(audit) and "INV-" not in str(audit)


def test_the_request_forms_propose_collection_then_spreadsheet_in_english_and_italian(
    fixture_web: FixtureWeb,
) -> None:
    url = fixture_web.site("collect-telco").url("/")
    catalog = current_catalog()
    english = propose_from_forms(f"collect all invoices from 2026 from {url} into a spreadsheet", catalog)
    italian = propose_from_forms(f"raccogli tutte le fatture del 2026 da {url} in un foglio di calcolo", catalog)
    assert english is not None and italian is not None
    assert [step["tool"] for step in english.plan["steps"]] == ["collect_site_records", "create_files_spreadsheet"]
    assert english.plan["steps"][0]["args"] == {"url": url, "what": "all invoices from 2026"}
    assert italian.plan["steps"][0]["args"] == {"url": url, "what": "tutte le fatture del 2026"}
    assert italian.plan["steps"][1]["args"]["from_step"] == 1


def test_an_interrupted_search_still_delivers_its_rows_into_the_spreadsheet(
    owner: Any, fixture_web: FixtureWeb
) -> None:
    site = fixture_web.fresh("collect-archive")
    executors = dict(current_catalog().executors)
    executors["collect_site_records"] = CollectSiteRecords(budget=CollectionBudget(max_actions=3))
    catalog = build_catalog(executors)
    url = site.url("/?page=1&of=300")
    turn = turn_submit(owner=owner, text="all bills", plan=_plan(url, "all bills", "~/archive.xlsx"), enqueue=False)
    turn = turn_conduct(turn=turn, catalog=catalog)
    assert turn.status == "partial"
    collection, sheet = StepRecord.objects.filter(turn=turn).order_by("index")
    assert collection.outcome == "partial" and sheet.outcome == "success"
    assert any("stopped at the action budget of 3" in notice for notice in collection.notices)
    assert len(_spreadsheet_rows(owner, "archive.xlsx")) == 30


def test_documents_are_saved_once_in_the_approved_folder_and_returned_for_reading(
    owner: Any, fixture_web: FixtureWeb
) -> None:
    site = fixture_web.fresh("collect-archive")
    (owner_files_root(owner=owner) / "Bills").mkdir()
    executor = CollectSiteDocuments()
    args = {"url": site.url("/docs.html"), "what": "all bills", "save_documents_to": "~/Bills"}
    proposal = executor.consent_proposal(args)
    assert proposal["destination"] == "~/Bills"
    result = executor.run(ExecutionContext(owner=owner, turn_id=None, step_index=1, today=TODAY), args)
    assert result.outcome == "partial"  # one row's document never arrived
    by_number = {item["identifier_number"]: item for item in result.items}
    assert by_number["DOC-2026-01"]["path"] == "Bills/DOC-2026-01.pdf"
    assert "path" not in by_number["DOC-2026-02"]
    assert (owner_files_root(owner=owner) / "Bills" / "DOC-2026-03.pdf").is_file()
    assert StoredDownload.objects.filter(owner=owner).count() == 2
    # Each download control was pressed once; the one that sent no file was not pressed again.
    assert sorted(site.presses()) == ["broken-download", "pdf:DOC-2026-01.pdf", "pdf:DOC-2026-03.pdf"]
    notices = "\n".join(result.notices)
    assert "DOC-2026-02 was not saved (no_file_arrived)" in notices
    assert "1 saved document(s) have no text and need optical character recognition." in notices


def test_a_folder_outside_the_owners_files_is_refused_before_any_browsing(owner: Any, fixture_web: FixtureWeb) -> None:
    site = fixture_web.fresh("collect-archive")
    args = {"url": site.url("/docs.html"), "what": "all bills", "save_documents_to": "~/../elsewhere"}
    result = CollectSiteDocuments().run(ExecutionContext(owner=owner, turn_id=None, step_index=1), args)
    assert result.outcome == "failed" and result.error is not None
    assert result.error.code == "folder_refused"
    assert site.requests() == []


def test_a_collection_that_read_nothing_stops_the_plan_before_the_spreadsheet(
    owner: Any, fixture_web: FixtureWeb
) -> None:
    site = fixture_web.fresh("collect-archive")
    plan = _plan(site.url("/maze.html"), "all invoices", "~/nothing.xlsx")
    turn = turn_conduct(turn=turn_submit(owner=owner, text="all invoices", plan=plan, enqueue=False))
    assert turn.status == "failed"
    collection, sheet = StepRecord.objects.filter(turn=turn).order_by("index")
    assert (collection.outcome, collection.error_code) == ("failed", "collection_no_route")
    assert sheet.outcome == "skipped"
    assert not (owner_files_root(owner=owner) / "nothing.xlsx").exists()


def test_saving_documents_asks_for_consent_showing_the_folder_before_anything_runs(
    owner: Any, fixture_web: FixtureWeb
) -> None:
    site = fixture_web.fresh("collect-archive")
    args = {"url": site.url("/docs.html"), "what": "all bills", "save_documents_to": "~/Bills"}
    plan = {"steps": [{"tool": "collect_site_documents", "args": args}]}
    turn = turn_conduct(turn=turn_submit(owner=owner, text="save my bills", plan=plan, enqueue=False))
    assert turn.status == "awaiting_confirmation"
    consent = ConsentRequest.objects.get(turn=turn)
    assert consent.proposal["destination"] == "~/Bills"
    assert "download limits" in consent.proposal["consequences"]
    assert site.requests() == []


def test_a_cloud_route_decision_is_counted_on_the_turn(
    owner: Any, fixture_web: FixtureWeb, settings: Any, scripted_model_server: ScriptedModelServer
) -> None:
    site = fixture_web.fresh("collect-archive")
    settings.METNOS_MODEL_TIERS = {"frontier": scripted_model_server.settings_entry(cloud=True)}
    scripted_model_server.script({"choice": 2})
    plan = _plan(site.url("/maze.html"), "all invoices", "~/maze.xlsx")
    turn = turn_conduct(turn=turn_submit(owner=owner, text="all invoices", plan=plan, enqueue=False))
    assert turn.status == "completed", turn.answer
    assert turn.cloud_requests == 1
    assert [row["identifier_number"] for row in _spreadsheet_rows(owner, "maze.xlsx")] == ["MZ-2026-001"]
