"""The spec's request from the portal, in real Chromium against a real server and worker."""

from __future__ import annotations

import io
import shutil
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from django.conf import settings

from apps.accounts.models import User
from tests.conftest import PortalServer
from tests.runtime.conftest import QUOTES_REQUEST
from tests.runtime.quotes import QUOTES, write_quotes

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "portal-password-1"


@pytest.fixture
def quotes_user() -> Iterator[User]:
    user = User.objects.create_user("quotes-user", password=PASSWORD)
    root = Path(settings.FILES_ROOT) / str(user.pk)
    write_quotes(root / "Purchasing")
    yield user
    shutil.rmtree(root, ignore_errors=True)


def _sign_in(page: Any, server: PortalServer, username: str) -> None:
    page.goto(f"{server.url}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{server.url}/")


def test_quotes_request_runs_live_and_the_spreadsheet_downloads(
    portal_server: PortalServer, browser_page: Any, quotes_user: User
) -> None:
    page = browser_page
    violations: list[str] = []
    page.on("console", lambda msg: violations.append(msg.text) if "Content Security Policy" in msg.text else None)
    _sign_in(page, portal_server, quotes_user.username)
    page.click("#new-conversation")
    page.locator("#live-status[data-state=open]").wait_for()

    page.fill("#request-text", QUOTES_REQUEST)
    page.click("#request-form button[type=submit]")

    # Each step appears live, then the turn finishes with the file linked.
    for tool in ("find_files", "read_files", "extract_entries", "create_files_spreadsheet"):
        page.locator(".steps li", has_text=tool).wait_for(timeout=30_000)
    page.locator(".turn[data-status=completed]").wait_for(timeout=30_000)
    link = page.locator(".steps a.file", has_text="summary.xlsx")
    with page.expect_download() as download_info:
        link.click()
    content = Path(download_info.value.path()).read_bytes()

    sheet = openpyxl.load_workbook(io.BytesIO(content)).active
    assert sheet is not None
    rows = list(sheet.iter_rows(values_only=True))
    header = list(rows[0])
    prices = [Decimal(str(row[header.index("price")])) for row in rows[1:]]
    suppliers = [row[header.index("supplier")] for row in rows[1:]]
    # The prices read back are the quotes' own totals, each beside its supplier.
    assert dict(zip(suppliers, prices, strict=True)) == {quote.supplier: quote.total for quote in QUOTES}
    assert violations == []

    # After a reload the finished turn is still there, rendered by the server.
    page.reload()
    assert page.locator(".turn[data-status=completed] .steps li").count() == 4


def test_confirmation_prompt_in_the_portal(portal_server: PortalServer, browser_page: Any, quotes_user: User) -> None:
    page = browser_page
    _sign_in(page, portal_server, quotes_user.username)
    page.click("#new-conversation")
    page.locator("#live-status[data-state=open]").wait_for()
    page.fill("#request-text", "delete the pdf files in the Purchasing folder")
    page.click("#request-form button[type=submit]")

    prompt = page.locator(".consent")
    prompt.wait_for(timeout=30_000)
    assert "Delete 3 files" in prompt.inner_text()
    folder = Path(settings.FILES_ROOT) / str(quotes_user.pk) / "Purchasing"
    assert len(list(folder.glob("*.pdf"))) == 3  # nothing happens before the answer

    prompt.locator("button.decline").click()
    page.locator(".turn[data-status=declined]").wait_for(timeout=30_000)
    assert len(list(folder.glob("*.pdf"))) == 3
