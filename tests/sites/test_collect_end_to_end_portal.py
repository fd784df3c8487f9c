"""Issue 7 from the portal: the collection request typed on the conversation page, in real Chromium.

A real daphne server with its in-process worker conducts the turn; the
managed browser (its own Chromium) signs in to the fixture site with the
vault credential and collects. The user's page watches each step arrive
over the WebSocket while the turn runs, then sees the answer with the
completeness notice and downloads the spreadsheet from its link.
"""

from __future__ import annotations

import io
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from django.conf import settings

from apps.accounts.models import User
from tests.conftest import PortalServer
from tests.runtime.test_portal_turns_browser import PASSWORD as PORTAL_PASSWORD
from tests.runtime.test_portal_turns_browser import _sign_in as _sign_in_to_the_portal
from tests.sites.collect_e2e_support import BILLS_2026, PASSWORD, SHEET, SITE, request_en, save_credential
from tests.sites.fixture_web import FixtureWeb

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def collector() -> Iterator[User]:
    user = User.objects.create_user("collector", password=PORTAL_PASSWORD)
    yield user
    shutil.rmtree(Path(settings.FILES_ROOT) / str(user.pk), ignore_errors=True)


def _turn_events(frames: list[str]) -> list[dict[str, Any]]:
    events = [json.loads(frame) for frame in frames if frame.startswith("{")]
    return [event for event in events if str(event.get("type", "")).startswith("turn.")]


def test_the_collection_runs_live_from_the_conversation_page_and_the_spreadsheet_downloads(
    portal_server: PortalServer, browser_page: Any, collector: User, fixture_web: FixtureWeb
) -> None:
    site = fixture_web.fresh(SITE)
    save_credential(collector, site)
    page = browser_page
    frames: list[str] = []
    page.on("websocket", lambda socket: socket.on("framereceived", lambda payload: frames.append(str(payload))))
    _sign_in_to_the_portal(page, portal_server, collector.username)
    page.click("#new-conversation")
    page.locator("#live-status[data-state=open]").wait_for()

    page.fill("#request-text", request_en(site.url("/")))
    page.click("#request-form button[type=submit]")

    # The steps appear one by one while the turn runs: the collection is shown running before the turn ends.
    page.locator(".steps li[data-outcome=success]", has_text="sign_in").wait_for(timeout=60_000)
    page.locator(".steps li", has_text="collect_site_records").wait_for(timeout=30_000)
    assert page.locator(".turn[data-status=completed]").count() == 0
    page.locator(".turn[data-status=completed]").wait_for(timeout=180_000)
    events = _turn_events(frames)
    kinds = [(event["type"], event.get("tool")) for event in events if event["type"].startswith("turn.step")]
    assert kinds == [
        (kind, tool)
        for tool in ("sign_in", "collect_site_records", "create_files_spreadsheet")
        for kind in ("turn.step_started", "turn.step_finished")
    ]
    assert events[-1]["type"] == "turn.finished" and events[-1]["status"] == "completed"

    answer = page.locator(".turn .answer").inner_text()
    assert "The website states 7 items and all of them were read." in answer
    assert "4 item(s) outside 2026 were left out." in answer
    link = page.locator(".steps a.file", has_text=SHEET)
    with page.expect_download() as download_info:
        link.click()
    sheet = openpyxl.load_workbook(io.BytesIO(Path(download_info.value.path()).read_bytes())).active
    assert sheet is not None
    header, *rows = list(sheet.iter_rows(values_only=True))
    numbers = [row[header.index("identifier_number")] for row in rows]
    assert numbers == BILLS_2026
    # Nothing the page received carries the vault's password.
    assert PASSWORD not in "".join(frames) and PASSWORD not in page.content()


def test_saving_the_pdfs_pauses_for_confirm_in_the_portal_then_saves_them_into_the_folder(
    portal_server: PortalServer, browser_page: Any, collector: User, fixture_web: FixtureWeb
) -> None:
    site = fixture_web.fresh(SITE)
    save_credential(collector, site)
    bills = Path(settings.FILES_ROOT) / str(collector.pk) / "Bills"
    bills.mkdir(parents=True)
    page = browser_page
    _sign_in_to_the_portal(page, portal_server, collector.username)
    page.click("#new-conversation")
    page.locator("#live-status[data-state=open]").wait_for()
    page.fill("#request-text", f"{request_en(site.url('/'))} and save the PDFs to ~/Bills")
    page.click("#request-form button[type=submit]")

    prompt = page.locator(".consent")
    prompt.wait_for(timeout=60_000)
    assert "~/Bills" in prompt.inner_text()
    assert page.locator(".steps li[data-outcome=success]", has_text="sign_in").count() == 1  # signed in first
    assert list(bills.iterdir()) == []  # nothing downloaded before the answer
    prompt.locator("button.confirm").click()

    # The confirmed plan continues in a new turn on the same page; it inherits the sign-in.
    page.locator(".turn[data-status=completed]").wait_for(timeout=180_000)
    saved = {path.name for path in bills.iterdir()}
    assert {f"{number}.pdf" for number in BILLS_2026} <= saved
    assert page.locator(".steps a.file", has_text=SHEET).count() == 1
    assert [attempt["ok"] for attempt in site.logins()] == [True]
