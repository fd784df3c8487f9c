"""The canary password never leaves the field it is typed into, with a verification panel on the way.

A sign-in turn meets the humanity check, the owner clears it through the
panel, and the sign-in goes on in the same session and continues in the
resumed turn. Then every channel is scanned for the canary: log records, live
events, both turns' traces and step records, the panel's row, every response
of the panel's endpoints (its image included) and every database row.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest

from apps.runtime.models import StepRecord, TraceEvent, Turn
from apps.sites.models import HandoffPanel
from tests.sites.fixture_web import FixtureWeb, wait_until
from tests.sites.handoff_support import (
    CHECK_AT,
    conduct_resumed,
    conduct_sign_in,
    panel_of,
    portal,
    post,
    settle_backgrounds,
)
from tests.sites.signin_support import PASSWORD
from tests.sites.test_sign_in_canary import _every_row

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def test_the_canary_password_reaches_no_event_trace_row_or_response_of_the_panel(
    owner: Any, fixture_web: FixtureWeb, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    site = fixture_web.fresh("signin-handoff")
    background = conduct_sign_in(owner, site, "/login.html")
    try:
        panel = panel_of(owner)
        client = portal(owner)
        responses = [
            client.get(f"/web/handoff/{panel.pk}/").content,
            client.get(f"/web/handoff/{panel.pk}/image.png").content,
            post(owner, panel, "command", {"kind": "click", "x": CHECK_AT[0], "y": CHECK_AT[1]}).content,
        ]
        assert wait_until(lambda: "human" in site.presses(), 10)
        responses.append(post(owner, panel, "resume").content)
        suspended = background.finish()
    finally:
        settle_backgrounds([background])
    responses.append(client.get(f"/web/handoff/{panel.pk}/status/").content)
    panel.refresh_from_db()
    assert panel.status == HandoffPanel.Status.RESUMED
    assert panel.resumed_turn_id is not None
    resumed = conduct_resumed(panel.resumed_turn_id, owner.pk)
    assert resumed.status == Turn.Status.COMPLETED
    assert site.logins() == [{"ok": True, "fields": ["password", "username"]}]  # the value did reach the website

    turns = [suspended.pk, resumed.pk]
    trace = TraceEvent.objects.filter(turn__in=turns).values("kind", "data", "content")
    channels = {
        "logs": "\n".join(record.getMessage() + repr(record.__dict__) for record in caplog.records),
        "events": json.dumps(background.events, default=str),
        "trace": json.dumps(list(trace), default=str),
        "steps": json.dumps(list(StepRecord.objects.filter(turn__in=turns).values()), default=str),
        "answers": suspended.answer + resumed.answer,
        "panel": json.dumps(list(HandoffPanel.objects.filter(pk=panel.pk).values()), default=str),
        "database": _every_row(),
    }
    kinds = {entry["kind"] for entry in json.loads(channels["trace"])}
    assert {"handoff.opened", "handoff.resumed"} <= kinds
    for name, text in channels.items():
        assert PASSWORD not in text, f"the password leaked into {name}"
    for number, body in enumerate(responses):
        assert PASSWORD.encode() not in body, f"the password leaked into panel response {number}"
