"""Delivering what a collection observed: merged rows, filters, notices, an honest outcome.

Rows become items through the records layer only: a list row and its
detail view merge through the observed link (``merge_list_and_detail``),
then rows read on different pages merge when they show the same identifier
(``merge_rows``); possible duplicates stay separate and are stated. Period
filters apply to the collected items, never to routes: an item without a
readable date is reported, not silently kept or dropped.

Category constraints ("all gas bills") and the payment status asked for
("unpaid invoices") apply to every item together with the period, and only
where an observed field decides them: a type, service or description field
naming the category, the item's status. An item that names another
category or status is left out and counted; an item no observed field
decides is kept, and a notice says that the constraint could not be
checked for it. A constraint is never said to be applied when nothing
decided it.

The outcome says what happened. Data already observed is delivered even
when an obstacle or a bound interrupted the search (``partial``), with a
notice that completeness is unverified and which bound was met; a stop with
no data is ``failed``. A total a list states, matched by the rows of that
list's own pages, is the only evidence of completeness
(:mod:`apps.sites.collection.completeness`); recognising the request, or
verifying the rows written later, is not.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from apps.records.dates.periods import date_value_from_cell, filter_rows_by_period, period_inclusion
from apps.records.dates.reading import UnreadableDate
from apps.records.identity.links import merge_list_and_detail
from apps.records.identity.results import MergeResult
from apps.records.identity.rows import merge_rows
from apps.records.objects import kinds_apart, normalised, object_kinds, object_mentions
from apps.records.rows import CellValue, Source
from apps.records.scope import CATEGORY_WORDS, PeriodConstraint
from apps.records.vocabulary import FIELD_KINDS, normalise_label
from apps.runtime.executor import ErrorClass, Outcome, StepError, StepResult
from apps.sites.collection.budget import CollectionLedger
from apps.sites.collection.completeness import IDENTIFIER_FIELDS, STOP_WORDS, collection_completeness
from apps.sites.collection.findings import Findings
from apps.sites.collection.items import DESCRIPTION
from apps.sites.collection.read_rows import LISTED_AS
from apps.sites.collection.scope import CollectionPlan

OWN_DATE_FIELDS = ("issue_date", "date", "period")
MAX_DUPLICATES_STATED = 5
RECOGNISED_NOTE = "recognised by the Frontier model in the page text; unverified"
_PERMANENT = frozenset({"navigation_refused"})
# Headings of fields that can say an item's category: its type, service, supply or description.
CATEGORY_HEADINGS = frozenset(
    {"type", "service", "category", "utility", "supply", "commodity", "product", "description", "tipo",
     "tipologia", "servizio", "categoria", "fornitura", "utenza", "prodotto", "descrizione", "offerta"}
)  # fmt: skip
# Values of a status field, Italian and English; "not paid" is read before the "paid" it contains.
_UNPAID_VALUE = re.compile(
    r"\b(?:unpaid|not\s+paid|to\s+pay|outstanding|overdue|due|open|non\s+pagat[aeio]|da\s+pagare|scadut[aeio]"
    r"|insolut[aeio]|in\s+scadenza|aperta)\b"
)
_PAID_VALUE = re.compile(r"\b(?:paid|settled|pagat[aeio]|saldat[aeio]|addebitat[aeio])\b")
_WORD = re.compile(r"\w+")
_NOT_FIELDS = frozenset({*FIELD_KINDS, "note", "path"})
# Text that describes an item without saying what it is (collection/items.py): it names no kind.
_NOT_KIND_FIELDS = frozenset({*_NOT_FIELDS, DESCRIPTION})


def _combined_sources(findings: Findings) -> tuple[list[Source], dict[tuple[str, int], str]]:
    """List sources completed by their linked details; notes where a list value differed from its detail."""
    sources: list[Source] = []
    notes: dict[tuple[str, int], str] = {}
    for source in findings.sources:
        links = findings.links.get(source.id) or []
        if not links:
            sources.append(source)
            continue
        details = [findings.details[link.detail_source_id] for link in links]
        merged = merge_list_and_detail(source, details, links, identifier_fields=IDENTIFIER_FIELDS)
        for index, row in enumerate(merged.rows):
            if "the list showed" in row.note:
                notes[(source.id, index)] = row.note
        sources.append(Source(source.id, tuple(row.values for row in merged.rows), source.page, source.truncated))
    return sources, notes


def own_date_field(row: Mapping[str, Any]) -> str:
    """The field that dates an item when the request names none: its issue date, date or period."""
    return next((name for name in OWN_DATE_FIELDS if row.get(name)), OWN_DATE_FIELDS[0])


# A period stated for the item's date ("dated 2026", "issued in 2026") is read on whichever date the row
# shows as its own when it does not label one as issued; a due date's period stays on the due date.
_OWN_DATE_ALIASES = frozenset({"issue_date", "date"})


def period_field(row: Mapping[str, Any], constraint: PeriodConstraint) -> str:
    """The field of ``row`` that ``constraint`` is read on."""
    if constraint.field and (constraint.field not in _OWN_DATE_ALIASES or row.get(constraint.field)):
        return constraint.field
    return own_date_field(row)


def outside_requested_periods(row: Mapping[str, Any], periods: tuple[PeriodConstraint, ...]) -> bool:
    """Whether ``row``'s date is readable and lies wholly outside one of the request's periods.

    Such an item will not be delivered, so nothing is saved for it; an
    unreadable or straddling date decides nothing here.
    """
    for constraint in periods:
        try:
            value = date_value_from_cell(row.get(period_field(row, constraint)))
        except UnreadableDate:
            continue
        if period_inclusion(value, constraint.period) == "outside":
            return True
    return False


Item = dict[str, CellValue]


def outside_request(row: Mapping[str, Any], plan: CollectionPlan) -> str:
    """What already places ``row`` outside the request by its own fields: ``period``, ``constraint`` or "".

    Such an item will not be delivered, so nothing is saved for it (what a row is as listed, an order,
    is left to delivery: its page may show its invoice). A category or
    payment status counts only when a field of the row says one; silence decides nothing.
    """
    if outside_requested_periods(row, plan.scope.period_filters):
        return "period"
    item = dict(row)
    if plan.scope.object and _kinds_apart_from_all(item, plan.scope.kinds, listed=False):
        return "constraint"
    for wanted, decide in ((plan.scope.categories, _row_categories), (plan.statuses, _row_status)):
        if wanted:
            _, said = decide(item)
            if said and not said & set(wanted):
                return "constraint"
    return ""


def _apply_period(rows: list[Item], constraint: PeriodConstraint) -> tuple[list[Item], list[str]]:
    """Rows inside the period, and the sentences about the rows left out or uncertain."""
    groups: dict[str, list[dict[str, CellValue]]] = {}
    for row in rows:
        groups.setdefault(period_field(row, constraint), []).append(row)
    kept_ids: set[int] = set()
    notices: list[str] = []
    outside = 0
    for field, group in groups.items():
        result = filter_rows_by_period(group, field=field, period=constraint.period)
        kept_ids.update(id(row) for row in result.kept)
        notices.extend(result.notices())
        outside += len(result.outside)
    if outside:
        notices.append(f"{outside} item(s) outside {constraint.period.label} were left out.")
    return [row for row in rows if id(row) in kept_ids], notices


def _duplicate_sentences(merged: MergeResult) -> list[str]:
    sentences = []
    for duplicate in merged.possible_duplicates[:MAX_DUPLICATES_STATED]:
        first = merged.observation(duplicate.a).get("identifier_number") or duplicate.a[0]
        second = merged.observation(duplicate.b).get("identifier_number") or duplicate.b[0]
        sentences.append(f"Possible duplicate kept separate: {first} and {second} ({duplicate.reason}).")
    return sentences


def deliver(findings: Findings, plan: CollectionPlan, *, ledger: CollectionLedger, origin: str) -> StepResult:
    """The step's result for everything observed (see the module docstring for the contract)."""
    sources, link_notes = _combined_sources(findings)
    merged = merge_rows(sources, identifier_fields=IDENTIFIER_FIELDS, wanted_fields=plan.item_fields)
    rows: list[dict[str, CellValue]] = []
    for merged_row in merged.rows:
        values = dict(merged_row.values)
        notes = [merged_row.note] if merged_row.note else []
        notes.extend(link_notes[origin_] for origin_ in merged_row.origins if origin_ in link_notes)
        if any(source_id in findings.recognised for source_id, _ in merged_row.origins):
            notes.append(RECOGNISED_NOTE)
        values["note"] = "; ".join(notes) or None
        rows.append(values)
    notices: list[str] = [*plan.scope.notices, *plan.status_notices]
    if merged.merged_count or merged.possible_duplicates or merged.unmerged_links:
        notices.append(merged.message() + ".")
    notices.extend(_duplicate_sentences(merged))
    for constraint in plan.scope.period_filters:
        rows, period_notices = _apply_period(rows, constraint)
        notices.extend(period_notices)
    rows = _apply_item_constraints(rows, plan, notices)
    _attach_documents(rows, findings, notices)
    notices.extend(findings.left_unread)
    notices.extend(_recognition_sentences(findings, rows))
    completeness = collection_completeness(findings, plan, ledger.budget, sources)
    if completeness.notice:
        notices.append(completeness.notice)
    items: tuple[Mapping[str, Any], ...] = tuple(rows)
    # The step shows the cloud requests it sent (the red $); the turn counts them too.
    value = {"cloud_requests": findings.cloud_requests} if findings.cloud_requests else {}
    cloud = f", {findings.cloud_requests} cloud request(s)" if findings.cloud_requests else ""
    summary = (
        f"Collected {len(items)} item(s) from {origin}: {findings.pages_read} page read(s), "
        f"{ledger.spent_actions} action(s){cloud}."
    )
    stop = findings.stop
    if stop is not None and not items:
        error_class: ErrorClass = "permanent" if stop.reason in _PERMANENT else "recoverable"
        message = STOP_WORDS.get(stop.reason) or f"the collection stopped at its {stop.reason.replace('_', ' ')} bound"
        return StepResult(
            outcome="failed",
            error=StepError(error_class, f"collection_{stop.reason}", f"Nothing was collected: {message}."),
            notices=tuple(notices),
            summary=f"Nothing was collected from {origin}{cloud}.",
            value=value,
        )
    incomplete = (
        stop is not None
        or findings.left_unread
        or findings.limits_met
        or findings.document_problems
        or completeness.total_short
    )
    if not items:
        empty = f"No matching items were found on {origin}{cloud}."
        return StepResult(outcome="empty", notices=tuple(notices), summary=empty, value=value)
    outcome: Outcome = "partial" if incomplete else "success"
    return StepResult(outcome=outcome, items=items, notices=tuple(notices), summary=summary, value=value)


