"""The deterministic rule for resuming a known dialogue ("continue", "riprendi").

A short request that only asks to go on resumes the latest turn of the same
conversation that stopped before finishing its plan: interrupted (its
process died), or stopped by a recoverable error. The resumption is a new
turn linked to the suspended one; it re-runs nothing that finished, and it
checks again, before anything runs:

- the owner and the conversation (only the user's own turn of this
  conversation is considered);
- expiry (a turn older than ``RESUMABLE_FOR`` is not resumed);
- the dialogue state (a turn already resumed is not resumed twice);
- the catalog (a changed catalog means planning again, not resuming);
- the step that stopped: an outcome that may have changed state (class
  ``unknown``) is repeated only when its executor only reads; otherwise the
  user is told which step may already have taken effect.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from django.utils import timezone

from apps.runtime.executor import Catalog
from apps.runtime.models import StepRecord, Turn

RESUMABLE_FOR = dt.timedelta(hours=24)
# Capabilities that change nothing: a step using only these may run again.
READ_ONLY_CAPABILITIES = frozenset({"files.read", "documents.read", "records.extract"})

_RESUME = re.compile(
    r"^\s*(?:please\s+|per\s+favore\s+)?"
    r"(?:continue|resume|go\s+on|carry\s+on|keep\s+going|pick\s+up\s+where\s+you\s+left\s+off|"
    r"continua|riprendi|prosegui|vai\s+avanti|vai\s+pure\s+avanti|riprendi\s+da\s+dove\s+eri\s+rimasto)"
    r"(?:\s+please|\s+per\s+favore)?\s*[.!]*\s*$",
    re.IGNORECASE,
)
RESUMABLE_STATUSES = (Turn.Status.INTERRUPTED, Turn.Status.PARTIAL, Turn.Status.FAILED)


def asks_to_resume(text: str) -> bool:
    return _RESUME.match(text) is not None


@dataclass(frozen=True)
class Resumption:
    """The turn to resume, or why there is none (a sentence for the user)."""

    turn: Turn | None
    refusal: str = ""


def _stopping_step(turn: Turn) -> StepRecord | None:
    return StepRecord.objects.filter(turn=turn, outcome=StepRecord.Outcome.FAILED).order_by("index").first()


def resumption_for(*, turn: Turn, catalog: Catalog) -> Resumption:
    """Which earlier turn of ``turn``'s conversation the request resumes, checked again."""
    candidate = (
        Turn.objects.filter(
            owner_id=turn.owner_id, conversation_id=turn.conversation_id, created_at__lt=turn.created_at
        )
        .exclude(pk=turn.pk)
        .order_by("-created_at", "-id")
        .first()
    )
    if candidate is None or candidate.status not in RESUMABLE_STATUSES or not candidate.plan:
        return Resumption(None, "There is nothing to resume in this conversation: its last request is not suspended.")
    if Turn.objects.filter(resumed_from=candidate).exists():
        return Resumption(None, "That request was already resumed; ask again to start it anew.")
    if timezone.now() - candidate.created_at > RESUMABLE_FOR:
        return Resumption(None, "That request is too old to resume; ask again to start it anew.")
    if candidate.catalog_signature != catalog.signature:
        return Resumption(None, "Metnos's capabilities changed since that request; ask again to plan it anew.")
    stopped = _stopping_step(candidate)
    if stopped is None:
        return Resumption(None, "That request did not stop on a step that can be resumed; ask again.")
    if stopped.error_class == "permanent":
        return Resumption(None, f"Step {stopped.index} ({stopped.tool}) would fail the same way again.")
    if stopped.error_class != "recoverable":
        manifest = catalog.manifest(stopped.tool)
        reads_only = manifest is not None and bool(manifest.capabilities)
        if not (reads_only and manifest is not None and manifest.capabilities <= READ_ONLY_CAPABILITIES):
            return Resumption(
                None,
                f"Step {stopped.index} ({stopped.tool}) may already have taken effect, so I will not repeat it. "
                "Check its result, then ask again for what is still missing.",
            )
    return Resumption(candidate)


# The error code of a step whose work goes on in a resumed turn (a sign-in
# finished through the verification panel): its turn ends handed off to it.
CONTINUED_IN_RESUMED_TURN = "continued_in_resumed_turn"


def turn_resumption_create(*, turn: Turn) -> Turn:
    """A new queued turn linked to ``turn`` (``resumed_from``) with its owner, conversation and plan.

    Conducted, it inherits the results and files of the steps that already did
    their work and runs the rest of the plan; the caller enqueues it. Like
    every new turn it starts queued; from there its state changes only through
    :mod:`apps.runtime.lifecycle`.
    """
    return Turn.objects.create(
        owner_id=turn.owner_id,
        conversation_id=turn.conversation_id,
        request_text=turn.request_text,
        path=turn.path,
        plan=turn.plan,
        plan_digest=turn.plan_digest,
        catalog_signature=turn.catalog_signature,
        resumed_from=turn,
    )
