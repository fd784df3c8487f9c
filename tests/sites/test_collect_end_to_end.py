"""Issue 7 end to end: "collect all invoices from 2026 from <url> into a spreadsheet", signed in.

With a vault credential for the website, the request form plans ``sign_in``
→ ``collect_site_records`` → ``create_files_spreadsheet``; without one, no
sign-in step. ``metnos ask`` signs in with the vault credential, collects
across the list pages, the details and the archive by year (the customer
area is behind sign-in, so every bill read proves the collection's session
continued signed in), merges, writes the XLSX and reports completeness.
A failed sign-in, a refused step or a pending consent notice stops the
sequence before anything is collected or written.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from apps.documents.files import owner_files_root
from apps.records.identity.codes import comparable
from apps.runtime.catalog import current_catalog
from apps.runtime.models import PlanCache, StepRecord, TraceEvent, Turn
from apps.runtime.paths.forms import propose_from_forms
from apps.runtime.turns import turn_conduct, turn_submit
from apps.sites.browser.data import storage_state_load
from apps.sites.browser.sessions import browser_session
from apps.sites.browser.websites import AuthorizedWebsites
from tests.sites.collect_e2e_support import (
    AMOUNTS_2026,
    BILLS_2026,
    PASSWORD,
    SHEET,
    SITE,
    USERNAME,
    WRONG_PASSWORD,
    metnos_ask,
    request_en,
    request_it,
    save_credential,
    spreadsheet_rows,
)
from tests.sites.fixture_web import FixtureWeb

pytestmark = [pytest.mark.django_db(transaction=True)]


def _tools(plan: dict[str, Any]) -> list[str]:
    return [step["tool"] for step in plan["steps"]]


def _proposal(owner: Any, text: str) -> dict[str, Any]:
    turn = turn_submit(owner=owner, text=text, enqueue=False)
    found = propose_from_forms(text, current_catalog(), owner=owner, turn_id=turn.pk)
    assert found is not None, text
    return found.plan


def test_the_plan_signs_in_first_only_when_the_owner_holds_a_credential_for_that_website(
    owner: Any, second_user: Any, fixture_web: FixtureWeb
) -> None:
    site, other = fixture_web.site(SITE), fixture_web.site("signin-plain")
    url = site.url("/")
    for text in (request_en(url), request_it(url)):
        assert _tools(_proposal(owner, text)) == ["collect_site_records", "create_files_spreadsheet"]
    save_credential(owner, other, label="Acme")  # a credential for another website changes nothing
    assert _tools(_proposal(owner, request_en(url))) == ["collect_site_records", "create_files_spreadsheet"]

    save_credential(owner, site, label="Brightwater")
    english, italian = _proposal(owner, request_en(url)), _proposal(owner, request_it(url))
    assert english["steps"] == [
        {"tool": "sign_in", "args": {"url": url}},
        {"tool": "collect_site_records", "args": {"url": url, "what": "all invoices from 2026"}},
        {"tool": "create_files_spreadsheet", "args": {"from_step": 2, "path": "~/invoices 2026.xlsx",
                                                      "if_exists": "new_name"}},
    ]  # fmt: skip
    assert _tools(italian) == ["sign_in", "collect_site_records", "create_files_spreadsheet"]
    assert italian["steps"][1]["args"]["what"] == "tutte le fatture del 2026"
    # Another owner's credential is not this owner's: no sign-in for them.
    assert _tools(_proposal(second_user, request_en(url))) == ["collect_site_records", "create_files_spreadsheet"]
    # Without an owner to check, the form that needs no credential is the one proposed.
    assert _tools(propose_from_forms(request_en(url), current_catalog()).plan)[0] == "collect_site_records"  # type: ignore[union-attr]


def test_saving_the_pdfs_too_plans_the_documents_collection_after_signing_in(
    owner: Any, fixture_web: FixtureWeb
) -> None:
    site = fixture_web.site(SITE)
    url = site.url("/")
    english = f"{request_en(url)} and save the PDFs to ~/Bills"
    italian = f"{request_it(url)} e salva i PDF in ~/Bollette"
    assert _tools(_proposal(owner, english)) == ["collect_site_documents", "create_files_spreadsheet"]
    save_credential(owner, site)
    plan = _proposal(owner, english)
    assert _tools(plan) == ["sign_in", "collect_site_documents", "create_files_spreadsheet"]
    assert plan["steps"][1]["args"]["save_documents_to"] == "~/Bills"
    assert _proposal(owner, italian)["steps"][1]["args"]["save_documents_to"] == "~/Bollette"


@pytest.mark.browser
def test_a_session_cookie_saved_by_one_browser_session_is_sent_by_the_owners_next_one(
    owner: Any, second_user: Any, fixture_web: FixtureWeb
) -> None:
    site = fixture_web.fresh(SITE)
    websites = AuthorizedWebsites.of([site.origin])
    with browser_session(owner=owner, websites=websites) as session:
        session.goto(site.url("/login.html"))
        session.page.fill("#u", USERNAME)
        session.page.fill("#p", PASSWORD)
        session.page.click("button[type=submit]")
        session.page.wait_for_url(site.url("/private/"))
    # The website's cookie has no expiry (a session cookie): the owner's browser data keeps it all the same.
    [cookie] = storage_state_load(owner_id=owner.pk)["cookies"]
    assert cookie["expires"] == -1 and cookie["name"] == "fixture_session"
    with browser_session(owner=owner, websites=websites) as session:
        session.goto(site.url("/private/bills/"))
        assert session.page.url == site.url("/private/bills/")  # not sent back to the login page
    with browser_session(owner=second_user, websites=websites) as session:
        session.goto(site.url("/private/bills/"))
        assert session.page.url == site.url("/login.html")  # another owner's browser data is not shared


DAYS_OF_2026 = {dt.date(2026, 1, 1) + dt.timedelta(days=n) for n in range(365)}


@pytest.mark.browser
def test_metnos_ask_signs_in_collects_the_2026_bills_and_writes_the_spreadsheet(
    owner: Any, fixture_web: FixtureWeb
) -> None:
    site = fixture_web.fresh(SITE)
    save_credential(owner, site)
    asked = metnos_ask(owner, request_en(site.url("/")))
    assert (asked.code, asked.final["status"]) == (0, "completed"), asked.printed
    # Live progress: every step starts and finishes, in order, then the turn.
    progress = [(event["type"], event.get("tool")) for event in asked.events if event["type"].startswith("turn.step")]
    assert progress == [
        (kind, tool)
        for tool in ("sign_in", "collect_site_records", "create_files_spreadsheet")
        for kind in ("turn.step_started", "turn.step_finished")
    ]
    assert [attempt["ok"] for attempt in site.logins()] == [True]  # signed in once, with the vault's values

    rows = spreadsheet_rows(owner)
    assert [row["identifier_number"] for row in rows] == BILLS_2026  # the 2026 bills only, each once
    # The amounts the full list lacks come from the archive: no bill's own page was needed.
    amounts = {row["identifier_number"]: comparable(str(row["amount"])) for row in rows}
    assert amounts == {number: comparable(amount) for number, amount in AMOUNTS_2026.items()}
    assert all(comparable(str(row["issue_date"])) in DAYS_OF_2026 for row in rows)
    # The bills read on "My bills", the full list and the archive are one row each, and the sheet says so.
    assert rows[0]["note"].startswith("Merged: same identifier BW-2026-005")
    answer = asked.final["answer"]
    assert "rows merged into 7 (same identifier on different pages)." in answer
    assert "4 item(s) outside 2026 were left out." in answer
    assert "The website states 7 items and all of them were read." in answer
    assert f"Wrote 5 rows to {SHEET}." in answer
    # The customer area was read signed in: the login page was served once, to the sign-in step, and every
    # private page after it (without the session cookie they would all have sent the browser back to it).
    served = [path for method, path in site.requests() if method == "GET"]
    assert "/private/bills/all-3.html" in served and "/private/bills/archive-2025.html" in served
    assert not [path for path in served if path.startswith("/private/bills/detail/")]
    assert served.count("/login.html") == 1 and served.index("/login.html") < served.index("/private/")
    # Asked for the website itself, the collection started where the sign-in landed (the account area),
    # not on the home page again.
    assert served.count("/") == 1 and served.index("/private/") > served.index("/login.html")
    audit = TraceEvent.objects.get(turn_id=asked.final["turn"], kind="collect.audit").data
    assert audit["stop"] == ""


@pytest.mark.browser
def test_a_rejected_sign_in_stops_the_sequence_before_anything_is_collected(
    owner: Any, fixture_web: FixtureWeb
) -> None:
    site = fixture_web.fresh(SITE)
    save_credential(owner, site, password=WRONG_PASSWORD)
    asked = metnos_ask(owner, request_en(site.url("/")))
    assert (asked.code, asked.final["status"]) == (1, "failed"), asked.printed
    steps = StepRecord.objects.filter(turn_id=asked.final["turn"]).order_by("index")
    assert [(step.tool, step.outcome) for step in steps] == [
        ("sign_in", "failed"), ("collect_site_records", "skipped"), ("create_files_spreadsheet", "skipped"),
    ]  # fmt: skip
    assert steps[0].error_code == "credentials_rejected"
    assert "The website refused the credentials." in asked.final["answer"]
    assert "2. collect_site_records: not run." in asked.final["answer"]
    assert not any(path.startswith("/private/bills") for _, path in site.requests())
    assert not (owner_files_root(owner=owner) / SHEET).exists()


@pytest.mark.browser
def test_a_consent_notice_pending_at_sign_in_stops_the_sequence(owner: Any, fixture_web: FixtureWeb) -> None:
    site = fixture_web.fresh(SITE)
    save_credential(owner, site)
    asked = metnos_ask(owner, request_en(site.url("/notice.html")))
    assert asked.final["status"] == "failed", asked.printed
    steps = StepRecord.objects.filter(turn_id=asked.final["turn"]).order_by("index")
    assert [(step.outcome, step.error_code) for step in steps] == [
        ("failed", "consent_pending"), ("skipped", ""), ("skipped", ""),
    ]  # fmt: skip
    assert site.presses() == []  # "Got it" (accept only) was never pressed
    assert site.logins() == []  # and no credential was submitted
    assert not (owner_files_root(owner=owner) / SHEET).exists()


@pytest.mark.browser
def test_a_collection_refused_with_no_data_after_signing_in_stops_before_the_spreadsheet(
    owner: Any, fixture_web: FixtureWeb
) -> None:
    site = fixture_web.fresh(SITE)
    elsewhere = fixture_web.fresh("signin-plain")
    save_credential(owner, site)
    asked = metnos_ask(owner, request_en(site.url("/private/moved.html")))  # the bills link leaves the website
    assert asked.final["status"] == "partial", asked.printed  # the sign-in did its work; nothing else ran
    steps = StepRecord.objects.filter(turn_id=asked.final["turn"]).order_by("index")
    assert [(step.outcome, step.error_code) for step in steps] == [
        ("success", ""), ("failed", "collection_navigation_refused"), ("skipped", ""),
    ]  # fmt: skip
    assert "Nothing was collected" in asked.final["answer"]
    assert elsewhere.requests() == []  # the other website was never reached
    assert not (owner_files_root(owner=owner) / SHEET).exists()


def test_a_sign_in_step_the_turn_may_not_use_credentials_for_stops_the_sequence(
    owner: Any, fixture_web: FixtureWeb
) -> None:
    site = fixture_web.fresh(SITE)
    url = site.url("/")
    plan = {
        "steps": [
            {"tool": "sign_in", "args": {"url": url}},
            {"tool": "collect_site_records", "args": {"url": url, "what": "all invoices from 2026"}},
            {"tool": "create_files_spreadsheet", "args": {"from_step": 2, "path": "~/refused.xlsx"}},
        ]
    }  # a plan reused after the credential was deleted: the mandate grants nothing
    turn = turn_conduct(turn=turn_submit(owner=owner, text=request_en(url), plan=plan, enqueue=False))
    assert turn.status == Turn.Status.FAILED
    assert TraceEvent.objects.filter(turn=turn, kind="control.refused").exists()
    assert list(StepRecord.objects.filter(turn=turn).exclude(outcome="skipped").values_list("tool", flat=True)) == []
    assert "Stopped:" in turn.answer
    assert site.requests() == []
    assert not (owner_files_root(owner=owner) / "refused.xlsx").exists()


def test_plans_chosen_by_the_owners_credentials_are_not_cached(owner: Any, fixture_web: FixtureWeb) -> None:
    from apps.runtime.paths.choice import plan_cache_store

    site = fixture_web.site(SITE)
    save_credential(owner, site)
    text = request_en(site.url("/"))
    turn = turn_submit(owner=owner, text=text, enqueue=False)
    plan = _proposal(owner, text)
    plan_cache_store(turn=turn, plan=plan, catalog=current_catalog())
    assert not PlanCache.objects.filter(owner=owner).exists()