def _recognition_sentences(findings: Findings, rows: list[dict[str, CellValue]]) -> list[str]:
    sentences = []
    recognised = sum(1 for row in rows if RECOGNISED_NOTE in str(row.get("note") or ""))
    if recognised:
        sentences.append(
            f"{recognised} item(s) were recognised by the Frontier model (a cloud model) in the text of the page "
            "and are unverified: their values appear on the page, but which values belong together is the "
            "model's reading."
        )
    if findings.recognition_dropped:
        sentences.append(
            f"{findings.recognition_dropped} value(s) the model gave were not in the page text, or did not read "
            "as dates or amounts, and were dropped."
        )
    return sentences


def _attach_documents(rows: list[dict[str, CellValue]], findings: Findings, notices: list[str]) -> None:
    by_identifier = {document.identifier: document for document in findings.documents}
    for row in rows:
        document = by_identifier.get(str(row.get("identifier_number") or ""))
        if document is not None:
            row["path"] = document.path
    if findings.documents:
        ocr = [document.path for document in findings.documents if document.read_outcome == "needs_ocr"]
        notices.append(f"{len(findings.documents)} document(s) saved.")
        if ocr:
            notices.append(f"{len(ocr)} saved document(s) have no text and need optical character recognition.")
    for problem in findings.document_problems:
        notices.append(f"The document of {problem.identifier or 'an item'} was not saved ({problem.reason}).")


