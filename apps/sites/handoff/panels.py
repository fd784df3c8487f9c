"""Handoff panels: the rows, the owner's commands, and the way back into the turn.

A panel opens when the sign-in step meets a humanity check it may not pass
alone (:mod:`apps.sites.handoff.server` serves it from the step's own
thread). This module holds what both sides share:

- **services** (writes): :func:`handoff_panel_open`, :func:`handoff_panel_resume`,
  :func:`handoff_panel_cancel`, :func:`handoff_command_add`, the server's own
  transitions, and :func:`handoff_panel_continue`, which creates the resumed
  turn after a verified sign-in;
- **selectors** (reads, always scoped to an owner): :func:`handoff_panel_get_for_owner`,
  :func:`handoff_panel_status`;
- the cache channel between the portal and the step: commands (clicks and
  scrolls, never keystrokes) and the masked image of the page.

Nothing stored here holds page data, an address or a value: statuses and
reasons are closed codes, and the image lives only in the cache, masked.
"""

from __future__ import annotations

import datetime as dt
import time
from dataclasses import dataclass
from typing import Any, Literal, cast

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import QuerySet
from django.urls import reverse
from django.utils import timezone

from apps.accounts.models import User
from apps.core.events import TurnEvent
from apps.core.tenancy import get_owned_or_404, owned_rows
from apps.runtime.lifecycle import turn_resume_after_input, turn_suspend_for_input
from apps.runtime.models import Turn
from apps.runtime.paths.resume import turn_resumption_create
from apps.runtime.trace import trace_record, turn_publish
from apps.sites.limits import HANDOFF_PANEL_LIFETIME
from apps.sites.models import HandoffPanel

Status = HandoffPanel.Status
CommandKind = Literal["click", "scroll", "refresh"]
# Bounds of a forwarded command: a click inside the image, a scroll of at most this many pixels.
MAX_SCROLL_PIXELS = 2000
MAX_COMMANDS_PER_PANEL = 10_000
# A command's number is taken before the command is stored: a number found
# without its command is waited for this long (its writer is storing it), then
# skipped (its writer gave up), so no click is lost and none waits forever.
COMMAND_WRITE_GRACE_SECONDS = 2.0
# Statuses in which the step still serves the panel.
SERVED = (Status.OPEN, Status.RESUME_REQUESTED, Status.VERIFYING)


class HandoffRefused(Exception):
    """A command or decision the panel cannot take now; ``reason`` is a stable code."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


@dataclass(frozen=True)
class Command:
    """One forwarded input: a click at (x, y) of the image, a wheel scroll by dy, or a fresh image."""

    kind: CommandKind
    x: int = 0
    y: int = 0
    dy: int = 0


def handoff_panel_lifetime() -> dt.timedelta:
    """Ten minutes (the spec); ``METNOS_HANDOFF_PANEL_SECONDS`` shortens it for tests."""
    seconds = getattr(settings, "METNOS_HANDOFF_PANEL_SECONDS", None)
    return dt.timedelta(seconds=float(seconds)) if seconds else HANDOFF_PANEL_LIFETIME


def handoff_panel_url(panel_id: int) -> str:
    return reverse("sites:handoff", args=[panel_id])


# --- the cache channel ---------------------------------------------------------


def handoff_channel(panel: HandoffPanel) -> str:
    """The panel's cache namespace: its id and creation time, so a reused id never meets old entries."""
    return f"{panel.pk}.{int(panel.created_at.timestamp() * 1_000_000)}"


def _key(channel: str, part: str) -> str:
    return f"metnos:handoff:{channel}:{part}"


def _cache_seconds() -> int:
    return int(handoff_panel_lifetime().total_seconds()) + 120


def handoff_image_store(*, channel: str, png: bytes) -> int:
    """Keep the newest masked image of the panel's page; its version, for the portal to notice."""
    version = int(cache.get(_key(channel, "image_version")) or 0) + 1
    cache.set(_key(channel, "image"), (version, png), timeout=_cache_seconds())
    cache.set(_key(channel, "image_version"), version, timeout=_cache_seconds())
    return version


