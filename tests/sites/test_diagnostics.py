"""Diagnostics of failed browser actions and obstruction copies: closed sets, no secrets, no page data."""

from __future__ import annotations

import json
import logging
import stat
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError

from apps.sites.acting.click import ClickApproval, deadline_in
from apps.sites.acting.cookie_memory import ConsentMemory
from apps.sites.acting.cookies import reject_cookies
from apps.sites.acting.obstruction import OBSTRUCTED_REASONS, CaptureContext, click_or_capture, save_obstruction_copy
from apps.sites.acting.obstruction_copy import static_copy
from apps.sites.browser.diagnostics import SIGNALS, DiagnosticTrail, diagnose
from tests.sites.fixture_web import FixtureWeb
from tests.sites.test_observation_support import nothing_pressed, only, open_and_read

CANARIES = ("CANARY-HOLDER-7731", "CANARY-PASSWORD-7731", "CANARY-NOTES-7731", "CANARY-MESSAGE-7731")
PAGE_TOKENS = ("CANARY-HIDDEN-TOKEN", "CANARY-QUERY-TOKEN")


def _scan(folder: Path) -> str:
    return "\n".join(path.read_text(encoding="utf-8") for path in sorted(folder.iterdir()))


@pytest.fixture
def data_dir(settings: Any, tmp_path: Path) -> Path:
    settings.DATA_DIR = tmp_path
    return tmp_path


def _type_canaries(page: Any) -> None:
    page.fill("#holder", CANARIES[0])
    page.fill("#password", CANARIES[1])
    page.fill("#notes", CANARIES[2])
    page.fill("#message", CANARIES[3])
    page.wait_for_selector("#cover", state="visible")


