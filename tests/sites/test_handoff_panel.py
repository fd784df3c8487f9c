"""The verification panel (spec: CAPTCHAs, codes, and resuming), end to end in real Chromium.

A sign-in turn meets a humanity check on the fixture site ``signin-handoff``;
the turn waits while its browser session stays open, and the test plays the
owner in the portal: it looks at the masked image, clicks the check through
the panel, and presses Resume or Cancel. Only a fresh observation of the page
lets the sign-in go on, the credentials reach the website at most once, and a
verified sign-in continues in a new turn linked to the suspended one.
"""

from __future__ import annotations

import datetime as dt
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.utils import timezone

from apps.runtime.models import StepRecord, Turn
from apps.sites.models import HandoffPanel
from apps.sites.services import web_sessions_close
from tests.sites.fixture_web import FixtureSite, FixtureWeb, wait_until
from tests.sites.handoff_support import (
    CHECK_AT,
    FREEZE_AT,
    Background,
    conduct_resumed,
    conduct_sign_in,
    panel_of,
    post,
    sessions_open,
    settle_backgrounds,
    status,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser, pytest.mark.services]


@pytest.fixture
def sign_in(owner: Any) -> Iterator[Callable[..., Background]]:
    """Start a sign-in turn in the background; whatever the test leaves waiting is ended after it."""
    started: list[Background] = []
    yield lambda site, path, before=(): conduct_sign_in(owner, site, path, started, before)
    settle_backgrounds(started)


Opened = tuple[FixtureSite, Background, HandoffPanel]


@pytest.fixture
def opened(owner: Any, fixture_web: FixtureWeb, sign_in: Any) -> Callable[..., Opened]:
    """A sign-in turn on ``site`` at ``path``, waiting on its open panel."""

    def open_panel(path: str = "/login.html", site: str = "signin-handoff", before: Any = ()) -> Opened:
        fixture = fixture_web.fresh(site)
        background = sign_in(fixture, path, before)
        return fixture, background, panel_of(owner)

    return open_panel


def _click_the_check(owner: Any, panel: HandoffPanel, site: FixtureSite, at: tuple[int, int] = CHECK_AT) -> None:
    assert post(owner, panel, "command", {"kind": "click", "x": at[0], "y": at[1]}).status_code == 202
    assert wait_until(lambda: bool(site.presses()), 10), "the click did not reach the page"


def test_the_turn_waits_on_an_open_panel_and_a_verified_resume_continues_in_a_linked_turn(
    owner: Any, opened: Any
) -> None:
    site, background, panel = opened("/login.html")
    assert Turn.objects.get(pk=background.turn.pk).status == Turn.Status.AWAITING_INPUT
    assert status(owner, panel)["status"] == "open" and not panel.credentials_submitted
    # The owner's browsers hear of the panel (published by the browser worker that serves it).
    assert wait_until(lambda: any(event["type"] == "turn.handoff_opened" for event in background.events), 10)
    announced = [event for event in background.events if event["type"] == "turn.handoff_opened"]
    assert announced[0]["url"] == f"/web/handoff/{panel.pk}/"
    assert site.logins() == []  # nothing is typed or sent while the check is open

    _click_the_check(owner, panel, site)
    assert site.presses() == ["human"]
    assert post(owner, panel, "resume").status_code == 202
    suspended = background.finish()

    panel.refresh_from_db()
    assert panel.status == HandoffPanel.Status.RESUMED and panel.resumed_turn_id is not None
    assert site.logins() == [{"ok": True, "fields": ["password", "username"]}]  # submitted once, after the check
    resumed = Turn.objects.get(pk=panel.resumed_turn_id)
    assert resumed.resumed_from_id == suspended.pk
    assert (resumed.owner_id, resumed.conversation_id) == (owner.pk, suspended.conversation_id)
    step = StepRecord.objects.get(turn=suspended, index=1)
    assert (step.outcome, step.error_code) == ("failed", "continued_in_resumed_turn")
    assert suspended.status == Turn.Status.HANDED_OFF  # the request goes on in the linked turn
    assert sessions_open(owner) == 0

    resumed = conduct_resumed(resumed.pk, owner.pk)
    assert resumed.status == Turn.Status.COMPLETED, resumed.answer
    assert StepRecord.objects.get(turn=resumed, index=1).result["value"]["outcome"] == "signed_in"
    assert len(site.logins()) == 1  # the resumed turn took the verified result; nothing was sent again
    assert status(owner, panel)["resumed_turn"] == resumed.pk


