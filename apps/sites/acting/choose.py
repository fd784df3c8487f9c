"""Choosing one option of an observed ``<select>``, then waiting for what follows.

A period or type chooser ("Year: 2026 ▾", "Show: Last 12 months") is a form
field. Before anything is chosen the field is found again as a sign-in's
fields are (:func:`apps.sites.acting.fields.find_field`: the same frame,
document, form and exactly one such field, visible and editable) and the
option must be one it showed, by its label. The choice is dispatched once;
what follows is awaited as a click's is (:mod:`apps.sites.acting.settle`): a
page that submits on change navigates or redraws in place, one that does
not stays as it was (``no_change``) and its form's button is the caller's
next step. An error after dispatch does not prove nothing happened
(``dispatch_error_effect_unknown``), and the choice is not sent again.
"""

from __future__ import annotations

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from apps.sites.acting.click import ClickKind, ClickOutcome, Refused, effect_unknown, frame_at, settled_outcome
from apps.sites.acting.fields import find_field
from apps.sites.acting.settle import Settling
from apps.sites.observation.limits import ACTIONABILITY_TIMEOUT
from apps.sites.observation.reader import remaining_ms
from apps.sites.observation.snapshot import Field, Form
from apps.sites.observation.waits_watch import watch_page


def choose_option(page: Page, form: Form, field: Field, option: str, *, deadline: float) -> ClickOutcome:
    """Choose the option labelled ``option`` of ``field`` (a select of ``form``) once, and wait."""
    if field.type != "select" or option not in field.options:
        return ClickOutcome("not_found", "no_such_option")
    watch = watch_page(page)
    try:
        frame = frame_at(page, form.frame_path)
    except Refused as refusal:
        return refusal.outcome
    settling = Settling(page, frame, watch, deadline, expect_in_place=True)
    lookup = find_field(page, form, field, deadline=deadline)
    if lookup.kind != "found" or lookup.element is None:
        settling.abandon()
        refused: ClickKind = (
            "changed" if lookup.kind == "changed" else "ambiguous" if lookup.kind == "ambiguous" else "not_found"
        )
        return ClickOutcome(refused, lookup.reason or lookup.kind)
    settling.restart_marks()
    timeout = max(1.0, min(remaining_ms(deadline), ACTIONABILITY_TIMEOUT.total_seconds() * 1000))
    try:
        lookup.element.select_option(label=option, timeout=timeout, no_wait_after=True)
    except PlaywrightError as error:
        settling.abandon()
        return effect_unknown(error)
    return settled_outcome(settling, watch)
