"""The per-turn scratchpad: whole results kept, explicit projections for the planner."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal
from typing import Any

import pytest

from apps.runtime.executor import ProducedFile, StepError, StepResult
from apps.runtime.plans.api import MissingInput, resolve_step_args, validate_plan
from apps.runtime.scratchpad import (
    MAX_PROJECTION_DEPTH,
    PROJECTION_CHARS,
    PROJECTION_ITEMS,
    Scratchpad,
    ScratchpadError,
)
from tests.runtime.test_plans import quotes_catalog, spec_example


def many_quotes(count: int) -> StepResult:
    items = tuple({"path": f"~/Purchasing/q{n}.pdf", "name": f"q{n}.pdf", "size": n} for n in range(count))
    return StepResult(outcome="success", items=items, summary=f"{count} files")


def test_scratchpad_keeps_the_whole_result() -> None:
    pad = Scratchpad(turn_id=7)
    result = many_quotes(500)
    pad.put(1, result)
    assert pad.get(1) is result
    assert pad.get(2) is None
    assert 1 in pad and len(pad) == 1 and list(pad) == [1]


def test_a_step_result_is_recorded_once() -> None:
    pad = Scratchpad()
    pad.put(1, many_quotes(1))
    with pytest.raises(ScratchpadError, match="already has a result"):
        pad.put(1, StepResult(outcome="empty"))
    assert len(pad.get(1).items) == 1  # type: ignore[union-attr]


@pytest.mark.parametrize("step", [0, -1, True])
def test_steps_are_numbered_from_one(step: int) -> None:
    with pytest.raises(ScratchpadError):
        Scratchpad().put(step, many_quotes(1))


def test_results_view_cannot_be_written() -> None:
    pad = Scratchpad()
    pad.put(1, many_quotes(1))
    with pytest.raises(TypeError):
        pad.results[2] = many_quotes(1)  # type: ignore[index]


def test_large_collection_projection_says_how_much_it_shows() -> None:
    pad = Scratchpad()
    pad.put(1, many_quotes(500))
    projection = pad.projection(1, max_items=5)
    assert projection["truncated"] is True
    assert (projection["total_items"], projection["shown_items"], len(projection["items"])) == (500, 5, 5)
    assert projection["items"][0] == {"path": "~/Purchasing/q0.pdf", "name": "q0.pdf", "size": 0}
    assert (projection["step"], projection["outcome"], projection["summary"]) == (1, "success", "500 files")


def test_default_projection_uses_the_named_bounds() -> None:
    pad = Scratchpad()
    pad.put(1, StepResult(outcome="success", items=tuple({"text": "t" * 1000} for _ in range(100))))
    projection = pad.projection(1)
    assert projection["shown_items"] == PROJECTION_ITEMS
    assert projection["items"][0]["text"].startswith("t" * PROJECTION_CHARS + "… [")


def test_long_strings_are_cut_with_a_visible_marker() -> None:
    pad = Scratchpad()
    pad.put(1, StepResult(outcome="success", items=({"path": "a.pdf", "text": "x" * 1000},)))
    projection = pad.projection(1, max_chars=10)
    assert projection["items"] == [{"path": "a.pdf", "text": "xxxxxxxxxx… [990 more characters]"}]
    assert projection["truncated"] is True
    assert projection["cut_values"] == 1
    assert (projection["total_items"], projection["shown_items"]) == (1, 1)


def test_small_result_is_shown_whole_and_says_it_is_not_truncated() -> None:
    pad = Scratchpad()
    pad.put(1, many_quotes(3))
    projection = pad.projection(1)
    assert projection["truncated"] is False
    assert projection["cut_values"] == 0
    assert projection["items"] == [dict(item) for item in many_quotes(3).items]


def test_nested_lists_and_deep_values_are_cut_explicitly() -> None:
    deep: object = "leaf"
    for _ in range(MAX_PROJECTION_DEPTH + 2):
        deep = {"d": deep}
    pad = Scratchpad()
    pad.put(1, StepResult(outcome="success", items=({"rows": list(range(50)), "deep": deep},)))
    item = pad.projection(1, max_items=3)["items"][0]
    assert item["rows"] == [0, 1, 2, "… [47 more items]"]
    assert "… [nested value omitted]" in json.dumps(item, ensure_ascii=False)


def test_projection_is_json_serialisable_whatever_the_items_hold() -> None:
    pad = Scratchpad()
    item: dict[Any, Any] = {
        "date": dt.date(2026, 9, 15),
        "at": dt.datetime(2026, 9, 15, 10, 0, tzinfo=dt.UTC),
        "price": Decimal("12.50"),
        "raw": b"\x00\x01",
        "ratio": float("nan"),
        "tags": {"a"},
        3: "numeric key",
    }
    pad.put(1, StepResult(outcome="success", items=(item,)))
    projection = pad.projection(1)
    text = json.dumps(projection, allow_nan=False)
    shown = json.loads(text)["items"][0]
    assert shown["date"] == "2026-09-15"
    assert shown["price"] == "12.50"
    assert shown["raw"] == "<2 bytes>"
    assert shown["3"] == "numeric key"


def test_value_result_error_notices_and_files_are_projected() -> None:
    pad = Scratchpad()
    result = StepResult(
        outcome="partial",
        value={"path": "~/Purchasing/summary.xlsx", "rows": 2},
        error=StepError("recoverable", "timeout", "one quote could not be read: " + "z" * 500),
        files=(ProducedFile("Purchasing/summary.xlsx", "application/vnd.ms-excel", 4096),),
        notices=("one quote skipped",),
    )
    pad.put(4, result)
    projection = pad.projection(4, max_chars=40)
    json.dumps(projection)
    assert projection["value"] == {"path": "~/Purchasing/summary.xlsx", "rows": 2}
    assert projection["error"]["class"] == "recoverable"
    assert projection["error"]["message"].endswith("more characters]")
    assert projection["files"] == [
        {"path": "Purchasing/summary.xlsx", "content_type": "application/vnd.ms-excel", "size": 4096}
    ]
    assert projection["notices"] == ["one quote skipped"]
    assert (projection["total_items"], projection["shown_items"], projection["truncated"]) == (0, 0, True)


def test_empty_result_projection_states_the_absence() -> None:
    pad = Scratchpad()
    pad.put(1, StepResult(outcome="empty", summary="no PDF in ~/Purchasing"))
    projection = pad.projection(1)
    assert projection == {
        "step": 1,
        "outcome": "empty",
        "summary": "no PDF in ~/Purchasing",
        "items": [],
        "total_items": 0,
        "shown_items": 0,
        "cut_values": 0,
        "truncated": False,
    }


def test_projection_of_a_step_without_result_is_refused() -> None:
    with pytest.raises(KeyError):
        Scratchpad().projection(1)


def test_projection_bounds_must_make_sense() -> None:
    pad = Scratchpad()
    pad.put(1, many_quotes(1))
    with pytest.raises(ValueError):
        pad.projection(1, max_chars=0)


def test_projections_follow_step_order() -> None:
    pad = Scratchpad()
    pad.put(2, many_quotes(2))
    pad.put(1, many_quotes(1))
    assert [p["step"] for p in pad.projections()] == [1, 2]


def test_resolution_reads_the_whole_collection_from_the_scratchpad() -> None:
    catalog = quotes_catalog()
    plan = validate_plan(spec_example(), catalog)
    pad = Scratchpad()
    pad.put(1, many_quotes(500))
    assert pad.projection(1, max_items=5)["shown_items"] == 5
    resolved = resolve_step_args(plan, 2, pad.results, catalog)
    assert len(resolved.values["from_step"]) == 500
    pad.put(2, StepResult(outcome="empty"))
    with pytest.raises(MissingInput):
        resolve_step_args(plan, 3, pad.results, catalog)
