"""The home page and System > Services show what the apps register with the portal, in order."""

from __future__ import annotations

from collections.abc import Mapping

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest
from django.test import Client

from apps.accounts.models import User
from apps.accounts.services import device_pair
from apps.core.portal import PANELS, Panel, register_panel
from apps.runtime.turns import turn_submit

pytestmark = pytest.mark.django_db


def _probe_context(request: HttpRequest) -> Mapping[str, object]:
    return {"probe_text": f"probe for {request.user.get_username()}"}


def _page(user: User, url: str) -> str:
    client = Client()
    client.force_login(user)
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_the_home_page_shows_each_apps_panel_in_order(owner: User, second_user: User) -> None:
    turn_submit(owner=owner, text="the owner request", enqueue=False)
    turn_submit(owner=second_user, text="the second user request", enqueue=False)
    device_pair(owner=owner, name="owner-phone")
    home = _page(owner, "/")
    headings = ["Welcome, owner", "<h2>Conversations</h2>", "<h2>Paired devices</h2>", "<h2>Activity</h2>"]
    assert [home.index(heading) for heading in headings] == sorted(home.index(heading) for heading in headings)
    assert "the owner request" in home and "owner-phone" in home
    assert "the second user request" not in home


def test_a_registered_panel_takes_its_place_on_the_home_page(owner: User, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(PANELS["home"], "probe", Panel("probe", "probe/_panel.html", _probe_context, order=15))
    home = _page(owner, "/")
    assert "probe for owner" in home
    assert home.index("<h2>Conversations</h2>") < home.index("Probe panel") < home.index("<h2>Paired devices</h2>")


def test_a_services_panel_sees_whether_details_are_shown(
    owner: User, operator: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(PANELS["services"], "probe", Panel("probe", "probe/_panel.html", _probe_context, order=5))
    assert "probe for owner</p>" in _page(owner, "/system/services/")
    operator_page = _page(operator, "/system/services/")
    assert "probe for operator (details)" in operator_page
    assert operator_page.index("Probe panel") < operator_page.index("<h2>Long-running work</h2>")


def test_a_panel_name_is_registered_once_per_page() -> None:
    with pytest.raises(ImproperlyConfigured):
        register_panel("home", "conversations", template="probe/_panel.html", order=1)(_probe_context)