def _categories_named(text: str) -> set[str]:
    return {CATEGORY_WORDS[word] for word in _WORD.findall(normalise_label(text)) if word in CATEGORY_WORDS}


def _row_categories(row: Item) -> tuple[bool, set[str]]:
    """Whether ``row`` has a field that can say its category, and the categories its values name."""
    fields = [
        key
        for key in row
        if key not in _NOT_FIELDS and CATEGORY_HEADINGS.intersection(_WORD.findall(normalise_label(key)))
    ]
    named: set[str] = set()
    for key in fields:
        named |= _categories_named(str(row.get(key) or ""))
    return bool(fields), named


def _row_status(row: Item) -> tuple[bool, set[str]]:
    """Whether ``row`` has a status field, and the payment status its value says (none when it says both)."""
    if "status" not in row:
        return False, set()
    value = " ".join(str(row.get("status") or "").casefold().split())
    said = {"unpaid"} if _UNPAID_VALUE.search(value) else set()
    if _PAID_VALUE.search(_UNPAID_VALUE.sub(" ", value)):
        said.add("paid")
    return True, said if len(said) == 1 else set()


def _apply_constraint(
    rows: list[Item], wanted: tuple[str, ...], decide: Callable[[Item], tuple[bool, set[str]]], what: str
) -> tuple[list[Item], list[str]]:
    """Rows the observed fields do not place outside ``wanted``, and sentences saying what was decided how."""
    kept: list[Item] = []
    others: set[str] = set()
    left_out = unchecked = 0
    any_field = False
    for row in rows:
        has_field, said = decide(row)
        any_field = any_field or has_field
        if said and not said & set(wanted):
            left_out += 1
            others |= said
            continue
        unchecked += not said
        kept.append(row)
    asked = " or ".join(wanted)
    if not any_field and rows:
        return kept, [
            f"The request asks for {asked} items, but no field read on the website says an item's {what}: "
            f"that constraint was not applied, and the {len(rows)} item(s) are kept unchecked."
        ]
    notices = []
    if left_out:
        notices.append(f"{left_out} item(s) whose {what} is {' or '.join(sorted(others))} were left out.")
    if unchecked:
        notices.append(f"{unchecked} item(s) show no {what} in their fields; they are kept, unchecked for {asked}.")
    elif kept:
        notices.append(f"Every item kept shows {asked} as its {what}.")
    return kept, notices


