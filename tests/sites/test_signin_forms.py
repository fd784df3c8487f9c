"""Which observed form signs in, and where a one-time code goes — read from real pages in Chromium."""

from __future__ import annotations

from typing import Any

import pytest

from apps.sites.observation.reader import observe
from apps.sites.signin.forms import find_code_target, find_login_form
from tests.sites.fixture_web import FixtureWeb

pytestmark = pytest.mark.browser


def _observe(page: Any, fixture_web: FixtureWeb, name: str) -> Any:
    page.goto(fixture_web.site("signin-forms").url(name))
    return observe(page)


def test_the_login_form_is_chosen_and_the_newsletter_form_beside_it_is_not(
    browser_page: Any, fixture_web: FixtureWeb
) -> None:
    snapshot = _observe(browser_page, fixture_web, "plain.html")
    verdict = find_login_form(snapshot)
    assert verdict.reason == "found" and verdict.found is not None
    assert verdict.found.kind == "combined"
    form = snapshot.forms[verdict.found.form]
    assert verdict.found.password is not None and form.fields[verdict.found.password].type == "password"
    assert verdict.found.identifier is not None and form.fields[verdict.found.identifier].type == "email"


def test_a_sign_in_link_elsewhere_does_not_make_a_newsletter_form_a_login_form(
    browser_page: Any, fixture_web: FixtureWeb
) -> None:
    assert find_login_form(_observe(browser_page, fixture_web, "newsletter.html")).reason == "none"


def test_two_step_form_tells_the_email_step_from_the_password_step(browser_page: Any, fixture_web: FixtureWeb) -> None:
    first = find_login_form(_observe(browser_page, fixture_web, "two-step.html"))
    assert first.found is not None and first.found.kind == "identifier_step"
    browser_page.click("#next")
    browser_page.wait_for_selector("input[type=password]")
    second = find_login_form(observe(browser_page))
    assert second.found is not None and second.found.kind == "password_step"


def test_a_registration_form_is_not_a_way_to_sign_in(browser_page: Any, fixture_web: FixtureWeb) -> None:
    assert find_login_form(_observe(browser_page, fixture_web, "register.html")).reason == "none"


def test_two_login_forms_are_ambiguous(browser_page: Any, fixture_web: FixtureWeb) -> None:
    verdict = find_login_form(_observe(browser_page, fixture_web, "two-forms.html"))
    assert verdict.reason == "ambiguous" and verdict.found is None


def test_a_code_field_with_verification_evidence_takes_the_code(browser_page: Any, fixture_web: FixtureWeb) -> None:
    snapshot = _observe(browser_page, fixture_web, "otp-single.html")
    prose = [browser_page.inner_text("form")]
    verdict = find_code_target(snapshot, form_text=prose)
    assert verdict.reason == "found" and verdict.target is not None and not verdict.target.split
    form = snapshot.forms[verdict.target.form]
    assert form.fields[verdict.target.fields[0]].label == "Codice"


def test_six_single_character_boxes_are_one_split_code(browser_page: Any, fixture_web: FixtureWeb) -> None:
    snapshot = _observe(browser_page, fixture_web, "otp-boxes.html")
    verdict = find_code_target(snapshot, form_text=[browser_page.inner_text("form")])
    assert verdict.target is not None and verdict.target.split and len(verdict.target.fields) == 6


def test_a_field_named_code_or_token_alone_is_not_an_otp(browser_page: Any, fixture_web: FixtureWeb) -> None:
    snapshot = _observe(browser_page, fixture_web, "code-not-otp.html")
    assert find_code_target(snapshot, form_text=[browser_page.inner_text("form")]).reason == "none"


def test_two_candidate_code_fields_are_ambiguous(browser_page: Any, fixture_web: FixtureWeb) -> None:
    snapshot = _observe(browser_page, fixture_web, "otp-two-fields.html")
    assert find_code_target(snapshot, form_text=[browser_page.inner_text("form")]).reason == "ambiguous"
