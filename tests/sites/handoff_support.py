"""Helpers for the handoff panel tests: a sign-in turn conducted in the background, the owner's portal."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from django.db import connection
from django.test import Client

from apps.runtime.catalog import current_catalog
from apps.runtime.models import Turn
from apps.runtime.tasks import run_turn
from apps.runtime.trace import observe_turn_events
from apps.runtime.turns import turn_conduct, turn_submit
from apps.sites.models import BrowserSessionLease, HandoffPanel
from apps.vault.mandates import vault_mandate_for_plan
from apps.vault.services import credential_save
from tests.sites.fixture_web import FixtureSite, wait_until
from tests.sites.signin_support import PASSWORD, USERNAME

# Where the fixture page draws its humanity check (tests/sites/web/signin-handoff/handoff.css).
CHECK_AT = (130, 75)
FREEZE_AT = (460, 75)


@dataclass
class Background:
    """A turn conducted in its own thread, as a worker would; the test plays the owner in the portal."""

    turn: Turn
    thread: threading.Thread
    events: list[Any] = field(default_factory=list)
    ended: list[Turn] = field(default_factory=list)

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
    events: list[Any] = []
    ended: list[Turn] = []

    def work() -> None:
        try:
            with observe_turn_events(events.append):
                ended.append(turn_conduct(turn=turn, mandate=mandate))
        finally:
            connection.close()

    thread = threading.Thread(target=work, name="test-turn", daemon=True)
    thread.start()
    background = Background(turn, thread, events, ended)
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