def test_resume_while_the_check_is_still_there_keeps_the_panel_open_and_submits_nothing(
    owner: Any, opened: Any
) -> None:
    site, background, panel = opened("/login.html")
    post(owner, panel, "resume")
    assert wait_until(lambda: status(owner, panel)["last_check"] == "still_open", 30)
    assert status(owner, panel)["status"] == "open"
    assert site.logins() == [] and site.submissions() == []
    assert background.thread.is_alive()
    post(owner, panel, "cancel")
    background.finish()


def test_cancelling_closes_the_session_and_ends_the_step_as_needing_a_person(owner: Any, opened: Any) -> None:
    site, background, panel = opened("/login.html")
    assert sessions_open(owner) == 1
    assert post(owner, panel, "cancel").status_code == 200
    turn = background.finish()
    step = StepRecord.objects.get(turn=turn, index=1)
    assert (step.error_code, step.result["value"]["reason"]) == ("needs_person", "handoff_cancelled")
    assert HandoffPanel.objects.get(pk=panel.pk).status == HandoffPanel.Status.CANCELLED
    assert sessions_open(owner) == 0 and site.logins() == []
    assert post(owner, panel, "resume").status_code == 409  # a closed panel takes nothing more


def test_an_unanswered_panel_expires_and_closes_the_session(owner: Any, opened: Any) -> None:
    site, background, panel = opened("/login.html")
    # Its time runs out soon (the browser worker that serves it may be another process: set on its row).
    HandoffPanel.objects.filter(pk=panel.pk).update(expires_at=timezone.now() + dt.timedelta(seconds=2))
    turn = background.finish()
    assert HandoffPanel.objects.get(pk=panel.pk).status == HandoffPanel.Status.EXPIRED
    assert StepRecord.objects.get(turn=turn, index=1).result["value"]["reason"] == "handoff_expired"
    assert sessions_open(owner) == 0 and site.logins() == []
    assert turn.status == Turn.Status.FAILED


def test_a_scroll_and_a_click_below_the_fold_reach_the_page_but_keys_never_do(owner: Any, opened: Any) -> None:
    site, background, panel = opened("/login.html")
    before = status(owner, panel)["image_version"]
    post(owner, panel, "command", {"kind": "scroll", "dy": 900})
    assert wait_until(lambda: status(owner, panel)["image_version"] > before, 10)
    post(owner, panel, "command", {"kind": "click", "x": 100, "y": 1100 - 900 + 200})
    assert wait_until(lambda: "below" in site.presses(), 10), "the click after the scroll did not land"
    assert post(owner, panel, "command", {"kind": "key", "key": "a"}).status_code == 400
    assert "key" not in site.presses()
    post(owner, panel, "cancel")
    background.finish()


def test_a_check_answered_in_a_window_of_its_own_is_shown_and_clicked_in_that_window(owner: Any, opened: Any) -> None:
    site, background, panel = opened("/popup.html")
    before = status(owner, panel)["image_version"]
    post(owner, panel, "command", {"kind": "click", "x": CHECK_AT[0], "y": CHECK_AT[1]})  # opens the window
    assert wait_until(lambda: "open-window" in site.presses(), 10), "the click did not reach the page"
    assert wait_until(lambda: status(owner, panel)["image_version"] > before, 10), "the window was not shown"
    # The window's own button: nothing of the page beneath is drawn there.
    post(owner, panel, "command", {"kind": "click", "x": 400, "y": 230})
    assert wait_until(lambda: "window-confirm" in site.presses(), 10), "the click did not reach the window"
    assert post(owner, panel, "resume").status_code == 202
    background.finish()
    panel.refresh_from_db()
    assert panel.status == HandoffPanel.Status.RESUMED and panel.resumed_turn_id is not None
    resumed = conduct_resumed(panel.resumed_turn_id, owner.pk)
    assert resumed.status == Turn.Status.COMPLETED, resumed.answer
    assert site.logins() == [{"ok": True, "fields": ["password", "username"]}]


def test_credentials_sent_before_the_check_are_checked_without_sending_them_again(owner: Any, opened: Any) -> None:
    site, background, panel = opened("/late.html")
    assert panel.credentials_submitted
    assert len(site.logins()) == 1
    post(owner, panel, "resume")  # before the click: the same attempt is not cleared by pressing Resume
    assert wait_until(lambda: status(owner, panel)["last_check"] == "still_open", 30)
    _click_the_check(owner, panel, site)
    post(owner, panel, "resume")
    background.finish()
    panel.refresh_from_db()
    assert panel.status == HandoffPanel.Status.RESUMED, panel.reason
    assert panel.result["outcome"] == "signed_in"
    assert site.logins() == [{"ok": True, "fields": ["password", "username"]}]  # once, before the check


