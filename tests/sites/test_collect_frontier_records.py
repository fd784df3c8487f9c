"""Records the deterministic reader cannot read, recognised by the Frontier tier in the page's visible text."""

from __future__ import annotations

from typing import Any

import pytest

from apps.runtime.models import StepRecord, TraceEvent
from apps.runtime.tiers.client import ModelUsage, counting_into
from apps.runtime.turns import turn_conduct, turn_submit
from apps.sites.acting.route_choice import route_chooser_from_settings
from apps.sites.browser.websites import AuthorizedWebsites
from apps.sites.collection.budget import CollectionBudget, CollectionLedger
from apps.sites.collection.explore import CollectionRun, explore
from apps.sites.collection.recognition import (
    FrontierRecordRecogniser,
    NoRecordRecogniser,
    looks_like_records,
    recogniser_from_settings,
    validate_records,
)
from apps.sites.collection.scope import collection_plan
from tests.model_server import ScriptedModelServer
from tests.sites.collect_support import TODAY, collect
from tests.sites.fixture_web import FixtureWeb

pytestmark = pytest.mark.browser

WHAT = "tutte le bollette con numero, scadenza e importo"
CANARY = "CANARY-Secret-7731"


def _record(number: str | None, due: str | None, amount: str | None) -> dict[str, str | None]:
    return {"identifier_number": number, "due_date": due, "amount": amount}


def _frontier(server: ScriptedModelServer) -> FrontierRecordRecogniser:
    return FrontierRecordRecogniser(server.tier("frontier", cloud=True))


def test_record_like_text_shows_a_date_and_an_amount_with_its_currency() -> None:
    assert looks_like_records("La bolletta del 05/03/2026 è di 48,20 €.")
    assert not looks_like_records("Cliente dal 05/03/2026, codice 4820.")
    assert not looks_like_records("Offerta a 29,90 € al mese.")


def test_a_recognised_record_keeps_only_values_of_the_text_and_needs_two_of_them() -> None:
    text = "Bolletta   LS-1 del 05/03/2026\n di 48,20 €"
    fields = ("identifier_number", "issue_date", "amount")
    checked = validate_records(
        (
            {"identifier_number": "LS-1", "issue_date": "05/03/2026", "amount": "48,20 € "},
            {"identifier_number": "LS-1", "issue_date": "31/02/2026", "note": "48,20 €"},
        ),
        text=text,
        fields=fields,
    )
    (row,) = checked.rows
    assert row.values == {"identifier_number": "LS-1", "issue_date": "05/03/2026", "amount": "48,20 €"}
    assert row.cells == ("LS-1", "05/03/2026", "48,20 €")
    # The second record: a date the text does not show, a field not asked; one value left is no record.
    assert (checked.dropped_values, checked.dropped_records) == (1, 1)


def test_records_shown_in_prose_are_recognised_by_frontier_and_counted_as_cloud_requests(
    fixture_web: FixtureWeb, browser_page: Any, scripted_model_server: ScriptedModelServer
) -> None:
    site = fixture_web.fresh("collect-prose")
    scripted_model_server.script(
        {
            "records": [
                _record("LS-2026-0031", "25/03/2026", "48,20 €"),
                _record("LS-2026-0032", "27/04/2026", "51,70 €"),
            ]
        }
    )
    turn_usage = ModelUsage()
    with counting_into(turn_usage):
        collected = collect(browser_page, site, "/", WHAT, recogniser=_frontier(scripted_model_server))
    assert collected.identifiers() == ["LS-2026-0031", "LS-2026-0032"]
    assert collected.item("LS-2026-0032")["due_date"] == "27/04/2026"
    assert collected.item("LS-2026-0032")["amount"] == "51,70 €"
    assert "unverified" in collected.item("LS-2026-0031")["note"]
    assert "2 item(s) were recognised by the Frontier model" in collected.notices()
    # The step says how many cloud requests it sent; the turn counted the same request.
    assert collected.result.value == {"cloud_requests": 1}
    assert "1 cloud request(s)" in collected.result.summary
    assert turn_usage.cloud_requests == 1
    (request,) = scripted_model_server.chat_requests
    assert "LS-2026-0031" in request.text and "numero verde" in request.text


