"""Deterministic extraction: the values of requested fields in a document's text.

:func:`extract_document` reads one document's text and, for each requested
field, finds the value the document states — or states that it found none.
It calls no model; :func:`complete_with_model` may consult one afterwards, only
for the fields still missing, and only keeps values it can verify in the text.

The rules live next to the code that applies them:

* :mod:`apps.runtime.extraction.fields` — the request (:func:`field_specs`,
  :class:`FieldSpec`), the result (:class:`FieldValue`,
  :class:`DocumentExtraction`) and the bounds.
* :mod:`apps.runtime.extraction.lines` — where values come from (label/value
  lines, a label with its value on the next line, a label followed by a typed
  value, a due date in prose, simple text tables) and which labels answer
  which field, by the shared vocabulary and its lexicon
  (:mod:`apps.records.vocabulary`, ``apps/records/lexicon/fields.json``).
* :mod:`apps.runtime.extraction.letterhead` — the letterhead's company and a
  letter's date line.
* :mod:`apps.runtime.extraction.values` — what the document says about itself
  (decimal separator, date order, credit note, currency) and reading codes and
  days out of values.
* :mod:`apps.runtime.extraction.choice` — choosing among competing labels,
  never the first one (name before kind, :func:`amount_tier`, document values
  before line items), and reading amounts and text values.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from apps.records.amounts import infer_decimal_separator
from apps.runtime.extraction.choice import (
    TIER_OTHER_AMOUNT,
    TIER_PARTIAL_AMOUNT,
    TIER_PAYABLE_TOTAL,
    TIER_TOTAL,
    amount_tier,
    choose_value,
    read_amount,
    tax_from_rates,
    verified_model_value,
)
from apps.runtime.extraction.fields import (
    LETTERHEAD_LINES,
    MAX_BARE_LABEL_WORDS,
    MAX_CANDIDATES_SHOWN,
    MAX_FIELD_NAME_CHARS,
    MAX_FIELDS,
    MAX_LABEL_CHARS,
    MAX_LABEL_WORDS,
    MAX_VALUE_CHARS,
    RESERVED_KEYS,
    DocumentExtraction,
    FieldSpec,
    FieldValue,
    InvalidFields,
    MatchKind,
    Method,
    Scope,
    ValueType,
    field_specs,
)
from apps.runtime.extraction.letterhead import company_name
from apps.runtime.extraction.lines import DocumentLines, stated_pairs
from apps.runtime.extraction.values import document_context

logger = logging.getLogger(__name__)

ModelExtractor = Callable[[str, Sequence[str]], Mapping[str, str | None]]
"""``model(text, missing_fields) -> {field: value or None}``: an optional extraction model."""


def extract_document(text: str, specs: Sequence[FieldSpec], *, name: str) -> DocumentExtraction:
    """Find each requested field's value in ``text`` (see the module docstring); never invents one.

    ``name`` is how notices refer to the document (its file name). A field
    without a value is absent from ``values``; ``problems`` says why when the
    document had candidates (competing values, an unreadable amount).
    """
    lines = DocumentLines(text)
    context = document_context(text, lines.lines)
    pairs = stated_pairs(lines, specs, context.hint, context)

    values: dict[str, FieldValue] = {}
    problems: dict[str, str] = {}
    notices: list[str] = []
    for spec in specs:
        chosen, problem, chosen_notices = choose_value(spec, pairs, lines, context, name=name)
        if chosen is not None:
            values[spec.name] = chosen
        if problem is not None:
            problems[spec.name] = problem
        notices.extend(chosen_notices)
    net = next((values[spec.name] for spec in specs if spec.kind == "net_amount" and spec.name in values), None)
    total = next((values[spec.name] for spec in specs if spec.kind == "amount" and spec.name in values), None)
    for spec in specs:
        if spec.kind != "tax_amount" or spec.name in values:
            continue
        summed = tax_from_rates(spec, pairs, context, net=net, total=total, name=name)
        if summed is not None:
            values[spec.name], notice = summed
            problems.pop(spec.name, None)
            notices.append(notice)
    return DocumentExtraction(values=values, problems=problems, notices=tuple(notices))


# --- The optional model -----------------------------------------------------------------


def complete_with_model(
    text: str,
    specs: Sequence[FieldSpec],
    extraction: DocumentExtraction,
    model: ModelExtractor | None,
    *,
    name: str,
) -> DocumentExtraction:
    """Ask ``model`` for the fields ``extraction`` missed; keep only values the document states.

    Deterministic first: values already found are never replaced, a failing
    model (an exception, an answer that is not a mapping) keeps the
    deterministic result with a notice, and a proposed value is used only
    when it verifies — an amount must read as one amount that the document
    states, a text must occur in the document (ignoring case and spacing).
    """
    missing = [spec for spec in specs if spec.name not in extraction.values]
    if model is None or not missing:
        return extraction
    try:
        proposed = model(text, tuple(spec.name for spec in missing))
    except Exception as exc:  # noqa: BLE001 - any model failure keeps the deterministic result
        logger.warning("extraction model failed: %s", type(exc).__name__)
        proposed = None
    if not isinstance(proposed, Mapping):
        notice = f"{name}: the extraction model gave no usable answer; the values found without it are kept."
        return replace(extraction, notices=(*extraction.notices, notice))
    hint = infer_decimal_separator(text)
    values = dict(extraction.values)
    problems = dict(extraction.problems)
    notices = list(extraction.notices)
    for spec in missing:
        raw = proposed.get(spec.name)
        if raw is None:
            continue
        checked = verified_model_value(text, spec, raw, hint) if isinstance(raw, str) else None
        if checked is None:
            notices.append(
                f"{name}: the extraction model's value for '{spec.name}' was not used: the document does not state it."
            )
            continue
        values[spec.name] = checked
        problems.pop(spec.name, None)
        notices.append(
            f"{name}: '{spec.name}' was found by the extraction model and checked against the document text."
        )
    return DocumentExtraction(values=values, problems=problems, notices=tuple(notices))


__all__ = [
    "LETTERHEAD_LINES",
    "MAX_BARE_LABEL_WORDS",
    "MAX_CANDIDATES_SHOWN",
    "MAX_FIELDS",
    "MAX_FIELD_NAME_CHARS",
    "MAX_LABEL_CHARS",
    "MAX_LABEL_WORDS",
    "MAX_VALUE_CHARS",
    "RESERVED_KEYS",
    "TIER_OTHER_AMOUNT",
    "TIER_PARTIAL_AMOUNT",
    "TIER_PAYABLE_TOTAL",
    "TIER_TOTAL",
    "DocumentExtraction",
    "FieldSpec",
    "FieldValue",
    "InvalidFields",
    "MatchKind",
    "Method",
    "ModelExtractor",
    "Scope",
    "ValueType",
    "amount_tier",
    "company_name",
    "complete_with_model",
    "extract_document",
    "field_specs",
    "read_amount",
]
