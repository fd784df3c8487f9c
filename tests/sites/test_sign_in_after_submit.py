"""After submitting: slow script answers, single sign-on chains, later evidence, and the single recovery.

Real Chromium against the fixture web (spec: Signing in to a website; Candidate recovery corrections).
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from apps.sites.browser.sessions import browser_session
from apps.sites.browser.websites import AuthorizedWebsites
from apps.sites.signin.procedure import Login, SignInProcedure
from apps.sites.signin.types import OUTCOME_INTERVAL_SECONDS
from tests.sites.fixture_web import FixtureWeb
from tests.sites.signin_support import PASSWORD, USERNAME, sign_in_to

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def test_a_script_submitted_form_whose_request_has_not_answered_extends_observation_once(
    owner: Any, fixture_web: FixtureWeb
) -> None:
    site = fixture_web.fresh("signin-script")
    slow_ms = int(OUTCOME_INTERVAL_SECONDS * 1000 * 1.3)  # longer than one interval, shorter than two
    run = sign_in_to(owner, site.url(f"/login.html?slow={slow_ms}"), origins=[site.origin])
    assert run.outcome == "signed_in", run.result
    assert site.logins() == [{"ok": True, "fields": ["password", "username"]}]


def test_evidence_after_the_extended_interval_stays_unverified(owner: Any, fixture_web: FixtureWeb) -> None:
    site = fixture_web.fresh("signin-script")
    slow_ms = int(OUTCOME_INTERVAL_SECONDS * 1000 * 2.6)  # beyond the interval and its one extension
    run = sign_in_to(owner, site.url(f"/login.html?slow={slow_ms}"), origins=[site.origin])
    assert run.outcome == "unverified" and run.reason in {"no_evidence", "late_evidence"}
    assert run.result.error is not None and run.result.error.error_class == "unknown"
    assert len(site.logins()) <= 1  # never submitted again


def test_evidence_withdrawn_once_the_page_has_loaded_is_interrupted_and_stays_unverified(
    owner: Any, fixture_web: FixtureWeb
) -> None:
    # The account page shows a sign-out link at once, but a slow image keeps it loading for
    # 400 ms; once loaded, its own script sends the visitor back to the login page.
    site = fixture_web.fresh("signin-expiring")
    run = sign_in_to(owner, site.url("/login.html"), origins=[site.origin])
    assert (run.outcome, run.reason) == ("unverified", "evidence_interrupted"), run.result
    assert site.logins() == [{"ok": True, "fields": ["password", "username"]}]  # submitted once
    assert site.requests().count(("GET", "/login.html")) == 2  # the second time, sent back by the page


def test_a_welcome_the_pages_own_session_check_withdraws_is_never_a_sign_in(
    owner: Any, fixture_web: FixtureWeb
) -> None:
    # Once loaded, the account page asks its server whether the session holds (300 ms); the
    # answer says no and the page goes back to the login page. Its data request is waited for.
    site = fixture_web.fresh("signin-session-check")
    run = sign_in_to(owner, site.url("/login.html"), origins=[site.origin])
    assert run.outcome == "unverified" and run.reason in {"evidence_interrupted", "no_evidence"}, run.result
    assert site.logins() == [{"ok": True, "fields": ["password", "username"]}]


def test_single_sign_on_across_two_authorized_origins_waits_for_the_next_document(
    owner: Any, fixture_web: FixtureWeb
) -> None:
    app, idp = fixture_web.fresh("signin-sso-app"), fixture_web.fresh("signin-sso-idp")
    run = sign_in_to(owner, app.url("/"), origins=[app.origin, idp.origin])
    assert run.outcome == "signed_in", run.result
    assert run.result.value["landing_origin"] == app.origin  # the origin, never the address with its ticket
    assert idp.logins() == [{"ok": True, "fields": ["password", "username"]}]
    assert ("GET", "/signing-in.html") in idp.requests()  # the page that was still loading the next document
    assert ("GET", "/private/account.html") in app.requests()


def test_single_sign_on_through_an_origin_not_authorized_is_refused_before_any_credential_use(
    owner: Any, fixture_web: FixtureWeb
) -> None:
    app, idp = fixture_web.fresh("signin-sso-app"), fixture_web.fresh("signin-sso-idp")
    run = sign_in_to(owner, app.url("/"), origins=[app.origin, idp.origin], authorised=[app.origin])
    assert (run.outcome, run.reason) == ("refused", "navigation_refused")
    assert idp.requests() == [] and idp.logins() == []
    assert run.mandate.secrets() == ()
    audit = run.audit()
    assert audit["credentials_used"] is False
    # Counters and comparisons from a closed set: no address, no port.
    closed_set = {"connection.not_approved"} | {
        f"{kind}.not_authorized.{comparison}"
        for kind in ("navigation", "redirect")
        for comparison in ("same_host_other_port", "same_host_other_scheme", "other_host")
    }
    assert audit["refusals"] and set(audit["refusals"]) <= closed_set


def test_a_verified_sign_in_keeps_its_actual_destination_as_its_anchor(owner: Any, fixture_web: FixtureWeb) -> None:
    site = fixture_web.fresh("signin-plain")
    with browser_session(owner=owner, websites=AuthorizedWebsites.of([site.origin])) as session:
        procedure = SignInProcedure(
            session,
            credentials=lambda origin: Login(USERNAME, PASSWORD),
            codes=lambda origin: None,
            deadline=time.monotonic() + 60,
        )
        report = procedure.run(site.url("/"))
        assert report.outcome == "signed_in"
        assert report.anchor == site.url("/private/account.html")  # the actual destination, not the opening page
    assert len(site.logins()) == 1
