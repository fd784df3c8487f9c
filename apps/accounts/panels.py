"""The accounts' panel on the home page: the owner's paired devices."""

from __future__ import annotations

from collections.abc import Mapping

from django.http import HttpRequest

from apps.accounts.selectors import device_list
from apps.core.portal import register_panel

HOME_DEVICES_SHOWN = 20


@register_panel("home", "devices", template="accounts/_home_devices.html", order=20)
def devices_panel(request: HttpRequest) -> Mapping[str, object]:
    return {"devices": device_list(owner=request.user)[:HOME_DEVICES_SHOWN]}
