"""The LRE indicator on System > Services: the feature's state, not only its process."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from apps.accounts.models import User
from apps.lre.presence import LrePresence, lre_presence
from tests.conftest import WorkerHandle
from tests.test_background import wait_until

pytestmark = pytest.mark.django_db


def test_disabled_is_gray_whatever_the_process(settings: Any) -> None:
    settings.METNOS_LRE_ENABLED = False
    presence = lre_presence()
    assert presence.indicator == "gray" and presence.label == "Disabled"
    assert presence.details["feature setting"] == "disabled"


def test_enabled_with_a_batch_worker_is_green(background_worker: WorkerHandle) -> None:
    # A worker that has just started may not answer yet: amber, then green.
    seen: list[LrePresence] = []

    def green() -> bool:
        seen.append(lre_presence())
        return seen[-1].indicator == "green"

    assert wait_until(green, seconds=30), seen[-1]
    presence = seen[-1]
    assert "on the batch queue" in presence.details["process"]


def test_services_page_shows_details_to_operators_only(
    background_worker: WorkerHandle, owner: User, operator: User
) -> None:
    assert wait_until(lambda: lre_presence().indicator == "green", seconds=30)
    user_view = Client()
    user_view.force_login(owner)
    page = user_view.get("/system/services/").content.decode()
    assert 'data-indicator="green"' in page and "Ready" in page
    assert "batch queue" not in page

    operator_view = Client()
    operator_view.force_login(operator)
    assert "on the batch queue" in operator_view.get("/system/services/").content.decode()
