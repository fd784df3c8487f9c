"""The verification panel's portal endpoints: owner-scoped, typed refusals, idempotent decisions.

These need no browser: a panel row is opened for a turn as the sign-in step
would, and the test plays its owner, another user and a stranger.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from apps.runtime.models import Turn
from apps.runtime.turns import turn_submit
from apps.sites.handoff.panels import (
    MAX_SCROLL_PIXELS,
    handoff_channel,
    handoff_commands_take,
    handoff_image_store,
    handoff_panel_open,
    handoff_result_take,
)
from apps.sites.models import HandoffPanel
from apps.sites.signin.handoff import Handoff, handoff_abandon
from tests.sites.handoff_support import portal

pytestmark = [pytest.mark.django_db, pytest.mark.services]

PNG = b"\x89PNG\r\n\x1a\nnot really an image"
ENDPOINTS = (
    ("get", ""),
    ("get", "status/"),
    ("get", "image.png"),
    ("post", "command/"),
    ("post", "resume/"),
    ("post", "cancel/"),
)


def _panel(owner: Any) -> HandoffPanel:
    plan = {"steps": [{"tool": "sign_in", "args": {"url": "https://shop.example/"}}]}
    turn = turn_submit(owner=owner, text="sign in to the shop", plan=plan, enqueue=False)
    Turn.objects.filter(pk=turn.pk).update(status=Turn.Status.RUNNING)
    panel = handoff_panel_open(turn_id=turn.pk, step_index=1, credentials_submitted=False)
    handoff_image_store(channel=handoff_channel(panel), png=PNG)
    return panel


def _call(client: Client, method: str, url: str) -> Any:
    if method == "get":
        return client.get(url)
    return client.post(url, {"kind": "refresh"}, content_type="application/json")


def test_opening_a_panel_makes_the_turn_wait_for_the_person(owner: Any) -> None:
    panel = _panel(owner)
    assert Turn.objects.get(pk=panel.turn_id).status == Turn.Status.AWAITING_INPUT
    assert panel.status == HandoffPanel.Status.OPEN and panel.reason == "humanity_check"


def test_another_owner_gets_404_on_every_panel_endpoint(owner: Any, second_user: Any) -> None:
    panel = _panel(owner)
    for method, tail in ENDPOINTS:
        url = f"/web/handoff/{panel.pk}/{tail}"
        assert _call(portal(second_user), method, url).status_code == 404, url
    unchanged = HandoffPanel.objects.get(pk=panel.pk)
    assert unchanged.status == HandoffPanel.Status.OPEN
    assert handoff_commands_take(channel=handoff_channel(panel), after=0)[0] == []


def test_a_stranger_is_sent_to_sign_in(owner: Any) -> None:
    panel = _panel(owner)
    for method, tail in ENDPOINTS:
        assert _call(Client(), method, f"/web/handoff/{panel.pk}/{tail}").status_code == 302


def test_the_owner_sees_the_page_the_image_and_the_status(owner: Any) -> None:
    panel = _panel(owner)
    page = portal(owner).get(f"/web/handoff/{panel.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "keyboard" in html and "audio" in html and "not supported" in html.lower()
    assert "<script>" not in html  # the site's policy allows scripts from static files only
    image = portal(owner).get(f"/web/handoff/{panel.pk}/image.png")
    assert image.status_code == 200 and image.content == PNG and image["Cache-Control"] == "no-store"
    status = portal(owner).get(f"/web/handoff/{panel.pk}/status/").json()
    assert status["status"] == "open" and status["image_version"] == 1 and status["turn"] == panel.turn_id


def test_commands_must_be_clicks_scrolls_or_refresh_and_are_queued_in_order(owner: Any) -> None:
    panel = _panel(owner)
    url = f"/web/handoff/{panel.pk}/command/"
    client = portal(owner)
    for bad in ({"kind": "type", "text": "hello"}, {"kind": "click", "x": "1"}, {"kind": "scroll"}, {}):
        answer = client.post(url, bad, content_type="application/json")
        assert answer.status_code == 400 and answer.json()["error"]["code"] == "invalid_command"
    too_far = client.post(url, {"kind": "scroll", "dy": MAX_SCROLL_PIXELS + 1}, content_type="application/json")
    assert too_far.status_code == 409
    assert client.post(url, {"kind": "click", "x": 5, "y": 7}, content_type="application/json").status_code == 202
    assert client.post(url, {"kind": "scroll", "dy": -40}, content_type="application/json").status_code == 202
    commands, last = handoff_commands_take(channel=handoff_channel(panel), after=0)
    assert [(c.kind, c.x, c.y, c.dy) for c in commands] == [("click", 5, 7, 0), ("scroll", 0, 0, -40)]
    assert handoff_commands_take(channel=handoff_channel(panel), after=last)[0] == []


def _add_click(client: Client, panel: HandoffPanel, x: int) -> None:
    answer = client.post(
        f"/web/handoff/{panel.pk}/command/", {"kind": "click", "x": x, "y": 1}, content_type="application/json"
    )
    assert answer.status_code == 202


class _CommandsNotStored:
    """The cache as the portal sees it while its writes of commands have not happened (yet)."""

    def __init__(self, cache: Any) -> None:
        self.cache = cache
        self.unstored: list[tuple[Any, ...]] = []

    def set(self, key: str, *args: Any, **kwargs: Any) -> None:
        if ":command:" in key:
            self.unstored.append((key, *args))
        else:
            self.cache.set(key, *args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.cache, name)


def test_a_command_numbered_but_not_yet_stored_is_waited_for_never_lost(owner: Any, monkeypatch: Any) -> None:
    # The portal numbers a command before storing it; the step may look in between.
    from apps.sites.handoff import panels as handoff_panels

    panel = _panel(owner)
    channel = handoff_channel(panel)
    real = handoff_panels.cache  # type: ignore[attr-defined]  # the cache the module writes through
    slow_writer = _CommandsNotStored(real)
    monkeypatch.setattr(handoff_panels, "cache", slow_writer)
    _add_click(portal(owner), panel, 11)
    monkeypatch.setattr(handoff_panels, "cache", real)
    _add_click(portal(owner), panel, 22)
    assert handoff_commands_take(channel=channel, after=0) == ([], 0)  # the second waits for the first
    real.set(*slow_writer.unstored.pop())
    commands, last = handoff_commands_take(channel=channel, after=0)
    assert [c.x for c in commands] == [11, 22] and last == 2


def test_a_command_whose_writer_gave_up_is_skipped_after_a_grace(owner: Any, monkeypatch: Any) -> None:
    from apps.sites.handoff import panels as handoff_panels

    panel = _panel(owner)
    real = handoff_panels.cache  # type: ignore[attr-defined]  # the cache the module writes through
    monkeypatch.setattr(handoff_panels, "cache", _CommandsNotStored(real))
    _add_click(portal(owner), panel, 11)  # numbered, never stored
    monkeypatch.setattr(handoff_panels, "cache", real)
    _add_click(portal(owner), panel, 22)
    channel = handoff_channel(panel)
    assert handoff_commands_take(channel=channel, after=0) == ([], 0)
    monkeypatch.setattr(handoff_panels, "COMMAND_WRITE_GRACE_SECONDS", 0.0)
    commands, last = handoff_commands_take(channel=channel, after=0)
    assert [c.x for c in commands] == [22] and last == 2


def test_commands_need_the_csrf_token(owner: Any) -> None:
    panel = _panel(owner)
    client = Client(enforce_csrf_checks=True)
    client.force_login(owner)
    answer = client.post(f"/web/handoff/{panel.pk}/resume/", {}, content_type="application/json")
    assert answer.status_code == 403
    assert HandoffPanel.objects.get(pk=panel.pk).status == HandoffPanel.Status.OPEN


def test_resume_is_idempotent_and_a_closed_panel_refuses_with_a_code(owner: Any) -> None:
    panel = _panel(owner)
    client = portal(owner)
    first = client.post(f"/web/handoff/{panel.pk}/resume/")
    again = client.post(f"/web/handoff/{panel.pk}/resume/")  # a lost response, sent again
    assert (first.status_code, again.status_code) == (202, 202)
    assert again.json()["status"] == "resume_requested"
    assert (
        client.post(f"/web/handoff/{panel.pk}/command/", {"kind": "refresh"}, content_type="application/json").json()[
            "error"
        ]["code"]
        == "handoff_busy"
    )
    assert client.post(f"/web/handoff/{panel.pk}/cancel/").status_code == 200
    refused = client.post(f"/web/handoff/{panel.pk}/resume/")
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "handoff_closed"
    assert client.get(f"/web/handoff/{panel.pk}/image.png").status_code == 404  # nothing shown once closed


def test_a_verified_result_is_taken_once_and_only_by_the_resumed_turn(owner: Any, second_user: Any) -> None:
    panel = _panel(owner)
    resumed = turn_submit(owner=owner, text="sign in to the shop", enqueue=False)
    HandoffPanel.objects.filter(pk=panel.pk).update(
        status=HandoffPanel.Status.RESUMED, resumed_turn=resumed, result={"outcome": "signed_in"}
    )
    assert handoff_result_take(owner=second_user, turn_id=resumed.pk, step_index=1) is None
    assert handoff_result_take(owner=owner, turn_id=panel.turn_id, step_index=1) is None
    assert handoff_result_take(owner=owner, turn_id=resumed.pk, step_index=2) is None
    assert handoff_result_take(owner=owner, turn_id=resumed.pk, step_index=1) is not None
    assert handoff_result_take(owner=owner, turn_id=resumed.pk, step_index=1) is None


def test_the_conversation_page_links_to_the_open_panel_after_a_reload(owner: Any) -> None:
    panel = _panel(owner)
    page = f"/conversations/{panel.conversation_id}/"
    assert f'href="/web/handoff/{panel.pk}/"' in portal(owner).get(page).content.decode()
    portal(owner).post(f"/web/handoff/{panel.pk}/cancel/")
    assert "/web/handoff/" not in portal(owner).get(page).content.decode()


def test_a_panel_past_its_time_reads_expired_and_takes_nothing(owner: Any) -> None:
    panel = _panel(owner)
    HandoffPanel.objects.filter(pk=panel.pk).update(expires_at=timezone.now() - dt.timedelta(seconds=1))
    client = portal(owner)
    assert client.get(f"/web/handoff/{panel.pk}/status/").json()["status"] == "expired"
    for action in ("command/", "resume/", "cancel/"):
        answer = client.post(f"/web/handoff/{panel.pk}/{action}", {"kind": "refresh"}, content_type="application/json")
        assert answer.status_code == 409 and answer.json()["error"]["code"] == "handoff_expired", action


def test_a_step_stopped_by_an_exception_leaves_no_panel_open(owner: Any) -> None:
    panel = _panel(owner)
    handoff_abandon(Handoff(panel_id=panel.pk))
    panel.refresh_from_db()
    assert (panel.status, panel.reason) == (HandoffPanel.Status.FAILED, "step_interrupted")
    assert Turn.objects.get(pk=panel.turn_id).status == Turn.Status.RUNNING  # the turn no longer waits
    assert portal(owner).get(f"/web/handoff/{panel.pk}/status/").json()["status"] == "failed"
