"""Pausing for consent does not reset attempts (spec: Signing in to a website), in real Chromium.

On ``signin-consent-pause`` the way in is one link from the home page to a
customer area whose cookie notice offers only acceptance: the search follows
the link (one action), then pauses with ``consent_pending``. Running the same
procedure again goes on where it paused, with its counters and the controls
already attempted; it neither starts over from the home page nor gets a fresh
action budget.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from apps.sites.browser.sessions import BrowserSession, browser_session
from apps.sites.browser.websites import AuthorizedWebsites
from apps.sites.limits import SIGN_IN_MAX_ACTIONS
from apps.sites.signin.procedure import Login, SignInProcedure
from apps.sites.signin.search import EntrySearch
from tests.sites.fixture_web import FixtureSite, FixtureWeb
from tests.sites.signin_support import PASSWORD, USERNAME

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


@pytest.fixture
def site(fixture_web: FixtureWeb) -> FixtureSite:
    return fixture_web.fresh("signin-consent-pause")


def _procedure(session: BrowserSession) -> SignInProcedure:
    return SignInProcedure(
        session,
        credentials=lambda origin: Login(USERNAME, PASSWORD),
        codes=lambda origin: None,
        deadline=time.monotonic() + 60,
    )


def _gets(site: FixtureSite, path: str) -> int:
    return site.requests().count(("GET", path))


def _person_answers_the_notice(session: BrowserSession) -> None:
    """What the user does in the page when asked: the procedure itself never accepts."""
    session.page.get_by_role("button", name="Got it").click()
    session.page.get_by_role("dialog").wait_for(state="detached")


def test_pausing_for_consent_keeps_the_attempts_and_goes_on_where_it_paused(owner: Any, site: FixtureSite) -> None:
    with browser_session(owner=owner, websites=AuthorizedWebsites.of([site.origin])) as session:
        procedure = _procedure(session)
        paused = procedure.run(site.url("/"))
        assert (paused.outcome, paused.reason, paused.search_actions) == ("consent_pending", "consent_paused", 1)

        # Unanswered, a later run pauses again on the same page: no new click, no fresh start.
        again = procedure.run(site.url("/"))
        assert (again.outcome, again.search_actions) == ("consent_pending", 1)
        assert _gets(site, "/") == 1 and _gets(site, "/gate.html") == 1

        _person_answers_the_notice(session)
        resumed = procedure.run(site.url("/"))
    assert (resumed.outcome, resumed.reason) == ("signed_in", "evidence_stable")
    # One action before the pause, one after: the counters went on, the home page was not searched again.
    assert resumed.search_actions == 2
    assert _gets(site, "/") == 1 and _gets(site, "/gate.html") == 1
    assert site.presses() == ["accept"]  # the person's answer, never the procedure's


def test_a_resumed_search_has_no_fresh_action_budget(owner: Any, site: FixtureSite) -> None:
    with browser_session(owner=owner, websites=AuthorizedWebsites.of([site.origin])) as session:
        search = EntrySearch(session, deadline=time.monotonic() + 60)
        assert search.run(site.url("/")).kind == "consent_pending"
        assert search.counters.attempted  # the home page's "Sign in" was tried
        # The budget spent before the pause stays spent: here, all of it.
        search.counters.actions = SIGN_IN_MAX_ACTIONS
        _person_answers_the_notice(session)
        resumed = search.run(site.url("/"))
    assert (resumed.kind, resumed.reason) == ("exhausted", "action_limit")
    assert _gets(site, "/login.html") == 0 and _gets(site, "/") == 1
