"""Recognising visible records with the Frontier tier, where the deterministic reader finds none.

The reader (:mod:`apps.sites.collection.reading`) comes first: a page it reads
is never sent. A page where it finds no records at all, but whose visible
text shows record-like content (a date and an amount with its currency),
may be sent to the Frontier tier: the observed visible text within the
reading limit (the snapshot's ``page_text`` bound, which never holds field
values, editable text or hidden content) with the object sought and the
plan's fields. The model answers records as JSON.

The answer is checked, never trusted: every value must occur in the
observed text (spaces collapsed); dates and amounts must read through the
records layer (:func:`~apps.records.dates.reading.parse_date`,
:func:`~apps.records.amounts.parse_amount`); a value that does not is
dropped and counted. A record left without two values, one of them a
record's own (identifier, date, amount, period), is dropped. Values stay
the text observed. What remains is model-recognised: the values are on the
page, but which belong together is the model's claim, so those items are
marked unverified.

Only the Frontier tier recognises, when it is configured and
``METNOS_SITES_FRONTIER_ROUTES`` is not ``0`` (:func:`recogniser_from_settings`);
without it no model is asked. A failed or timed-out decision is not
replaced by another model's: the collection ends incomplete
(``recognition_failed``). Requests are counted in the recogniser's
``usage`` (and on the turn) when sent.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from apps.records.amounts import UnreadableAmount, find_amounts, parse_amount
from apps.records.dates.reading import UnreadableDate, find_dates, parse_date
from apps.runtime.tiers.client import ModelUsage
from apps.runtime.tiers.config import ModelTier, tier
from apps.sites.acting.route_choice import ask_json, frontier_routes_enabled
from apps.sites.collection.reading import MAX_CELL_CHARS, ReadRow, is_record

RecognitionKind = Literal["records", "no_decision", "failed"]
# Bounds of recognition (Metnos's choices; the spec bounds the text by the reading limit).
RECOGNITION_MAX_REQUESTS = 8  # per collection
RECOGNITION_MAX_RECORDS = 200  # per answer; more are dropped and counted
RECOGNITION_MAX_TOKENS = 4_000
DATE_FIELDS = frozenset({"issue_date", "due_date", "date", "period"})
AMOUNT_FIELDS = frozenset({"amount"})

_INSTRUCTIONS = (
    "You read the visible text of one page of a customer area and list the records it shows (bills, "
    "invoices, receipts...). For each record give only the fields listed, copying each value exactly as "
    "the text writes it; use null when the text does not show a field. Never invent, convert or complete "
    'a value. Answer {"records": [...]}; an empty list when the text shows no record.'
)


@dataclass(frozen=True)
class RecognitionQuestion:
    """What the model sees: the page's visible text (bounded), the object sought and the fields."""

    text: str
    truncated: bool
    object_words: tuple[str, ...]
    fields: tuple[str, ...]


@dataclass(frozen=True)
class RecognitionAnswer:
    """The model's records as given (checked by :func:`validate_records`); ``reason`` is a closed-set word."""

    kind: RecognitionKind
    records: tuple[dict[str, str], ...] = ()
    reason: str = ""


class RecordRecogniser(Protocol):
    def recognise(self, question: RecognitionQuestion, *, deadline: float) -> RecognitionAnswer: ...


class NoRecordRecogniser:
    """Frontier not configured (or disabled): nothing is recognised by a model."""

    usage: ModelUsage | None = None

    def recognise(self, question: RecognitionQuestion, *, deadline: float) -> RecognitionAnswer:
        return RecognitionAnswer("no_decision", reason="no_model_configured")


def _schema(fields: tuple[str, ...]) -> dict[str, Any]:
    record = {
        "type": "object",
        "properties": {name: {"type": ["string", "null"]} for name in fields},
        "required": list(fields),
        "additionalProperties": False,
    }
    return {
        "type": "object",
        "properties": {"records": {"type": "array", "items": record}},
        "required": ["records"],
        "additionalProperties": False,
    }


