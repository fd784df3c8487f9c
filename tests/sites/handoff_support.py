"""Helpers for the handoff panel tests: a sign-in turn conducted in the background, the owner's portal.

The sign-in itself runs as a browser job in a browser worker (this process's
browser lane in the embedded pass, the worker process in the services pass),
so the turn's live events are read as the owner's browsers receive them: from
the owner's group on the channel layer (:class:`LiveEvents`).
"""

from __future__ import annotations

import asyncio
import json
import threading
from dataclasses import dataclass, field
from typing import Any

from channels.layers import get_channel_layer
from django.db import connection
from django.test import Client

from apps.core.events import CHANNELS_MESSAGE_TYPE, register_serving_loop, user_group_name
from apps.runtime.catalog import current_catalog
from apps.runtime.models import Turn
from apps.runtime.tasks import run_turn
from apps.runtime.turns import turn_conduct, turn_submit
from apps.sites.models import BrowserSessionLease, HandoffPanel
from apps.vault.mandates import vault_mandate_for_plan
from apps.vault.services import credential_save
from tests.sites.fixture_web import FixtureSite, wait_until
from tests.sites.signin_support import PASSWORD, USERNAME

# Where the fixture page draws its humanity check (tests/sites/web/signin-handoff/handoff.css).
CHECK_AT = (130, 75)
FREEZE_AT = (460, 75)


class LiveEvents:
    """The owner's live events, as their browsers receive them, gathered in a thread of its own.

    Its loop serves this process's publishers too (as daphne's would), so the
    in-memory layer of the embedded pass delivers on the loop that listens.
    """

    def __init__(self, owner_id: int) -> None:
        self.events: list[Any] = []
        self._group = user_group_name(owner_id)
        self._loop = asyncio.new_event_loop()
        self._listening = threading.Event()
        self._thread = threading.Thread(target=self._loop.run_forever, name="test-live-events", daemon=True)
        self._thread.start()
        register_serving_loop(self._loop)
        self._task = asyncio.run_coroutine_threadsafe(self._listen(), self._loop)
        assert self._listening.wait(10), "the live events did not start"

    async def _listen(self) -> None:
        layer = get_channel_layer()
        assert layer is not None
        channel = await layer.new_channel()
        await layer.group_add(self._group, channel)
        self._listening.set()
        try:
            while True:
                message = await layer.receive(channel)
                if message.get("type") == CHANNELS_MESSAGE_TYPE:  # not the sockets' access notices
                    self.events.append(json.loads(message["text"]))
        finally:
            await layer.group_discard(self._group, channel)

    def close(self) -> None:
        if not self._thread.is_alive():
            return
        self._task.cancel()
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)


@dataclass
class Background:
    """A turn conducted in its own thread, as a worker would; the test plays the owner in the portal."""

    turn: Turn
    thread: threading.Thread
    live: LiveEvents
    ended: list[Turn] = field(default_factory=list)

    @property
    def events(self) -> list[Any]:
        return self.live.events

    def finish(self, timeout: float = 120) -> Turn:
        self.thread.join(timeout)
        assert not self.thread.is_alive(), "the turn did not end"
        return self.ended[0]


def conduct_sign_in(
    owner: Any,
    site: FixtureSite,
    path: str,
    started: list[Background] | None = None,
    before: tuple[dict[str, Any], ...] = (),
) -> Background:
    """Conduct a turn whose plan is ``before`` then ``sign_in`` at ``path``, in its own thread."""
    credential_save(owner=owner, label="Shop", origins=[site.origin], username=USERNAME, secret=PASSWORD)
    sign_in = {"tool": "sign_in", "args": {"url": site.url(path), "credential": "Shop"}}
    plan = {"steps": [*before, sign_in]}
    turn = turn_submit(owner=owner, text="sign in to the shop", plan=plan, enqueue=False)
    mandate = vault_mandate_for_plan(owner=owner, turn_id=turn.pk, plan=plan, catalog=current_catalog())
    live = LiveEvents(owner.pk)
    ended: list[Turn] = []

    def work() -> None:
        try:
            ended.append(turn_conduct(turn=turn, mandate=mandate))
        finally:
            connection.close()

    thread = threading.Thread(target=work, name="test-turn", daemon=True)
    thread.start()
    background = Background(turn, thread, live, ended)
    if started is not None:
        started.append(background)
    return background


def settle_backgrounds(backgrounds: list[Background]) -> None:
    """After a test, end what it left waiting (a failed assertion may leave a panel open)."""
    from apps.sites.handoff.panels import SERVED

    for background in backgrounds:
        if background.thread.is_alive():
            HandoffPanel.objects.filter(turn=background.turn, status__in=SERVED).update(
                status=HandoffPanel.Status.CANCELLED
            )
            background.thread.join(60)
        background.live.close()
        # A Resume enqueued a linked turn: a real worker (services pass) may be conducting it. It ends
        # before the test's database is emptied, or is conducted here where no worker takes it.
        unfinished = (Turn.Status.QUEUED, Turn.Status.RUNNING)
        for resumed in Turn.objects.filter(resumed_from=background.turn, status__in=unfinished):
            conduct_resumed(resumed.pk, resumed.owner_id)


def portal(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def panel_of(owner: Any, timeout: float = 90) -> HandoffPanel:
    assert wait_until(lambda: HandoffPanel.objects.filter(owner=owner).exists(), timeout), "no panel opened"
    panel = HandoffPanel.objects.get(owner=owner)
    assert wait_until(lambda: status(owner, panel)["image_version"] >= 1, 30), "no image"
    return panel


def status(owner: Any, panel: HandoffPanel) -> dict[str, Any]:
    answer = portal(owner).get(f"/web/handoff/{panel.pk}/status/")
    assert answer.status_code == 200
    return dict(answer.json())


def post(owner: Any, panel: HandoffPanel, action: str, body: dict[str, Any] | None = None) -> Any:
    return portal(owner).post(f"/web/handoff/{panel.pk}/{action}/", body or {}, content_type="application/json")


def sessions_open(owner: Any) -> int:
    return BrowserSessionLease.objects.filter(owner=owner).count()


def conduct_resumed(turn_id: int, owner_id: int, timeout: float = 120) -> Turn:
    """The resumed turn, conducted once: by a worker that already took it from the queue, or here.

    Resume enqueues the new turn; the services pass has a real worker, the
    embedded tests none. The claim lets exactly one of them conduct it.
    """
    run_turn(turn_id, owner_id)
    unfinished = (Turn.Status.QUEUED, Turn.Status.RUNNING, Turn.Status.AWAITING_INPUT)
    assert wait_until(lambda: Turn.objects.get(pk=turn_id).status not in unfinished, timeout), "not conducted"
    return Turn.objects.get(pk=turn_id)