def _named_kinds(row: Item, *, listed: bool) -> set[str]:
    """The kinds a row's own words name (with ``listed``, also what its list says it is: an order)."""
    named: set[str] = set()
    for key, value in row.items():
        if key in _NOT_KIND_FIELDS or key in IDENTIFIER_FIELDS or not isinstance(value, str):
            continue
        if key == LISTED_AS and not listed:
            continue
        named |= {mention.kind for mention in object_mentions(value)}
    return named


def _kinds_apart(named: set[str], wanted: str) -> set[str]:
    """The kinds among ``named`` that must stay apart from ``wanted`` ("Nota di credito" for invoices), when
    none compatible with it is named; empty when the words decide nothing."""
    apart = {kind for kind in named if kinds_apart(wanted, kind)}
    compatible = named - apart - {"document"}
    return apart if apart and not compatible - {wanted} and wanted not in named else set()


def _kinds_apart_from_all(row: Item, wanted: Sequence[str], *, listed: bool = True) -> set[str]:
    """The kinds a row names that keep it apart from every kind asked for ("bills and letters": a receipt
    is neither); empty when it may be one of them."""
    named = _named_kinds(row, listed=listed)
    apart: set[str] = set()
    for kind in wanted:
        found = _kinds_apart(named, kind)
        if not found:
            return set()
        apart |= found
    return apart


def _kind_names(kinds: Sequence[str]) -> str:
    """The kinds as a reader sees them: "credit note or invoice"."""
    return " or ".join(kind.replace("_", " ") for kind in kinds)


def _attribute_keys(rows: list[Item]) -> list[str]:
    """The fields of ``rows`` that may say what an item is or is of (not its number, notes or free text)."""
    return sorted({key for row in rows for key in row} - _NOT_KIND_FIELDS - set(IDENTIFIER_FIELDS))


def _apply_kind(rows: list[Item], wanted: Sequence[str], notices: list[str]) -> list[Item]:
    """Rows that are not a kind apart from the ones asked for: a credit note is not the invoice it cites."""
    kept: list[Item] = []
    left_out: set[str] = set()
    count = 0
    for row in rows:
        apart = _kinds_apart_from_all(row, wanted)
        if apart:
            count += 1
            left_out |= apart
            continue
        kept.append(row)
    if count:
        notices.append(f"{count} item(s) that are a {_kind_names(sorted(left_out))}, not a {_kind_names(wanted)}, "
                       "were left out.")  # fmt: skip
    return kept


