"""Consent: confirmations bound to the user, turn, exact plan and catalog that asked.

A step whose manifest requires confirmation stops before its effect and a
:class:`ConsentRequest` records what the user is shown (action, purpose,
destination, consequences). A decision resumes nothing unless it comes from
the same owner, for the same conversation, while the plan digest and the
catalog signature are unchanged and before expiry. Confirming creates a new
turn linked to the suspended one; the approval is consumed when the step is
invoked, never reused.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from django.db import transaction
from django.utils import timezone

from apps.accounts.models import User
from apps.core.tenancy import get_owned_or_404, owned_rows
from apps.runtime.lifecycle import turn_decline, turn_hand_off
from apps.runtime.models import ConsentRequest, Turn
from apps.runtime.paths.resume import turn_resumption_create

CONSENT_LIFETIME = dt.timedelta(minutes=30)
CONSENT_EXPIRED_ANSWER = "The confirmation expired unanswered; nothing was done for that step."

RefusalReason = Literal[
    "already_decided", "expired", "other_conversation", "plan_changed", "catalog_changed", "turn_not_waiting"
]


class ConsentRefused(PermissionError):
    """A decision that cannot resume the plan; ``reason`` is from a closed set."""

    def __init__(self, reason: RefusalReason, message: str) -> None:
        self.reason = reason
        super().__init__(message)


@dataclass(frozen=True)
class ConsentDecision:
    consent: ConsentRequest
    resumed_turn: Turn | None  # None when declined


def consent_request_create(
    *, turn: Turn, step_index: int, tool: str, proposal: Mapping[str, Any], plan_digest: str, catalog_signature: str
) -> ConsentRequest:
    return ConsentRequest.objects.create(
        owner_id=turn.owner_id,
        turn=turn,
        conversation_id=turn.conversation_id,
        step_index=step_index,
        tool=tool,
        plan_digest=plan_digest,
        catalog_signature=catalog_signature,
        proposal=dict(proposal),
        expires_at=timezone.now() + CONSENT_LIFETIME,
    )


def consent_is_expired(consent: ConsentRequest, *, now: dt.datetime) -> bool:
    """Whether ``consent`` can no longer be answered because its deadline passed, marked or not yet.

    The schedule (``apps.runtime.consents_expire``) marks expired consents and
    ends their turns; until it runs, a decision is refused here and a page shows
    the consent as expired without writing anything.
    """
    if consent.decision == ConsentRequest.Decision.EXPIRED:
        return True
    return consent.decision == ConsentRequest.Decision.PENDING and now >= consent.expires_at


def consent_decide(
    *,
    owner: User,
    consent_id: Any,
    confirm: bool,
    conversation_id: int,
    current_catalog_signature: str,
) -> ConsentDecision:
    """Apply the user's decision; refuse anything not bound to this exact request.

    Another owner's consent is a 404 (via the scoped selector). The resumed
    turn is returned; the caller enqueues it after commit.
    """
    with transaction.atomic():
        consent = get_owned_or_404(
            owned_rows(ConsentRequest, owner=owner).select_for_update().select_related("turn"), pk=consent_id
        )
        turn = consent.turn
        now = timezone.now()
        if consent.decision != ConsentRequest.Decision.PENDING:
            raise ConsentRefused("already_decided", "This confirmation was already answered.")
        if conversation_id != consent.conversation_id:
            raise ConsentRefused("other_conversation", "This confirmation belongs to another conversation.")
        if consent_is_expired(consent, now=now):
            consent.decision = ConsentRequest.Decision.EXPIRED
            consent.decided_at = now
            consent.save(update_fields=["decision", "decided_at"])
            turn_decline(turn=turn, answer=CONSENT_EXPIRED_ANSWER)  # unless it stopped waiting meanwhile
        else:
            return _apply_decision(consent, turn, now=now, confirm=confirm, catalog=current_catalog_signature)
    # Raised after the commit, so the expiry itself is recorded.
    raise ConsentRefused("expired", "This confirmation has expired; ask again.")


def _apply_decision(
    consent: ConsentRequest, turn: Turn, *, now: dt.datetime, confirm: bool, catalog: str
) -> ConsentDecision:
    """Check the binding to the exact plan and catalog, then record the decision (inside its transaction).

    The turn's end is a compare-and-set: if the turn stopped waiting meanwhile,
    the decision is refused and rolled back with everything it wrote.
    """
    if turn.status != Turn.Status.AWAITING_CONFIRMATION:
        raise ConsentRefused("turn_not_waiting", _NOT_WAITING)
    if turn.plan_digest != consent.plan_digest:
        raise ConsentRefused("plan_changed", "The plan changed after this confirmation was asked.")
    if catalog != consent.catalog_signature:
        raise ConsentRefused("catalog_changed", "Metnos's capabilities changed; ask again.")
    consent.decided_at = now
    if not confirm:
        consent.decision = ConsentRequest.Decision.DECLINED
        consent.save(update_fields=["decision", "decided_at"])
        declined = [("consent.declined", {"step": consent.step_index})]
        if not turn_decline(turn=turn, answer="You declined; nothing was done for that step.", trace=declined):
            raise ConsentRefused("turn_not_waiting", _NOT_WAITING)
        return ConsentDecision(consent=consent, resumed_turn=None)
    resumed = turn_resumption_create(turn=turn)
    consent.decision = ConsentRequest.Decision.CONFIRMED
    consent.resumed_turn = resumed
    consent.save(update_fields=["decision", "decided_at", "resumed_turn"])
    confirmed = [("consent.confirmed", {"step": consent.step_index, "resumed_turn": resumed.pk})]
    if not turn_hand_off(turn=turn, answer="Confirmed; the plan continues in the resumed turn.", trace=confirmed):
        raise ConsentRefused("turn_not_waiting", _NOT_WAITING)
    return ConsentDecision(consent=consent, resumed_turn=resumed)


_NOT_WAITING = "The turn is no longer waiting for this confirmation."


def consent_approval_for_step(
    *, turn: Turn, step_index: int, plan_digest: str, catalog_signature: str
) -> ConsentRequest | None:
    """The unconsumed confirmation that lets ``turn`` run ``step_index`` now, if any."""
    return (
        ConsentRequest.objects.filter(
            owner_id=turn.owner_id,
            resumed_turn=turn,
            step_index=step_index,
            plan_digest=plan_digest,
            catalog_signature=catalog_signature,
            decision=ConsentRequest.Decision.CONFIRMED,
            consumed_at__isnull=True,
        )
        .order_by("-decided_at")
        .first()
    )


def consent_consume(*, consent: ConsentRequest) -> None:
    """Mark the approval used: it is consumed when the step is invoked, whatever follows."""
    consent.consumed_at = timezone.now()
    consent.save(update_fields=["consumed_at"])
