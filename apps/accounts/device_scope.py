"""What a paired device's token may do over REST: declared on every API view, denied by default.

A device token stands for a device, not for its owner. It may call only the
actions its view lists in ``device_access``; a view without the declaration,
or an action it does not list, answers 403 to a device token. Browsers (the
session) are not affected. ``tests/test_device_scope.py`` walks every route
with a device token and fails naming a view that declares nothing.

What a device needs: the steps sent to it (``/device-steps/``), the requests
it submits and the turns of its own conversations (``/turns/``), and who it
belongs to (``/me/``). Devices, credentials, conversations, files, downloads,
web sessions, long-running jobs, questions and confirmations stay with the
person in the portal.
"""

from __future__ import annotations

from typing import Any

from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from apps.accounts.models import Device

# The actions of a view (``list``, ``retrieve``, ``create``, an ``@action``'s name) a device token may call.
DeviceAccess = frozenset[str]
NO_DEVICE_ACCESS: DeviceAccess = frozenset()


def request_device(request: Request) -> Device | None:
    """The paired device a request was authenticated with, or None for a browser."""
    return request.auth if isinstance(request.auth, Device) else None


class DeviceTokenScope(BasePermission):
    """Refuses a device token any action its view does not declare in ``device_access``."""

    message = "A paired device cannot do this; sign in to the portal instead."

    def has_permission(self, request: Request, view: Any) -> bool:
        if request_device(request) is None:
            return True
        allowed: DeviceAccess | None = getattr(type(view), "device_access", None)
        action = getattr(view, "action", None) or (request.method or "").lower()
        return allowed is not None and action in allowed
