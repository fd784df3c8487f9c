"""The per-turn scratchpad: full step results for the runtime, explicit projections for the planner.

Contract (runtime spec, "references"): a large collection stays in the
scratchpad while the planner sees only a useful, explicitly truncated
projection. One :class:`Scratchpad` lives for one turn. It keeps every step's
:class:`StepResult` whole, recorded once per step (``put`` refuses to replace
what a step actually produced), and hands the results, keyed by 1-based step
number, to reference resolution (``results``).

``projection(step)`` is what a planner may read: the outcome, the summary,
the first ``max_items`` items (or the value) with every string longer than
``max_chars`` cut and marked, nested lists cut to ``max_items`` and marked,
nesting beyond ``MAX_PROJECTION_DEPTH`` replaced by a marker, and always the
keys ``truncated``, ``total_items``, ``shown_items`` and ``cut_values`` so no
truncation is silent. Values that are not JSON (dates, decimals, bytes) are
shown as text. A projection is always JSON-serialisable.

``planner_view(max_chars=…)`` is what the planner is sent when it plans with
earlier results available: every step's projection, shown with fewer items
and shorter strings until the whole fits ``max_chars`` (the truncation stays
explicit at every size). :func:`scratchpad_for_turn` rebuilds a turn's
scratchpad from the results recorded for it and for the turn it resumes.
Its caller in a conducted turn is :func:`apps.runtime.paths.replanning.plan_again`:
a resumed turn whose plan the guards refuse is planned anew with this
projection of the work it would have inherited (that module says why a
follow-up turn's planner does not see an earlier turn's results).
"""

from __future__ import annotations

import datetime as dt
import json
import math
from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import Any

from apps.runtime.boundary import result_from_json
from apps.runtime.executor import StepResult
from apps.runtime.models import StepRecord, Turn

PROJECTION_ITEMS = 20  # items a planner sees by default
PROJECTION_CHARS = 200  # characters of one string a planner sees by default
MAX_PROJECTION_DEPTH = 4  # nesting shown inside one item
# (items, characters) tried in turn until the planner's view fits its budget.
PLANNER_VIEW_SIZES = ((PROJECTION_ITEMS, PROJECTION_CHARS), (10, 120), (5, 80), (2, 60), (0, 40))


class ScratchpadError(ValueError):
    """A step result recorded twice, or a step number that cannot exist."""


class Scratchpad:
    """The full results of one turn's steps, keyed by 1-based step number."""

    def __init__(self, turn_id: int | None = None) -> None:
        self.turn_id = turn_id
        self._results: dict[int, StepResult] = {}
        self._tools: dict[int, str] = {}

    def put(self, step: int, result: StepResult, *, tool: str | None = None) -> None:
        """Record what step ``step`` (of executor ``tool``) actually produced; a step's result is recorded once."""
        if type(step) is not int or step < 1:
            raise ScratchpadError(f"steps are numbered from 1, got {step!r}")
        if step in self._results:
            raise ScratchpadError(f"step {step} already has a result; it is not replaced")
        self._results[step] = result
        if tool:
            self._tools[step] = tool

    def get(self, step: int) -> StepResult | None:
        """The full result of ``step``, or ``None`` if it has none (yet)."""
        return self._results.get(step)

    @property
    def results(self) -> Mapping[int, StepResult]:
        """A read-only view of every recorded result, for reference resolution."""
        return MappingProxyType(self._results)

    def __contains__(self, step: object) -> bool:
        return step in self._results

    def __len__(self) -> int:
        return len(self._results)

    def __iter__(self) -> Iterator[int]:
        return iter(sorted(self._results))

    def projection(
        self, step: int, *, max_items: int = PROJECTION_ITEMS, max_chars: int = PROJECTION_CHARS
    ) -> dict[str, Any]:
        """What the planner sees of ``step``: explicitly truncated, JSON-serialisable."""
        if max_items < 0 or max_chars < 1:
            raise ValueError("a projection shows at least 0 items and 1 character per string")
        result = self._results.get(step)
        if result is None:
            raise KeyError(f"step {step} has no result in this turn's scratchpad")
        cutter = _Cutter(max_items, max_chars)
        total = len(result.items)
        shown = min(total, max_items)
        projected: dict[str, Any] = {"step": step}
        if step in self._tools:
            projected["tool"] = self._tools[step]
        projected |= {
            "outcome": result.outcome,
            "summary": cutter.text(result.summary),
            "items": [cutter.value(item, 1) for item in result.items[:shown]],
            "total_items": total,
            "shown_items": shown,
        }
        if result.value:
            projected["value"] = cutter.value(result.value, 1)
        if result.error is not None:
            projected["error"] = {
                "class": result.error.error_class,
                "code": cutter.text(result.error.code),
                "message": cutter.text(result.error.message),
            }
        if result.notices:
            projected["notices"] = [cutter.text(notice) for notice in result.notices[:max_items]]
            if len(result.notices) > max_items:
                projected["notices"].append(cutter.omitted(len(result.notices) - max_items, "notices"))
        if result.files:
            projected["files"] = [
                {"path": cutter.text(file.path), "content_type": file.content_type, "size": file.size}
                for file in result.files[:max_items]
            ]
            if len(result.files) > max_items:
                projected["files"].append(cutter.omitted(len(result.files) - max_items, "files"))
        projected["cut_values"] = cutter.cut
        projected["truncated"] = shown < total or cutter.cut > 0
        return projected

    def projections(
        self, *, max_items: int = PROJECTION_ITEMS, max_chars: int = PROJECTION_CHARS
    ) -> list[dict[str, Any]]:
        """The projection of every recorded step, in step order."""
        return [self.projection(step, max_items=max_items, max_chars=max_chars) for step in self]

    def planner_view(self, *, max_chars: int) -> list[dict[str, Any]]:
        """Every step's projection, made smaller until its JSON fits ``max_chars`` (or as small as it gets).

        The planner cuts what still does not fit, with a marker of its own.
        """
        view: list[dict[str, Any]] = []
        for items, chars in PLANNER_VIEW_SIZES:
            view = self.projections(max_items=items, max_chars=chars)
            if len(json.dumps(view, ensure_ascii=False)) <= max_chars:
                break
        return view


