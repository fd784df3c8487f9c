"""Finding the way in from page signals (spec: Signing in to a website), on real pages in Chromium."""

from __future__ import annotations

from typing import Any

import pytest

from apps.sites.observation.reader import observe
from apps.sites.signin.entry import choose_entry
from tests.sites.fixture_web import FixtureWeb

pytestmark = pytest.mark.browser


def _choice(page: Any, fixture_web: FixtureWeb, name: str) -> tuple[Any, Any]:
    page.goto(fixture_web.site("signin-entry").url(name))
    snapshot = observe(page)
    return snapshot, choose_entry(snapshot.controls)


@pytest.mark.parametrize(
    ("page_name", "label"), [("generic-verb.html", "Area clienti"), ("generic-verb-en.html", "Customer area")]
)
def test_a_generic_verb_does_not_hide_the_control_the_evidence_designates(
    browser_page: Any, fixture_web: FixtureWeb, page_name: str, label: str
) -> None:
    snapshot, choice = _choice(browser_page, fixture_web, page_name)
    assert choice.kind == "chosen", choice
    assert choice.control is not None and snapshot.controls[choice.control].label == label


def test_copies_of_one_link_are_one_way_in(browser_page: Any, fixture_web: FixtureWeb) -> None:
    snapshot, choice = _choice(browser_page, fixture_web, "duplicates.html")
    assert choice.kind == "chosen" and choice.tied == 2
    assert choice.control is not None and snapshot.controls[choice.control].label == "Log in"


def test_two_ways_in_to_different_places_are_ambiguous(browser_page: Any, fixture_web: FixtureWeb) -> None:
    _, choice = _choice(browser_page, fixture_web, "two-entries.html")
    assert choice.kind == "ambiguous" and choice.control is None


def test_no_signal_chooses_nothing(browser_page: Any, fixture_web: FixtureWeb) -> None:
    _, choice = _choice(browser_page, fixture_web, "no-signal.html")
    assert choice.kind == "none"


@pytest.mark.parametrize(
    ("page_name", "label"),
    [
        ("decoys.html", "Il mio account"),  # beside webmail, business, partner, registration and guest payment
        ("brand.html", "MySolaria"),  # a brand name on the account's prefix, beside "Area Business"
        ("authentication.html", "Authentication"),  # one entry among forty demonstration links
        ("webmail-address.html", "Sign in"),  # "Log in" leads to the webmail host: another service's
    ],
)
def test_the_accounts_entry_is_told_apart_from_other_services_on_the_website(
    browser_page: Any, fixture_web: FixtureWeb, page_name: str, label: str
) -> None:
    snapshot, choice = _choice(browser_page, fixture_web, page_name)
    assert choice.kind == "chosen", choice
    assert choice.control is not None and snapshot.controls[choice.control].label == label


def test_entries_of_other_services_alone_are_no_way_in(browser_page: Any, fixture_web: FixtureWeb) -> None:
    # A credential goes only to the sign-in of the account it was saved for.
    _, choice = _choice(browser_page, fixture_web, "decoys-only.html")
    assert choice.kind == "none"


def test_a_webmail_form_on_the_page_is_never_the_accounts_sign_in(browser_page: Any, fixture_web: FixtureWeb) -> None:
    from apps.sites.signin.forms import find_login_form

    browser_page.goto(fixture_web.site("signin-entry").url("webmail-form.html"))
    both = observe(browser_page)
    verdict = find_login_form(both)
    assert verdict.reason == "found" and verdict.found is not None
    assert both.forms[verdict.found.form].action.endswith("/account/session")

    browser_page.goto(fixture_web.site("signin-entry").url("webmail-form-only.html"))
    assert find_login_form(observe(browser_page)).reason == "none"


def test_a_collection_reaches_the_account_area_by_its_entries_never_another_services(
    browser_page: Any, fixture_web: FixtureWeb
) -> None:
    from apps.sites.collection.signals import classify_control

    browser_page.goto(fixture_web.site("signin-entry").url("signed-in-home.html"))
    snapshot = observe(browser_page)
    kinds = {}
    for control in snapshot.controls:
        signal = classify_control(control, object_words=("bolletta", "bollette"))
        kinds[control.label] = signal.kind if signal else None
    assert kinds["Ciao Giulia"] == "account"  # a signed-in page's greeting links to the account
    assert kinds["MySolaria"] == "account"
    assert kinds["Login Webmail"] is None  # another service's sign-in is never a way to the items
    assert kinds["Esci"] is None
    assert kinds.get("Accedi") is None  # a form's button is no route