@pytest.mark.browser
def test_an_obstructed_click_keeps_an_inert_private_copy_without_typed_secrets(
    fixture_web: FixtureWeb, browser_page: Any, data_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    site = fixture_web.fresh("overlay-obstruct")
    snapshot = open_and_read(browser_page, site.url("/index.html"))
    pay = only(snapshot, name="Pay now")
    _type_canaries(browser_page)
    with caplog.at_level(logging.DEBUG):
        outcome, copy = click_or_capture(
            browser_page, pay, approval=ClickApproval(pay), deadline=deadline_in(15), capture=CaptureContext(owner_id=7)
        )
    assert outcome.kind == "not_found" and outcome.reason in OBSTRUCTED_REASONS and not outcome.invoked
    assert copy is not None and copy.kind == "saved" and copy.folder is not None, copy
    assert nothing_pressed(browser_page, site)

    folder = copy.folder
    assert folder.parent == data_dir / "obstructions" / "7"
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert sorted(path.name for path in folder.iterdir()) == ["measurements.json", "page.html"]
    assert all(stat.S_IMODE(path.stat().st_mode) == 0o600 for path in folder.iterdir())
    saved = _scan(folder)
    for secret in (*CANARIES, *PAGE_TOKENS):
        assert secret not in saved
        assert secret not in caplog.text
        assert secret not in repr(copy)
    lowered = saved.lower()
    assert "<script" not in lowered and "onclick" not in lowered and "onload" not in lowered
    assert "javascript:" not in lowered and "checkoutready" not in lowered
    assert "Pay now" in saved and "Content-Security-Policy" in saved  # the page itself is there, inert

    measurements = json.loads((folder / "measurements.json").read_text(encoding="utf-8"))
    assert measurements["reason"] == outcome.reason
    assert measurements["probes_covered"] >= 5
    assert measurements["obstructer"]["position"] == "fixed"
    assert measurements["obstructer"]["tag"] == "div"
    assert "Chat" not in json.dumps(measurements)


@pytest.mark.browser
@pytest.mark.parametrize(
    ("capture", "reason"),
    [
        (CaptureContext(owner_id=7, consent_pending=True), "consent_pending"),
        (CaptureContext(owner_id=7, authentication_pending=True), "authentication_pending"),
    ],
)
def test_no_copy_is_taken_while_consent_or_authentication_is_pending(
    fixture_web: FixtureWeb, browser_page: Any, data_dir: Path, capture: CaptureContext, reason: str
) -> None:
    site = fixture_web.fresh("overlay-obstruct")
    snapshot = open_and_read(browser_page, site.url("/index.html"))
    copy = save_obstruction_copy(browser_page, only(snapshot, name="Pay now"), capture=capture, reason="covered")
    assert (copy.kind, copy.reason, copy.folder) == ("skipped", reason, None)
    assert not (data_dir / "obstructions" / "7").exists() or not any((data_dir / "obstructions" / "7").iterdir())


@pytest.mark.browser
def test_a_consent_notice_on_the_page_counts_as_pending(
    fixture_web: FixtureWeb, browser_page: Any, data_dir: Path
) -> None:
    site = fixture_web.fresh("consent-banner")
    snapshot = open_and_read(browser_page, site.url("/index.html"))
    control = only(snapshot, name="Reject all")
    copy = save_obstruction_copy(browser_page, control, capture=CaptureContext(owner_id=7), reason="covered")
    assert (copy.kind, copy.reason) == ("skipped", "consent_pending")


@pytest.mark.browser
def test_a_real_browser_error_is_recorded_by_phase_type_and_signals_only(
    browser_page: Any, caplog: pytest.LogCaptureFixture
) -> None:
    browser_page.set_content("<p>Nothing to click</p>")
    trail = DiagnosticTrail("click")
    with caplog.at_level(logging.DEBUG), pytest.raises(PlaywrightError), trail.during("dispatch"):
        browser_page.click(f"#{CANARIES[0]}", timeout=200)
    (record,) = trail.records
    assert (record.action, record.phase, record.error_type) == ("click", "dispatch", "TimeoutError")
    assert record.signals == ("timeout",)
    assert CANARIES[0] not in repr(record) and CANARIES[0] not in caplog.text
    assert "browser action failed action=click phase=dispatch error_type=TimeoutError signals=timeout" in caplog.text


def test_signals_come_from_a_closed_set_and_messages_are_dropped() -> None:
    error = RuntimeError(f"net::ERR_FAILED at https://example.test/?t={CANARIES[1]} element is not visible")
    record = diagnose("cookies", "subsequent", error)
    assert set(record.signals) <= SIGNALS and record.signals == ("not_visible", "network")
    assert CANARIES[1] not in record.line() and "example.test" not in record.line()


def test_an_error_leaving_nested_phases_is_recorded_once_in_its_own_phase() -> None:
    trail = DiagnosticTrail("overlay")
    with pytest.raises(ValueError, match="boom"), trail.during("preparation"), trail.during("cleanup"):
        raise ValueError("boom")
    assert [(record.phase, record.error_type) for record in trail.records] == [("cleanup", "ValueError")]
    assert trail.phase == "preparation"


def test_recording_never_changes_what_the_caller_does(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise OSError("log handler is gone")

    monkeypatch.setattr("apps.sites.browser.diagnostics.logger.warning", broken)
    trail = DiagnosticTrail("click")
    trail.failed(TimeoutError("Timeout 30000ms exceeded"))  # does not raise
    assert [record.signals for record in trail.records] == [("timeout",)]


@pytest.mark.browser
def test_a_procedure_on_a_closed_page_fails_with_a_typed_outcome(chromium: Any) -> None:
    context = chromium.new_context()
    page = context.new_page()
    page.close()
    outcome = reject_cookies(page, memory=ConsentMemory(owner_id=1), deadline=deadline_in(5))
    context.close()
    assert outcome.kind == "failed" and outcome.reason in ("unreadable", "browser_error")


def test_the_static_copy_drops_active_code_state_and_tokens() -> None:
    copy = static_copy(
        '<html><head><base href="https://evil.test/"><meta http-equiv="refresh" content="0;url=/x"></head>'
        '<body onload="go()"><div contenteditable="true">typed <b>text</b></div>'
        '<input value="v1" type="text"><input type="hidden" value="tok"><textarea>t1</textarea>'
        '<select><option value="o" selected>Option</option></select><input type="checkbox" checked>'
        '<a href="javascript:alert(1)">j</a><a href="/a?token=x#f">ok</a><iframe srcdoc="<p>x</p>"></iframe>'
        '<svg><set attributeName="href" to="javascript:alert(1)"/><script>s()</script></svg>'
        '<p style="background:url(javascript:x)">Visible &amp; kept</p></body></html>'
    )
    for gone in ("evil.test", "refresh", "onload", "typed", "text</b>", "v1", "tok", "t1", "selected", "checked"):
        assert gone not in copy
    for gone in ("javascript", "token=", "#f", "srcdoc", "<iframe", "<script", "<set", "s()"):
        assert gone not in copy
    assert '<a href="/a">ok</a>' in copy and "<p>Visible &amp; kept</p>" in copy and "Option" in copy


@pytest.mark.browser
def test_a_collection_click_refused_as_covered_keeps_an_obstruction_copy(
    fixture_web: FixtureWeb, browser_page: Any, data_dir: Path
) -> None:
    from apps.sites.browser.websites import AuthorizedWebsites
    from apps.sites.collection.budget import CollectionBudget, CollectionLedger
    from apps.sites.collection.findings import Findings
    from apps.sites.collection.scope import collection_plan
    from apps.sites.collection.walk import CollectionRun, PageWalker

    site = fixture_web.fresh("overlay-obstruct")
    pay = only(open_and_read(browser_page, site.url("/index.html")), name="Pay now")
    _type_canaries(browser_page)  # the site covers its button once fields are typed into
    run = CollectionRun(
        page=browser_page,
        plan=collection_plan("all invoices"),
        websites=AuthorizedWebsites.of([site.origin]),
        navigate=browser_page.goto,
        ledger=CollectionLedger(CollectionBudget()),
        capture=CaptureContext(owner_id=9),
    )
    walker = PageWalker(run, Findings())
    outcome = walker.click(pay, "in_place")
    assert outcome.kind == "not_found" and outcome.reason in OBSTRUCTED_REASONS and not outcome.invoked
    assert walker.findings.diagnostics["obstruction_copy.saved"] == 1
    saved = list((data_dir / "obstructions" / "9").iterdir())
    assert len(saved) == 1 and sorted(path.name for path in saved[0].iterdir()) == ["measurements.json", "page.html"]
    assert nothing_pressed(browser_page, site)