def test_values_the_page_text_does_not_show_are_dropped(
    fixture_web: FixtureWeb, browser_page: Any, scripted_model_server: ScriptedModelServer
) -> None:
    site = fixture_web.fresh("collect-prose")
    scripted_model_server.script(
        {
            "records": [
                _record("LS-2026-0031", "25/03/2026", "99,99 €"),  # an amount the page does not show
                _record("LS-2026-0032", "LS-2026-0032", "51,70 €"),  # on the page, but not a date
                _record("LS-2026-9999", "01/01/2026", "10,00 €"),  # a record the page does not show
            ]
        }
    )
    collected = collect(browser_page, site, "/", WHAT, recogniser=_frontier(scripted_model_server))
    assert collected.identifiers() == ["LS-2026-0031", "LS-2026-0032"]
    assert collected.item("LS-2026-0031").get("amount") is None
    assert collected.item("LS-2026-0031")["due_date"] == "25/03/2026"
    assert collected.item("LS-2026-0032").get("due_date") is None
    assert collected.findings.recognition_dropped == 5
    assert "5 value(s) the model gave were not in the page text" in collected.notices()


def test_after_an_in_place_change_the_text_is_asked_again_and_only_new_records_are_added(
    fixture_web: FixtureWeb, browser_page: Any, scripted_model_server: ScriptedModelServer
) -> None:
    site = fixture_web.fresh("collect-prose")
    first = [_record("LS-2026-0031", "25/03/2026", "48,20 €"), _record("LS-2026-0032", "27/04/2026", "51,70 €")]
    scripted_model_server.script({"records": first})
    scripted_model_server.script({"records": [*first, _record("LS-2026-0033", "26/05/2026", "46,80 €")]})
    collected = collect(browser_page, site, "/altre.html", WHAT, recogniser=_frontier(scripted_model_server))
    assert collected.identifiers() == ["LS-2026-0031", "LS-2026-0032", "LS-2026-0033"]
    assert len(collected.findings.sources) == 2 and len(collected.findings.sources[1].rows) == 1
    assert "LS-2026-0033" in scripted_model_server.chat_requests[1].text
    assert collected.result.value == {"cloud_requests": 2}
    assert "Merged" not in collected.notices()


@pytest.mark.parametrize(("status", "delay", "reason"), [(500, 0.0, "model_"), (200, 3.0, "model_timed_out")])
def test_a_failed_or_late_frontier_decision_leaves_the_collection_incomplete_without_another_model(
    fixture_web: FixtureWeb,
    browser_page: Any,
    scripted_model_server: ScriptedModelServer,
    settings: Any,
    status: int,
    delay: float,
    reason: str,
) -> None:
    site = fixture_web.fresh("collect-prose")
    with ScriptedModelServer() as local:
        settings.METNOS_MODEL_TIERS = {
            "frontier": scripted_model_server.settings_entry(cloud=True),
            "route_choice": local.settings_entry(),
            "extraction": local.settings_entry(),
        }
        scripted_model_server.script({"records": []}, status=status, delay=delay)
        collected = collect(
            browser_page,
            site,
            "/",
            WHAT,
            budget=CollectionBudget(model_decision_seconds=1.0),
            chooser=route_chooser_from_settings(),
            recogniser=recogniser_from_settings(),
        )
        assert local.requests == []
    assert collected.result.outcome == "failed" and collected.result.error is not None
    assert collected.result.error.code == "collection_recognition_failed"
    assert "no other model was asked" in collected.result.error.message
    assert collected.findings.stop is not None and collected.findings.stop.detail.startswith(reason)
    assert len(scripted_model_server.chat_requests) == 1
    # The request was sent: it stays counted even though no usable answer came.
    assert collected.result.value == {"cloud_requests": 1}


