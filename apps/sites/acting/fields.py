"""Finding an observed form field again, to fill it.

Sign-in fills fields it observed. Like a click, the lookup checks the frame,
the document and identity before anything is typed: exactly one form with
the observed key (kind, structural fingerprint, name) and exactly one field
in it with the observed type, ``name``, label and ``autocomplete``. The check
only reads the page. Filling is the caller's: values never pass through
observation.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from playwright.sync_api import ElementHandle, Frame, Page
from playwright.sync_api import Error as PlaywrightError

from apps.sites.acting.click import FOUND_FACTS, Refused, check_document, failed_read, frame_at
from apps.sites.observation.limits import OBSERVATION_LIMITS
from apps.sites.observation.reader import page_script_handle
from apps.sites.observation.snapshot import Field, Form, ObservationFailed, PageAnswer

FieldLookupKind = Literal["found", "not_found", "changed", "ambiguous"]
_LOOKUP_KINDS: dict[str, FieldLookupKind] = {"changed": "changed", "ambiguous": "ambiguous"}


@dataclass(frozen=True)
class FieldLookup:
    """``found`` with the element (visible and editable now), or why not, from a closed set."""

    kind: FieldLookupKind
    reason: str = ""
    element: ElementHandle | None = None


def find_field(page: Page, form: Form, field: Field, *, deadline: float) -> FieldLookup:
    """The one element of ``field`` in ``form``, checked as a click's control is."""
    return find_fields(page, form, (field,), deadline=deadline)[-1]


def find_fields(page: Page, form: Form, fields: Sequence[Field], *, deadline: float) -> tuple[FieldLookup, ...]:
    """:func:`find_field` for each of ``fields`` in turn, each lookup checking the frame's document.

    The answer stops at the first lookup that is not ``found``.
    """
    try:
        frame = frame_at(page, form.frame_path)
    except Refused as refusal:
        return (_refused(refusal),)
    if len(fields) > 1:
        together = _find_together(frame, form, fields, deadline)
        if together is not None:
            return together
    lookups: list[FieldLookup] = []
    for field in fields:
        lookups.append(_find_in(frame, form, field, deadline))
        if lookups[-1].kind != "found":
            break
    return tuple(lookups)


def _wanted(form: Form, field: Field) -> dict[str, str]:
    return {
        "form": form.key,
        "type": field.type,
        "name": field.name,
        "label": field.label,
        "autocomplete": field.autocomplete,
    }


def _find_together(
    frame: Frame, form: Form, fields: Sequence[Field], deadline: float
) -> tuple[FieldLookup, ...] | None:
    """Every field found in one pass when each lookup is clean; None otherwise (look one by one)."""
    request = {
        "mode": "findFields",
        "document": form.document,
        "limits": OBSERVATION_LIMITS.for_page(),
        "fields": [_wanted(form, field) for field in fields],
    }
    try:
        handle = page_script_handle(frame, request, deadline)
        properties = handle.get_properties()
    except (ObservationFailed, PlaywrightError):
        return None
    elements = [
        properties[str(index)].as_element() if str(index) in properties else None for index in range(len(fields))
    ]
    if any(element is None for element in elements):
        return None
    return tuple(FieldLookup("found", element=element) for element in elements)


def _find_in(frame: Frame, form: Form, field: Field, deadline: float) -> FieldLookup:
    request = {
        "mode": "findField",
        "document": form.document,
        "limits": OBSERVATION_LIMITS.for_page(),
        "field": _wanted(form, field),
    }
    try:
        try:
            handle = page_script_handle(frame, request, deadline)
            clean = handle.as_element()
            if clean is not None:  # one form, one field, visible and editable, in the observed document
                return FieldLookup("found", element=clean)
            answer = PageAnswer(handle.evaluate(FOUND_FACTS, ["forms", "matches", "visible", "editable", "timeOrigin"]))
            check_document(answer, form.document)
            element = handle.get_property("element").as_element()
        except ObservationFailed as failure:
            raise failed_read(failure) from failure
        except PlaywrightError as error:
            raise Refused("changed", "document_replaced") from error
        _exactly_one(answer.count("forms"), "form_missing", "several_forms")
        _exactly_one(answer.count("matches"), "no_match", "several_matches")
        if element is None or not answer.flag("visible"):
            raise Refused("not_found", "hidden")
        if not answer.flag("editable"):
            raise Refused("not_found", "not_editable")
    except Refused as refusal:
        return _refused(refusal)
    return FieldLookup("found", element=element)


def _refused(refusal: Refused) -> FieldLookup:
    kind = refusal.outcome.kind
    lookup: FieldLookupKind = "changed" if kind == "changed" else "ambiguous" if kind == "ambiguous" else "not_found"
    return FieldLookup(lookup, refusal.outcome.reason)


def _exactly_one(count: int, missing: str, several: str) -> None:
    if count == 0:
        raise Refused("not_found", missing)
    if count > 1:
        raise Refused("ambiguous", several)
