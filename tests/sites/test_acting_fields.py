"""Finding observed form fields again to fill them, in real Chromium."""

from __future__ import annotations

from typing import Any

import pytest

from apps.sites.acting.click import ClickApproval, click, deadline_in
from apps.sites.acting.fields import find_field
from apps.sites.observation.snapshot import Field, Form, Snapshot
from tests.sites.fixture_web import FixtureWeb
from tests.sites.test_observation_support import only, open_and_read

pytestmark = pytest.mark.browser


def _profile_form(snapshot: Snapshot) -> Form:
    (form,) = [form for form in snapshot.forms if form.name == "Profile details"]
    return form


def _field(form: Form, name: str) -> Field:
    (field,) = [field for field in form.fields if field.name == name]
    return field


def test_observed_fields_are_found_again_filled_and_submitted(fixture_web: FixtureWeb, browser_page: Any) -> None:
    site = fixture_web.site("observe-secrets")
    snapshot = open_and_read(browser_page, site.url("/"))
    site.forget()
    form = _profile_form(snapshot)
    for name, value in (("full_name", "Ada Lovelace"), ("password", "analytical-engine")):
        lookup = find_field(browser_page, form, _field(form, name), deadline=deadline_in(10))
        assert lookup.kind == "found" and lookup.element is not None
        lookup.element.fill(value)
    (save,) = [snapshot.controls[index] for index in form.controls]
    assert save.label == "Save"
    outcome = click(browser_page, save, approval=ClickApproval(save), deadline=deadline_in(15))
    assert (outcome.kind, outcome.effect) == ("dispatched", "navigated")
    (submission,) = site.submissions()
    assert submission["full_name"] == ["Ada Lovelace"] and submission["password"] == ["analytical-engine"]


def test_hidden_locked_and_changed_fields_are_not_handed_out(fixture_web: FixtureWeb, browser_page: Any) -> None:
    snapshot = open_and_read(browser_page, fixture_web.site("observe-secrets").url("/"))
    form = _profile_form(snapshot)
    deadline = deadline_in(10)
    assert find_field(browser_page, form, _field(form, "token"), deadline=deadline).reason == "hidden"
    assert find_field(browser_page, form, _field(form, "locked"), deadline=deadline).reason == "not_editable"
    browser_page.evaluate("() => { document.querySelector('label').firstChild.textContent = 'Nickname '; }")
    changed = find_field(browser_page, form, _field(form, "full_name"), deadline=deadline)
    assert (changed.kind, changed.reason, changed.element) == ("not_found", "no_match", None)
    assert only(snapshot, name="Save").form == snapshot.forms.index(form)