def handoff_image(panel: HandoffPanel) -> tuple[int, bytes] | None:
    """The newest masked image of an open panel (the caller fetched the panel through its owner)."""
    if panel.is_closed:
        return None
    stored = cache.get(_key(handoff_channel(panel), "image"))
    return cast("tuple[int, bytes]", stored) if stored else None


def _nudge(panel: HandoffPanel) -> None:
    """Tell the serving step to read the panel's row now (Resume, Cancel) rather than at its next look."""
    cache.set(_key(handoff_channel(panel), "nudge"), 1, timeout=_cache_seconds())


def handoff_nudged(*, channel: str) -> bool:
    """Whether the owner decided something since the last look (and forget it)."""
    key = _key(channel, "nudge")
    if cache.get(key) is None:
        return False
    cache.delete(key)
    return True


def handoff_commands_take(*, channel: str, after: int) -> tuple[list[Command], int]:
    """The commands added after number ``after``, in order, and the last number taken."""
    last = int(cache.get(_key(channel, "seq")) or 0)
    taken: list[Command] = []
    number = after
    while number < last:
        stored = cache.get(_key(channel, f"command:{number + 1}"))
        if stored is None and not _writer_gave_up(channel, number + 1):
            break  # taken at the next look, in order: a later command never overtakes it
        number += 1
        if stored is not None:
            cache.delete(_key(channel, f"command:{number}"))
            taken.append(Command(**stored))
    return taken, number


def _writer_gave_up(channel: str, number: int) -> bool:
    """Whether command ``number`` has been missing for longer than its writer needs to store it."""
    key = _key(channel, f"missing:{number}")
    now = time.time()
    cache.add(key, now, timeout=_cache_seconds())
    first_missed = cache.get(key)
    return first_missed is not None and now - float(first_missed) >= COMMAND_WRITE_GRACE_SECONDS


# --- selectors -------------------------------------------------------------------


def handoff_panel_list(*, owner: User) -> QuerySet[HandoffPanel]:
    return owned_rows(HandoffPanel, owner=owner)


def handoff_panel_get_for_owner(*, owner: User, panel_id: Any) -> HandoffPanel:
    """One of the owner's panels, or the same 404 for a missing or another owner's panel."""
    return get_owned_or_404(handoff_panel_list(owner=owner), pk=panel_id)


def handoff_panel_open_for_turn(*, owner: User, turn_id: int) -> HandoffPanel | None:
    """The panel a turn is waiting on, if any (the conversation page links to it)."""
    return handoff_panel_list(owner=owner).filter(turn_id=turn_id, status__in=SERVED).first()


def _effective_status(panel: HandoffPanel) -> str:
    if panel.status == Status.OPEN and timezone.now() >= panel.expires_at:
        return str(Status.EXPIRED)  # the step marks it at its next look; a dead worker never will
    return str(panel.status)


def handoff_panel_status(panel: HandoffPanel) -> dict[str, Any]:
    """What the portal shows: closed codes, times and the resumed turn; never page data."""
    version = cache.get(_key(handoff_channel(panel), "image_version"))
    resumed = panel.resumed_turn_id
    return {
        "id": panel.pk,
        "status": _effective_status(panel),
        "reason": panel.reason,
        "last_check": panel.last_check,
        "credentials_submitted": panel.credentials_submitted,
        "expires_at": panel.expires_at.isoformat(),
        "image_version": int(version or 0),
        "turn": panel.turn_id,
        "conversation": panel.conversation_id,
        "resumed_turn": resumed,
        "conversation_url": reverse("runtime:conversation", args=[panel.conversation_id]),
    }


# --- services: the owner's side -------------------------------------------------------


def _served(panel: HandoffPanel) -> None:
    if panel.is_closed:
        raise HandoffRefused("closed", f"This panel is already {panel.status}.")
    if timezone.now() >= panel.expires_at:
        raise HandoffRefused("expired", "This panel has expired.")