def test_closing_the_web_sessions_ends_the_panel_with_its_session(owner: Any, opened: Any) -> None:
    _, background, panel = opened("/login.html")
    web_sessions_close(owner=owner)
    turn = background.finish()
    panel.refresh_from_db()
    assert (panel.status, panel.reason) == (HandoffPanel.Status.FAILED, "session_closed_by_user")
    assert StepRecord.objects.get(turn=turn, index=1).result["value"]["reason"] == "session_closed_by_user"
    assert status(owner, panel)["status"] == "failed" and sessions_open(owner) == 0


def test_a_page_that_cannot_be_observed_does_not_clear_the_check(owner: Any, opened: Any) -> None:
    site, background, panel = opened("/login.html")
    # The button removes the check from the page and then keeps the page too busy to be read.
    _click_the_check(owner, panel, site, FREEZE_AT)
    post(owner, panel, "resume")
    assert wait_until(lambda: status(owner, panel)["last_check"] == "unobservable", 40)
    assert status(owner, panel)["status"] == "open"
    assert site.logins() == [] and site.submissions() == []
    post(owner, panel, "cancel")
    background.finish()


def test_the_local_cloudflare_attempt_runs_once_and_its_own_word_clears_nothing(owner: Any, opened: Any) -> None:
    # The widget accepts the click and sets its token, but stays drawn: a fresh observation still
    # sees the challenge, so the panel opens and nothing is typed or submitted.
    site, background, panel = opened("/turnstile.html?clear_ms=300", "captcha-cloudflare")
    assert site.presses() == ["turnstile-checkbox"]
    assert not [path for method, path in site.requests() if method == "POST"]
    post(owner, panel, "cancel")
    background.finish()
    assert site.presses() == ["turnstile-checkbox"]  # tried once, never again


def test_the_resumed_turn_keeps_the_results_of_the_steps_before_the_sign_in(owner: Any, opened: Any) -> None:
    folder = Path(settings.FILES_ROOT) / str(owner.pk) / "Purchasing"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "quote.pdf").write_bytes(b"%PDF-1.4 a quote")
    find = {"tool": "find_files", "args": {"base_path": "~/Purchasing", "pattern": "*.pdf"}}
    site, background, panel = opened("/login.html", before=(find,))
    assert panel.step_index == 2
    _click_the_check(owner, panel, site)
    post(owner, panel, "resume")
    suspended = background.finish()
    panel.refresh_from_db()
    assert panel.resumed_turn_id is not None
    resumed = conduct_resumed(panel.resumed_turn_id, owner.pk)
    assert resumed.status == Turn.Status.COMPLETED, resumed.answer
    earlier, now = (StepRecord.objects.get(turn=turn, index=1) for turn in (suspended, resumed))
    assert now.result == earlier.result and [item["name"] for item in now.result["items"]] == ["quote.pdf"]
    assert now.started_at == earlier.started_at  # inherited, not run again
    assert StepRecord.objects.get(turn=resumed, index=2).outcome == "success"
    assert len(site.logins()) == 1
    shutil.rmtree(folder.parent, ignore_errors=True)


def test_a_second_check_after_the_submission_keeps_the_same_panel_and_nothing_is_sent_twice(
    owner: Any, opened: Any
) -> None:
    site, background, panel = opened("/twice.html")
    _click_the_check(owner, panel, site)
    post(owner, panel, "resume")  # the first check is gone: the form is filled and submitted, once
    assert wait_until(lambda: status(owner, panel)["last_check"] == "still_open", 40), status(owner, panel)
    assert len(site.logins()) == 1 and background.thread.is_alive()
    assert status(owner, panel)["credentials_submitted"] is True  # the page now says the sign-in was sent
    _click_the_check(owner, panel, site)
    assert wait_until(lambda: "again" in site.presses(), 10)
    post(owner, panel, "resume")  # the attempt already made is checked, never sent again
    background.finish()
    panel.refresh_from_db()
    assert panel.status == HandoffPanel.Status.RESUMED, panel.reason
    assert site.logins() == [{"ok": True, "fields": ["password", "username"]}]