class FrontierRecordRecogniser:
    """Asks the Frontier tier once per question; ``usage`` counts the requests sent."""

    def __init__(self, model_tier: ModelTier) -> None:
        self.tier = model_tier
        self.usage = ModelUsage()

    def recognise(self, question: RecognitionQuestion, *, deadline: float) -> RecognitionAnswer:
        if deadline <= time.monotonic():
            return RecognitionAnswer("failed", reason="no_time_left")
        sought = ", ".join(question.object_words[:4]) or "records"
        cut = " (the text was cut at the reading limit)" if question.truncated else ""
        parsed, failure = ask_json(
            self.tier,
            self.usage,
            instructions=_INSTRUCTIONS,
            content=f"Records sought: {sought}.\nFields: {', '.join(question.fields)}.\n"
            f"Visible text of the page{cut}:\n{question.text}",
            schema=_schema(question.fields),
            schema_name="record_recognition",
            max_tokens=RECOGNITION_MAX_TOKENS,
            deadline=deadline,
        )
        if failure:
            return RecognitionAnswer("failed", reason=failure)
        raw = parsed.get("records") if isinstance(parsed, dict) else None
        if not isinstance(raw, list):
            return RecognitionAnswer("failed", reason="model_invalid_answer")
        records = tuple(
            {key: value for key, value in record.items() if isinstance(value, str)}
            for record in raw
            if isinstance(record, dict)
        )
        return RecognitionAnswer("records", records=records)


def recogniser_from_settings() -> RecordRecogniser:
    """The Frontier tier when configured and enabled; otherwise no model recognises records."""
    frontier = tier("frontier") if frontier_routes_enabled() else None
    return FrontierRecordRecogniser(frontier) if frontier is not None else NoRecordRecogniser()


def looks_like_records(text: str) -> bool:
    """Whether visible text shows record-like content: a readable date and an amount with its currency."""
    if not find_dates(text):
        return False
    return any(amount.currency for amount in find_amounts(text).amounts)


def text_digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", errors="replace")).hexdigest()


@dataclass(frozen=True)
class ValidatedRecords:
    rows: tuple[ReadRow, ...]
    dropped_values: int
    dropped_records: int


def _collapsed(text: str) -> str:
    return " ".join(text.split())


def reads_as_its_kind(key: str, value: str) -> bool:
    """A date field's value reads as a date and an amount field's as an amount (other fields: any text)."""
    try:
        if key in DATE_FIELDS:
            parse_date(value)
        elif key in AMOUNT_FIELDS:
            parse_amount(value)
    except (UnreadableDate, UnreadableAmount):
        return False
    return True


def _checked_value(key: str, value: str, observed: str) -> str | None:
    """``value`` as observed when it occurs in the text and reads as its kind, else None."""
    shown = _collapsed(value)
    if not shown or len(shown) > MAX_CELL_CHARS or shown not in observed:
        return None
    return shown if reads_as_its_kind(key, shown) else None


def validate_records(records: tuple[dict[str, str], ...], *, text: str, fields: tuple[str, ...]) -> ValidatedRecords:
    """Keep only values found in ``text`` (dates and amounts readable), and only records left whole."""
    observed = _collapsed(text)
    rows: list[ReadRow] = []
    dropped_values = 0
    dropped_records = max(0, len(records) - RECOGNITION_MAX_RECORDS)
    for record in records[:RECOGNITION_MAX_RECORDS]:
        values: dict[str, str | None] = {}
        for key, value in record.items():
            if key not in fields or not value.strip():
                continue
            kept = _checked_value(key, value, observed)
            if kept is None:
                dropped_values += 1
            else:
                values[key] = kept
        if not is_record(values):
            dropped_records += 1
            continue
        # The cells in the order the page shows them, so a control's row can be matched to the record.
        cells = tuple(sorted({value for value in values.values() if value}, key=observed.find))
        rows.append(ReadRow(values, cells))
    return ValidatedRecords(tuple(rows), dropped_values, dropped_records)


def recognition_fields(item_fields: tuple[tuple[str, ...], ...]) -> tuple[str, ...]:
    """The fields asked of the model: the item's number and every alternative the plan needs."""
    return tuple(dict.fromkeys(("identifier_number", *(name for options in item_fields for name in options))))