def handoff_command_add(*, owner: User, panel_id: Any, command: Command) -> HandoffPanel:
    """Forward a click, a scroll or a request for a fresh image to the step serving the panel."""
    panel = handoff_panel_get_for_owner(owner=owner, panel_id=panel_id)
    _served(panel)
    if panel.status != Status.OPEN:
        raise HandoffRefused("busy", "The page is being checked; wait for the result.")
    if command.kind == "scroll" and not (-MAX_SCROLL_PIXELS <= command.dy <= MAX_SCROLL_PIXELS):
        raise HandoffRefused("invalid_command", f"A scroll moves at most {MAX_SCROLL_PIXELS} pixels.")
    if command.kind == "click" and (command.x < 0 or command.y < 0):
        raise HandoffRefused("invalid_command", "A click must be inside the image.")
    channel = handoff_channel(panel)
    seq_key = _key(channel, "seq")
    cache.add(seq_key, 0, timeout=_cache_seconds())
    number = cache.incr(seq_key)
    if number > MAX_COMMANDS_PER_PANEL:
        raise HandoffRefused("too_many_commands", "This panel took all the commands it can.")
    stored = {"kind": command.kind, "x": command.x, "y": command.y, "dy": command.dy}
    cache.set(_key(channel, f"command:{number}"), stored, timeout=_cache_seconds())
    return panel


def handoff_panel_resume(*, owner: User, panel_id: Any) -> HandoffPanel:
    """Ask the step to check the page afresh; idempotent while that check is under way or done.

    Pressing Resume establishes nothing by itself: the step observes the page,
    and only an observation without the challenge lets the sign-in go on.
    """
    panel = handoff_panel_get_for_owner(owner=owner, panel_id=panel_id)
    if panel.status in (Status.RESUME_REQUESTED, Status.VERIFYING, Status.RESUMED):
        return panel  # a repeated or lost request: never a second check or submission
    _served(panel)
    HandoffPanel.objects.filter(pk=panel.pk, status=Status.OPEN).update(status=Status.RESUME_REQUESTED, last_check="")
    _nudge(panel)
    panel.refresh_from_db()
    return panel


def handoff_panel_cancel(*, owner: User, panel_id: Any) -> HandoffPanel:
    """Close the panel; the step then closes the browser session and ends the sign-in."""
    panel = handoff_panel_get_for_owner(owner=owner, panel_id=panel_id)
    if panel.status == Status.CANCELLED:
        return panel
    _served(panel)
    taken = HandoffPanel.objects.filter(pk=panel.pk, status__in=(Status.OPEN, Status.RESUME_REQUESTED)).update(
        status=Status.CANCELLED, reason="handoff_cancelled", closed_at=timezone.now()
    )
    if not taken:
        raise HandoffRefused("busy", "The page is being checked; wait for the result.")
    _nudge(panel)
    panel.refresh_from_db()
    return panel


# --- services: the step's side -------------------------------------------------------


def handoff_panel_open(*, turn_id: int, step_index: int, credentials_submitted: bool) -> HandoffPanel:
    """Open a panel for the step: the turn waits for the person, and their browsers are told where."""
    turn = Turn.objects.get(pk=turn_id)
    with transaction.atomic():
        panel = HandoffPanel.objects.create(
            owner_id=turn.owner_id,
            turn=turn,
            conversation_id=turn.conversation_id,
            step_index=step_index,
            reason="humanity_check",
            credentials_submitted=credentials_submitted,
            expires_at=timezone.now() + handoff_panel_lifetime(),
        )
        turn_suspend_for_input(turn=turn)
    trace_record(turn, "handoff.opened", {"step": step_index, "panel": panel.pk})
    event: TurnEvent = {"type": "turn.handoff_opened", "step": step_index, "panel_id": panel.pk,
             "url": handoff_panel_url(panel.pk), "expires_at": panel.expires_at.isoformat()}  # fmt: skip
    turn_publish(turn, event)
    return panel


def handoff_panel_state(*, panel_id: int) -> HandoffPanel:
    return HandoffPanel.objects.get(pk=panel_id)


