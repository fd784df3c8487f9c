"""After the submission, one way on toward the account is taken: an interstitial, a closed account menu."""

from __future__ import annotations

from typing import Any

import pytest

from tests.sites.fixture_web import FixtureWeb
from tests.sites.signin_support import sign_in_to

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def test_an_interstitial_after_the_submission_is_continued_and_the_sign_in_verified(
    owner: Any, fixture_web: FixtureWeb
) -> None:
    site = fixture_web.fresh("signin-interstitial")
    run = sign_in_to(owner, site.url("/login.html"), origins=[site.origin])
    assert run.outcome == "signed_in", run.result
    assert site.logins() == [{"ok": True, "fields": ["password", "username"]}]  # submitted once
    assert ("GET", "/private/account.html") in site.requests()
    assert ("GET", "/security.html") not in site.requests()  # only the way on to the account
    assert run.audit()["search_actions"] == 1


def test_a_sign_out_kept_in_a_closed_account_menu_is_looked_for_there(owner: Any, fixture_web: FixtureWeb) -> None:
    site = fixture_web.fresh("signin-account-menu")
    run = sign_in_to(owner, site.url("/login.html"), origins=[site.origin])
    assert run.outcome == "signed_in", run.result
    assert site.logins() == [{"ok": True, "fields": ["password", "username"]}]
    assert ("GET", "/private/profile.html") not in site.requests()


def test_a_wrong_password_is_still_a_rejection_and_nothing_is_continued(owner: Any, fixture_web: FixtureWeb) -> None:
    site = fixture_web.fresh("signin-interstitial")
    run = sign_in_to(owner, site.url("/login.html"), origins=[site.origin], password="not-the-password-1")
    assert run.outcome == "rejected", run.result
    assert ("GET", "/private/notice.html") not in site.requests()


def test_a_way_in_inside_an_off_canvas_menu_the_search_opened_is_followed(owner: Any, fixture_web: FixtureWeb) -> None:
    # The menu covers the page once open: it is where the way in is, not an overlay to close first.
    site = fixture_web.fresh("signin-offcanvas")
    run = sign_in_to(owner, site.url("/"), origins=[site.origin])
    assert run.outcome == "signed_in", run.result
    assert ("GET", "/webmail.html") not in site.requests()  # another service's sign-in is never taken
    assert site.logins() == [{"ok": True, "fields": ["password", "username"]}]


def test_a_promotion_after_the_submission_is_passed_by_its_not_now_way_on(owner: Any, fixture_web: FixtureWeb) -> None:
    site = fixture_web.fresh("signin-promo")
    run = sign_in_to(owner, site.url("/login.html"), origins=[site.origin])
    assert run.outcome == "signed_in", run.result
    assert ("GET", "/private/2fa.html") not in site.requests()  # the promotion's offer is never taken


def test_a_page_that_greets_the_person_by_name_after_the_submission_is_signed_in(
    owner: Any, fixture_web: FixtureWeb
) -> None:
    # No sign-out is shown anywhere; the login form is gone and the page says "Hello Ada".
    site = fixture_web.fresh("signin-greeting")
    run = sign_in_to(owner, site.url("/login.html"), origins=[site.origin])
    assert run.outcome == "signed_in", run.result
    assert site.logins() == [{"ok": True, "fields": ["password", "username"]}]
