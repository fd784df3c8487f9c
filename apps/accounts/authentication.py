"""REST authentication for paired devices: ``Authorization: Bearer mtd_…``."""

from __future__ import annotations

from typing import Any

from rest_framework import authentication, exceptions
from rest_framework.request import Request

from apps.accounts.models import Device
from apps.accounts.services import device_mark_seen
from apps.accounts.tokens import MalformedToken, token_matches, token_prefix

KEYWORD = "Bearer"


class DeviceTokenAuthentication(authentication.BaseAuthentication):
    def authenticate(self, request: Request) -> tuple[Any, Device] | None:
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].lower() != KEYWORD.lower().encode():
            return None
        if len(header) != 2:
            raise exceptions.AuthenticationFailed("Invalid token header.")
        try:
            token = header[1].decode("ascii")
            prefix = token_prefix(token)
        except (UnicodeDecodeError, MalformedToken):
            raise exceptions.AuthenticationFailed("Invalid token.") from None
        device = Device._default_manager.select_related("owner").filter(token_prefix=prefix).first()
        # Compare even when no device matched, so timing does not reveal prefixes.
        stored_hash = device.token_hash if device is not None else "0" * 64
        # A revoked device, or a disabled owner, authenticates nothing.
        if (
            not token_matches(token, stored_hash)
            or device is None
            or not device.is_active
            or not device.owner.is_active
        ):
            raise exceptions.AuthenticationFailed("Invalid token.")
        device_mark_seen(device=device)
        return device.owner, device

    def authenticate_header(self, request: Request) -> str:
        return KEYWORD