def scratchpad_for_turn(turn: Turn) -> Scratchpad:
    """The results already recorded for ``turn`` and for the turn it resumes, scoped to the turn's owner.

    Recorded results were redacted of the turn's known secrets when stored.
    A step recorded on ``turn`` itself wins over the resumed turn's record.
    """
    turns = [turn.pk] if turn.resumed_from_id is None else [turn.pk, turn.resumed_from_id]
    records = StepRecord.objects.filter(owner_id=turn.owner_id, turn_id__in=turns).exclude(result={})
    pad = Scratchpad(turn_id=turn.pk)
    for record in sorted(records, key=lambda record: (record.index, record.turn_id != turn.pk)):
        if record.index not in pad:
            pad.put(record.index, result_from_json(record.result), tool=record.tool)
    return pad


class _Cutter:
    """Shortens values for one projection and counts every cut, so the projection can say so."""

    def __init__(self, max_items: int, max_chars: int) -> None:
        self.max_items = max_items
        self.max_chars = max_chars
        self.cut = 0

    def text(self, text: str) -> str:
        if len(text) <= self.max_chars:
            return text
        self.cut += 1
        return f"{text[: self.max_chars]}… [{len(text) - self.max_chars} more characters]"

    def omitted(self, count: int, what: str) -> str:
        self.cut += 1
        return f"… [{count} more {what}]"

    def value(self, value: Any, depth: int) -> Any:
        if isinstance(value, str):
            return self.text(value)
        if value is None or isinstance(value, bool | int):
            return value
        if isinstance(value, float):
            return value if math.isfinite(value) else str(value)
        if isinstance(value, Mapping | list | tuple | set | frozenset) and depth > MAX_PROJECTION_DEPTH:
            self.cut += 1
            return "… [nested value omitted]"
        if isinstance(value, Mapping):
            return {str(key): self.value(item, depth + 1) for key, item in value.items()}
        if isinstance(value, list | tuple | set | frozenset):
            sequence = list(value)
            shown = [self.value(item, depth + 1) for item in sequence[: self.max_items]]
            if len(sequence) > self.max_items:
                shown.append(self.omitted(len(sequence) - self.max_items, "items"))
            return shown
        if isinstance(value, bytes | bytearray):
            return f"<{len(value)} bytes>"
        if isinstance(value, dt.datetime | dt.date | dt.time):
            return value.isoformat()
        return self.text(str(value))