def _generic_only(value: CellValue, wanted: Sequence[str]) -> bool | None:
    """True when ``value`` names only generic kinds ("Documento di sintesi"), False when it names a kind
    asked for ("Estratto conto"), None when it names neither."""
    if not isinstance(value, str):
        return None
    named = {mention.kind for mention in object_mentions(value)}
    if named & set(wanted):
        return False
    kinds = object_kinds()
    return True if named and all(kinds[kind].generic for kind in named) else None


def _apply_type_field(rows: list[Item], wanted: Sequence[str], notices: list[str]) -> list[Item]:
    """Where one field names the kind asked for in some rows ("Tipo: Estratto conto") and only a generic
    kind in others ("Documento fiscale", "Documento di sintesi"), those others are another document of
    the list, not one of the kind asked for, and are left out. A request for documents leaves all."""
    kinds = object_kinds()
    if not wanted or any(kinds[kind].generic for kind in wanted if kind in kinds):
        return rows
    for key in _attribute_keys(rows):
        verdicts = [_generic_only(row.get(key), wanted) for row in rows]
        if False in verdicts and True in verdicts:
            others = sorted({str(row[key]) for row, verdict in zip(rows, verdicts, strict=True) if verdict})
            notices.append(f"{verdicts.count(True)} item(s) whose {key} says another document ({', '.join(others)}), "
                           f"not a {_kind_names(wanted)}, were left out.")  # fmt: skip
            return [row for row, verdict in zip(rows, verdicts, strict=True) if not verdict]
    return rows


def _apply_item_constraints(rows: list[Item], plan: CollectionPlan, notices: list[str]) -> list[Item]:
    """The request's object, category and payment-status constraints, applied where an observed field decides."""
    if plan.scope.object:
        rows = _apply_kind(rows, plan.scope.kinds, notices)
        rows = _apply_type_field(rows, plan.scope.kinds, notices)
    if plan.scope.categories:
        rows, sentences = _apply_constraint(rows, plan.scope.categories, _row_categories, "category")
        notices.extend(sentences)
    if plan.statuses:
        rows, sentences = _apply_constraint(rows, plan.statuses, _row_status, "payment status")
        notices.extend(sentences)
    if plan.qualifier:
        rows = _apply_qualifier(rows, plan.qualifier, notices)
    return rows


def _without_codes(text: str) -> str:
    """``text`` without its words holding a digit: "Online Saver IE12 KEST 9310" reads "Online Saver KEST"."""
    return " ".join(word for word in text.split() if not any(char.isdigit() for char in word))


def _attribute_words(value: CellValue) -> str:
    """An attribute's words without its codes, normalised: "Current Account IE64 KEST" reads "current account kest"."""
    return _without_codes(normalised(str(value)))


def _qualifying_field(rows: list[Item], said: re.Pattern[str]) -> str:
    """The one attribute field that tells the rows apart by the qualifier: every row fills it, none of its
    values names a kind of item, and some values say the qualifier while others do not ("Account":
    "Current Account ..." and "Online Saver ..."). "" when no field, or more than one, does."""
    found = []
    for key in _attribute_keys(rows):
        values = [row.get(key) for row in rows]
        if not all(isinstance(value, str) and value.strip() for value in values):
            continue
        if any(object_mentions(str(value)) for value in values):
            continue  # a title or type ("Supplemental Tax Bill") says what the item is, not what it is of
        saying = {bool(said.search(_attribute_words(value))) for value in values}
        if saying == {True, False}:
            found.append(key)
    return found[0] if len(found) == 1 else ""


def _apply_qualifier(rows: list[Item], qualifier: str, notices: list[str]) -> list[Item]:
    """The words qualifying the object ("my current account statements") as a filter, where one attribute
    of the rows decides it (see :func:`_qualifying_field`): the rows whose attribute does not say it are
    of another thing (a savings account) and are left out. When no row says it, or several fields
    could decide, nothing is left out: the whole list may be of it."""
    said = re.compile(r"(?<!\w)" + re.escape(normalised(qualifier)) + r"(?!\w)")
    key = _qualifying_field(rows, said) if len(rows) > 1 else ""
    if not key:
        return rows
    kept, others = [], set()
    for row in rows:
        if said.search(_attribute_words(row[key])):
            kept.append(row)
        else:
            others.add(_without_codes(str(row[key])))
    notices.append(
        f"{len(rows) - len(kept)} item(s) whose {key} is not {qualifier!r} ({', '.join(sorted(others))}) were left out."
    )
    return kept