def handoff_panel_verifying(*, panel_id: int) -> bool:
    """The step takes a Resume request (the turn works again); False when it was cancelled meanwhile."""
    with transaction.atomic():
        taken = HandoffPanel.objects.filter(pk=panel_id, status=Status.RESUME_REQUESTED).update(status=Status.VERIFYING)
        if taken:
            turn_resume_after_input(turn=_turn_of(panel_id))
    return bool(taken)


def handoff_panel_still_blocked(*, panel_id: int, check: str, credentials_submitted: bool = False) -> None:
    """The fresh observation did not clear the check (``still_open`` or ``unobservable``): the panel stays open.

    ``credentials_submitted`` says the sign-in went on and submitted before a check appeared again.
    """
    changes: dict[str, Any] = {"status": Status.OPEN, "last_check": check}
    if credentials_submitted:
        changes["credentials_submitted"] = True
    with transaction.atomic():
        HandoffPanel.objects.filter(pk=panel_id, status=Status.VERIFYING).update(**changes)
        turn_suspend_for_input(turn=_turn_of(panel_id))


def _turn_of(panel_id: int) -> Turn:
    return HandoffPanel.objects.select_related("turn").get(pk=panel_id).turn


def handoff_panel_close(*, panel_id: int, status: str, reason: str) -> HandoffPanel:
    """End the panel (expired, failed, or the sign-in's own end) and let the turn run again."""
    HandoffPanel.objects.filter(pk=panel_id, status__in=SERVED).update(
        status=status, reason=reason[:48], closed_at=timezone.now()
    )
    panel = HandoffPanel.objects.select_related("turn").get(pk=panel_id)
    turn = panel.turn
    turn_resume_after_input(turn=turn)
    trace_record(turn, "handoff.closed", {"step": panel.step_index, "panel": panel.pk, "status": panel.status,
                                          "reason": panel.reason})  # fmt: skip
    event: TurnEvent = {
        "type": "turn.handoff_closed",
        "step": panel.step_index,
        "panel_id": panel.pk,
        "status": panel.status,
    }
    turn_publish(turn, event)
    channel = handoff_channel(panel)
    cache.delete_many([_key(channel, "image"), _key(channel, "image_version"), _key(channel, "seq")])
    return panel


def handoff_panel_continue(*, panel_id: int, result: dict[str, Any]) -> Turn:
    """After a verified sign-in: a new turn linked to the suspended one continues the request.

    The new turn keeps the owner, the conversation and the plan; it inherits
    the results (and files) of the steps that already did their work, and its
    sign-in step takes ``result`` from this panel once, without a browser.
    """
    from apps.runtime.turns import turn_enqueue

    with transaction.atomic():
        panel = HandoffPanel.objects.select_for_update().select_related("turn").get(pk=panel_id)
        turn = panel.turn
        resumed = turn_resumption_create(turn=turn)
        panel.status, panel.resumed_turn, panel.result = Status.RESUMED, resumed, result
        panel.reason, panel.closed_at = "signed_in", timezone.now()
        panel.save(update_fields=["status", "resumed_turn", "result", "reason", "closed_at"])
        trace_record(turn, "handoff.resumed", {"step": panel.step_index, "panel": panel.pk, "resumed_turn": resumed.pk})
        turn_enqueue(resumed)
    return resumed


def handoff_result_take(*, owner: User, turn_id: int | None, step_index: int) -> HandoffPanel | None:
    """The verified sign-in a resumed turn continues from, taken once; None when there is none."""
    if turn_id is None:
        return None
    panel = (
        handoff_panel_list(owner=owner)
        .filter(resumed_turn_id=turn_id, step_index=step_index, status=Status.RESUMED, result_taken_at__isnull=True)
        .first()
    )
    if panel is None:
        return None
    taken = HandoffPanel.objects.filter(pk=panel.pk, result_taken_at__isnull=True).update(
        result_taken_at=timezone.now()
    )
    return panel if taken else None
