"""``undo_last_turn``: revert the recorded effects of the owner's latest turn.

Only effects the turn recorded are reverted, and only while they are still
as the turn left them (a file created by the turn is removed only if its size
is unchanged); anything else is reported, never forced. The undo receipt is
recorded in both turns' traces.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from apps.accounts.models import User
from apps.documents.files import FileAccessRefused, resolve_owner_path
from apps.runtime.executor import ExecutionContext, StepError, StepResult
from apps.runtime.manifests import Manifest, RequestForm, ResultShape
from apps.runtime.models import StepRecord, TraceEvent, Turn
from apps.runtime.trace import trace_record

UNDO_MANIFEST = Manifest(
    name="undo_last_turn",
    purpose="Revert the recorded effects of your latest turn (files it created), when still unchanged.",
    args={},
    result=ResultShape(kind="value", fields=("undone_turn", "reverted", "kept")),
    capabilities=frozenset({"turns.undo", "files.write"}),
    action_phrases=(
        "(undo|revert) [the|my] (last|latest|previous) (turn|action|request|operation|change|changes)",
        "annulla [l'] (ultima|ultimo) (operazione|azione|richiesta|turno|modifica)",
    ),
    request_forms=(
        RequestForm(language="en", template="undo [the] (last|latest|previous) (turn|action|request)", slots={},
                    plan=({"tool": "undo_last_turn", "args": {}},)),
        RequestForm(language="it", template="annulla [l'] (ultima|ultimo) (operazione|azione|richiesta|turno)",
                    slots={}, plan=({"tool": "undo_last_turn", "args": {}},)),
    ),
)  # fmt: skip


def _latest_undoable_turn(owner: User, current_turn_id: int | None) -> Turn | None:
    """The owner's most recent finished turn that recorded effects and was not undone yet."""
    undone = set(TraceEvent.objects.filter(owner_id=owner.pk, kind="turn.undone").values_list("turn_id", flat=True))
    finished = Turn.objects.filter(owner_id=owner.pk, finished_at__isnull=False)
    if current_turn_id is not None:
        finished = finished.exclude(pk=current_turn_id)
    recent = finished.order_by("-finished_at", "-id")[:50]
    for turn in recent:
        records = list(StepRecord.objects.filter(turn=turn).values_list("tool", "effects"))
        if any(tool == "undo_last_turn" for tool, _ in records):
            continue
        if turn.pk not in undone and any(effects for _, effects in records):
            return turn
    return None


def _changed_since(path: Path, size: Any, sha256: Any) -> bool:
    """Whether the file differs from what the turn created (size, then content hash)."""
    if size is not None and path.stat().st_size != size:
        return True
    if isinstance(sha256, str) and sha256:
        digest = hashlib.sha256()
        with path.open("rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
        return digest.hexdigest() != sha256
    return False


class UndoLastTurn:
    manifest = UNDO_MANIFEST

    def run(self, context: ExecutionContext, args: Mapping[str, Any]) -> StepResult:
        target = _latest_undoable_turn(context.owner, context.turn_id)
        if target is None:
            return StepResult(outcome="empty", summary="There is no earlier turn with effects to undo.")
        reverted: list[str] = []
        kept: list[str] = []
        for record in StepRecord.objects.filter(turn=target).order_by("-index"):
            sizes = {file.get("path"): file.get("size") for file in record.files}
            for effect in record.effects:
                path = str(effect.get("path", ""))
                if effect.get("kind") != "file_created" or not path:
                    kept.append(f"{effect.get('kind', 'effect')} (cannot be undone automatically)")
                    continue
                try:
                    target_path = resolve_owner_path(owner=context.owner, relative_path=path)
                except FileAccessRefused:
                    kept.append(f"{path} (outside your files)")
                    continue
                if not target_path.exists():
                    kept.append(f"{path} (already gone)")
                elif _changed_since(target_path, sizes.get(path), effect.get("sha256")):
                    kept.append(f"{path} (changed since; left in place)")
                else:
                    target_path.unlink()
                    reverted.append(path)
        receipt = {"undone_turn": target.pk, "reverted": reverted, "kept": kept}
        if reverted:
            # The receipt goes into both traces; only a turn with something
            # reverted counts as undone, so a failed undo does not skip it.
            trace_record(target, "turn.undone", {"by_turn": context.turn_id, "reverted": len(reverted)})
            current = Turn.objects.filter(pk=context.turn_id or 0, owner_id=context.owner.pk).first()
            if current is not None:
                trace_record(current, "undo.receipt", {"undone_turn": target.pk, "reverted": len(reverted)})
        if not reverted:
            return StepResult(
                outcome="failed",
                value=receipt,
                error=StepError("permanent", "nothing_reverted", "Nothing could be undone: " + "; ".join(kept)),
            )
        summary = f"Undid turn {target.pk}: removed " + ", ".join(reverted)
        return StepResult(
            outcome="partial" if kept else "success",
            value=receipt,
            summary=summary,
            notices=tuple(f"Kept: {item}" for item in kept),
            effects=({"kind": "undo_receipt", "turn": target.pk, "reverted": reverted},),
        )
