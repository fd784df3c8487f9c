"""Signing in to a website (spec: Signing in to a website), in real Chromium against the fixture web.

Each site checks the credentials on its server (``tests/sites/fixture_web_signin.py``);
the values come from the vault under the turn's mandate.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.sites.fixture_web import FixtureWeb
from tests.sites.signin_support import WRONG_PASSWORD, sign_in_to

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def test_a_plain_form_signs_in_with_the_values_from_the_vault(owner: Any, fixture_web: FixtureWeb) -> None:
    site = fixture_web.fresh("signin-plain")
    run = sign_in_to(owner, site.url("/login.html"), origins=[site.origin])
    assert run.result.outcome == "success", run.result
    assert run.result.value == {"outcome": "signed_in", "reason": "evidence_stable", "landing_origin": site.origin}
    assert site.logins() == [{"ok": True, "fields": ["password", "username"]}]
    assert run.audit()["search_actions"] == 0


def test_the_way_in_is_followed_from_the_home_page(owner: Any, fixture_web: FixtureWeb) -> None:
    site = fixture_web.fresh("signin-plain")
    run = sign_in_to(owner, site.url("/"), origins=[site.origin])
    assert run.outcome == "signed_in"
    assert run.audit()["search_actions"] == 1
    assert ("GET", "/offers.html") not in site.requests()


def test_a_generic_access_verb_does_not_hide_the_customer_area(owner: Any, fixture_web: FixtureWeb) -> None:
    site = fixture_web.fresh("signin-menu")
    run = sign_in_to(owner, site.url("/"), origins=[site.origin])
    assert run.outcome == "signed_in"
    paths = [path for method, path in site.requests() if method == "GET"]
    assert "/customer.html" in paths
    assert not {"/plans.html", "/outages.html", "/help.html", "/join.html"} & set(paths)


def test_an_account_menu_is_opened_and_its_sign_in_link_followed(owner: Any, fixture_web: FixtureWeb) -> None:
    site = fixture_web.fresh("signin-dropdown")
    run = sign_in_to(owner, site.url("/"), origins=[site.origin])
    assert run.outcome == "signed_in", run.result
    gets = [path for method, path in site.requests() if method == "GET"]
    assert "/login.html" in gets and "/orders.html" not in gets and "/flights.html" not in gets
    assert run.audit()["search_actions"] == 2  # open the menu, follow "Sign in"


def test_two_login_forms_are_ambiguous_and_nothing_is_typed(owner: Any, fixture_web: FixtureWeb) -> None:
    site = fixture_web.fresh("signin-forms")
    run = sign_in_to(owner, site.url("/two-forms.html"), origins=[site.origin])
    assert (run.outcome, run.reason) == ("ambiguous", "ambiguous_form")
    assert run.mandate.secrets() == () and site.submissions() == []


def test_a_login_behind_a_new_tab_is_followed_there(owner: Any, fixture_web: FixtureWeb) -> None:
    site = fixture_web.fresh("signin-newtab")
    run = sign_in_to(owner, site.url("/"), origins=[site.origin])
    assert run.outcome == "signed_in", run.result
    assert site.logins() == [{"ok": True, "fields": ["password", "username"]}]


def test_a_delayed_form_is_waited_for_after_the_click(owner: Any, fixture_web: FixtureWeb) -> None:
    site = fixture_web.fresh("signin-delayed")
    run = sign_in_to(owner, site.url("/"), origins=[site.origin])
    assert run.outcome == "signed_in", run.result
    assert run.audit()["search_actions"] == 1


def test_a_two_step_form_gets_the_email_first_then_the_password(owner: Any, fixture_web: FixtureWeb) -> None:
    site = fixture_web.fresh("signin-twostep")
    run = sign_in_to(owner, site.url("/"), origins=[site.origin])
    assert run.outcome == "signed_in", run.result
    # The password went only to the password step: the server saw it with no identifier field.
    assert site.logins() == [{"ok": True, "fields": ["password"]}]
    assert ("POST", "/_/identify") in site.requests()


def test_an_identifier_step_with_a_remember_me_box_is_still_the_first_step(owner: Any, fixture_web: FixtureWeb) -> None:
    site = fixture_web.fresh("signin-twostep")
    run = sign_in_to(owner, site.url("/remember.html"), origins=[site.origin])
    assert run.outcome == "signed_in", run.result
    assert site.logins() == [{"ok": True, "fields": ["password"]}]  # the identifier went to its own step
    assert ("POST", "/_/identify") in site.requests()


def test_a_newsletter_form_beside_a_sign_in_link_is_never_filled(owner: Any, fixture_web: FixtureWeb) -> None:
    site = fixture_web.fresh("signin-newsletter")
    run = sign_in_to(owner, site.url("/"), origins=[site.origin])
    assert run.outcome == "signed_in", run.result
    assert site.submissions() == []
    assert ("POST", "/_/echo") not in site.requests()


def test_a_wrong_password_with_a_real_error_message_is_a_failed_outcome(owner: Any, fixture_web: FixtureWeb) -> None:
    site = fixture_web.fresh("signin-plain")
    run = sign_in_to(owner, site.url("/login.html"), origins=[site.origin], password=WRONG_PASSWORD)
    assert run.result.outcome == "failed"
    assert run.result.error is not None and run.result.error.code == "credentials_rejected"
    assert (run.outcome, run.reason) == ("rejected", "rejected_by_site")
    assert site.logins() == [{"ok": False, "fields": ["password", "username"]}]  # submitted once, never again


def test_an_ambiguous_control_stops_the_search_before_any_credential_use(owner: Any, fixture_web: FixtureWeb) -> None:
    site = fixture_web.fresh("signin-ambiguous")
    run = sign_in_to(owner, site.url("/"), origins=[site.origin])
    assert (run.outcome, run.reason) == ("ambiguous", "ambiguous_control")
    assert run.result.error is not None and "The candidates were “Sign in”, “Log in”." in run.result.error.message
    assert run.mandate.secrets() == ()  # the credential was never resolved
    assert site.logins() == []
    audit = run.audit()
    assert audit["credentials_used"] is False and audit["last_phase"] == "search"


def test_without_signals_or_a_model_the_search_is_inconclusive_and_says_why(
    owner: Any, fixture_web: FixtureWeb
) -> None:
    site = fixture_web.fresh("signin-nosignal")
    run = sign_in_to(owner, site.url("/"), origins=[site.origin])
    assert (run.outcome, run.reason) == ("not_found", "no_signal_no_model")
    assert run.result.error is not None and "On the page I saw “" in run.result.error.message  # what it saw
    assert "route-choice model" in run.result.error.message  # and what would help
    assert run.result.error is not None and "no route-choice model" in run.result.error.message
    assert run.audit()["internal_class"] == "inconclusive"
    assert run.mandate.secrets() == ()


def test_a_site_the_mandate_does_not_cover_is_refused_before_the_browser_opens(
    owner: Any, fixture_web: FixtureWeb
) -> None:
    site = fixture_web.fresh("signin-plain")
    other = fixture_web.fresh("signin-menu")
    run = sign_in_to(owner, site.url("/"), origins=[other.origin])
    assert (run.outcome, run.reason) == ("refused", "site_not_authorised")
    assert site.requests() == []
    assert run.audit() == {
        "step": 1, "outcome": "refused", "reason": "site_not_authorised", "internal_class": "inconclusive",
        "last_phase": "open", "search_actions": 0, "model_decisions": 0, "credentials_used": False, "refusals": {},
    }  # fmt: skip


def test_an_unexpected_value_read_back_from_a_field_prevents_submission(owner: Any, fixture_web: FixtureWeb) -> None:
    site = fixture_web.fresh("signin-plain")
    run = sign_in_to(owner, site.url("/transform.html"), origins=[site.origin])
    assert (run.outcome, run.reason) == ("refused", "unexpected_value")
    assert site.logins() == [] and ("POST", "/_/login") not in site.requests()


def test_a_new_tab_on_a_website_not_authorized_is_not_followed(owner: Any, fixture_web: FixtureWeb) -> None:
    site, other = fixture_web.fresh("signin-plain"), fixture_web.fresh("signin-menu")
    run = sign_in_to(owner, site.url(f"/elsewhere.html?to={other.url('/customer.html')}"), origins=[site.origin])
    assert (run.outcome, run.reason) == ("refused", "navigation_refused"), run.result
    assert other.requests() == []
    assert run.mandate.secrets() == ()


def test_a_consent_notice_is_rejected_before_the_way_in_is_used(owner: Any, fixture_web: FixtureWeb) -> None:
    site = fixture_web.fresh("signin-cookies")
    run = sign_in_to(owner, site.url("/"), origins=[site.origin])
    assert run.outcome == "signed_in", run.result
    assert site.presses() == ["reject"]


def test_a_consent_notice_that_offers_only_acceptance_stops_the_sign_in(owner: Any, fixture_web: FixtureWeb) -> None:
    site = fixture_web.fresh("signin-cookies")
    run = sign_in_to(owner, site.url("/only-accept.html"), origins=[site.origin])
    assert run.outcome == "consent_pending", run.result
    assert site.presses() == [] and site.logins() == [] and run.mandate.secrets() == ()