def test_metnos_sites_frontier_routes_0_disables_recognition(
    fixture_web: FixtureWeb, browser_page: Any, scripted_model_server: ScriptedModelServer, settings: Any
) -> None:
    settings.METNOS_MODEL_TIERS = {"frontier": scripted_model_server.settings_entry(cloud=True)}
    enabled = recogniser_from_settings()
    assert isinstance(enabled, FrontierRecordRecogniser) and enabled.tier.name == "frontier"
    settings.METNOS_SITES_FRONTIER_ROUTES = "0"
    disabled = recogniser_from_settings()
    assert isinstance(disabled, NoRecordRecogniser)
    site = fixture_web.fresh("collect-prose")
    collected = collect(browser_page, site, "/", WHAT, recogniser=disabled)
    assert scripted_model_server.requests == []
    # Nothing read and nothing recognised: the page names no route either, and no model may choose one.
    assert collected.result.error is not None and collected.result.error.code == "collection_no_route"
    assert collected.findings.diagnostics["recognition.no_decision"] == 1
    assert collected.result.value == {}


def test_a_page_the_reader_reads_is_never_sent(
    fixture_web: FixtureWeb, browser_page: Any, scripted_model_server: ScriptedModelServer
) -> None:
    site = fixture_web.fresh("collect-prose")
    collected = collect(browser_page, site, "/tabella.html", WHAT, recogniser=_frontier(scripted_model_server))
    assert collected.identifiers() == ["LS-2026-0041", "LS-2026-0042"]
    assert scripted_model_server.requests == []
    assert collected.result.value == {}


def test_a_value_typed_in_a_sign_in_field_never_reaches_the_model(
    fixture_web: FixtureWeb, browser_page: Any, scripted_model_server: ScriptedModelServer
) -> None:
    site = fixture_web.fresh("collect-prose")
    browser_page.goto(site.url("/"))
    browser_page.fill("input[name=email]", f"{CANARY}@example.org")
    browser_page.fill("input[name=password]", CANARY)
    scripted_model_server.script({"records": [_record("LS-2026-0031", "25/03/2026", "48,20 €")]})
    plan = collection_plan(WHAT, today=TODAY)
    run = CollectionRun(
        page=browser_page,
        plan=plan,
        websites=AuthorizedWebsites.of([site.origin]),
        navigate=lambda url: browser_page.goto(url),
        ledger=CollectionLedger(CollectionBudget()),
        recogniser=_frontier(scripted_model_server),
    )
    findings = explore(run)  # the page as it is, with the values typed
    assert browser_page.input_value("input[name=password]") == CANARY
    (request,) = scripted_model_server.chat_requests
    assert "LS-2026-0031" in request.text
    assert CANARY not in request.text and CANARY.casefold() not in request.text.casefold()
    assert findings.recognised


@pytest.mark.django_db(transaction=True)
def test_a_turn_counts_the_frontier_requests_of_its_collection_step(
    owner: Any, fixture_web: FixtureWeb, scripted_model_server: ScriptedModelServer, settings: Any
) -> None:
    settings.METNOS_MODEL_TIERS = {"frontier": scripted_model_server.settings_entry(cloud=True)}
    scripted_model_server.script({"records": [_record("LS-2026-0031", "25/03/2026", "48,20 €")]})
    site = fixture_web.fresh("collect-prose")
    plan = {"steps": [{"tool": "collect_site_records", "args": {"url": site.url("/"), "what": WHAT}}]}
    turn = turn_conduct(turn=turn_submit(owner=owner, text=f"{WHAT} da {site.url('/')}", plan=plan, enqueue=False))
    step = StepRecord.objects.get(turn=turn, index=1)
    assert [item["identifier_number"] for item in step.result["items"]] == ["LS-2026-0031"]
    assert step.result["value"] == {"cloud_requests": 1}
    assert turn.cloud_requests == 1
    assert step.cloud_requests == 1  # the step itself is marked: the portal shows it with a red $
    finished = TraceEvent.objects.get(turn=turn, kind="step.finished")
    assert finished.data["cloud_requests"] == 1
