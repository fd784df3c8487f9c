"""Writes of accounts data: users, first admin, device pairing."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from apps.accounts.models import Device, User
from apps.accounts.tokens import issue_token
from apps.core.events import publish_to_user

FIRST_ADMIN_USERNAME = "admin"


@dataclass(frozen=True)
class PairedDevice:
    device: Device
    token: str  # shown once to the user, never stored


@dataclass(frozen=True)
class FirstAdmin:
    username: str
    password: str | None  # None when an administrator already existed


@transaction.atomic
def first_admin_ensure() -> FirstAdmin:
    """Create the first superuser with a random password unless one exists."""
    existing = User.objects.filter(is_superuser=True).order_by("pk").first()
    if existing is not None:
        return FirstAdmin(username=existing.get_username(), password=None)
    password = secrets.token_urlsafe(18)
    user = User(username=FIRST_ADMIN_USERNAME, is_staff=True, is_superuser=True)
    user.set_password(password)
    user.save()
    return FirstAdmin(username=user.get_username(), password=password)


def device_pair(*, owner: User, name: str) -> PairedDevice:
    issued = issue_token()
    device = Device(owner=owner, name=name.strip(), token_prefix=issued.prefix, token_hash=issued.token_hash)
    device.full_clean()
    device.save()
    transaction.on_commit(
        lambda: publish_to_user(owner.pk, {"type": "device.paired", "device_id": device.pk, "name": device.name})
    )
    return PairedDevice(device=device, token=issued.token)


def device_rename(*, device: Device, name: str) -> Device:
    device.name = name.strip()
    device.full_clean()
    device.save(update_fields=["name"])
    return device


def device_revoke(*, device: Device) -> None:
    owner_id, device_id, name = device.owner_id, device.pk, device.name
    device.delete()
    transaction.on_commit(
        lambda: publish_to_user(owner_id, {"type": "device.revoked", "device_id": device_id, "name": name})
    )


def device_mark_seen(*, device: Device) -> None:
    device.last_seen_at = timezone.now()
    device.save(update_fields=["last_seen_at"])
