"""Several ways in, equally designated, and no model: the person chooses among the observed controls.

Real Chromium against the fixture web; the person's answer goes through the
runtime (an ``InputRequest`` answered by its user), as in the portal.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.sites.fixture_web import FixtureWeb
from tests.sites.signin_support import Asked, sign_in_to

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def test_the_person_chooses_the_way_in_and_the_same_search_goes_on(owner: Any, fixture_web: FixtureWeb) -> None:
    site = fixture_web.fresh("signin-ambiguous")
    asked = Asked(lambda: "1")
    run = sign_in_to(owner, site.url("/"), origins=[site.origin], request_input=asked)

    assert run.outcome == "signed_in", run.result
    [question] = asked.questions
    assert question.kind == "choice" and not question.sensitive
    assert [choice.split(" — ")[0] for choice in question.choices] == ["Sign in", "Log in"]
    assert ("GET", "/private-login.html") in site.requests()
    assert ("GET", "/members-login.html") not in site.requests()  # only the chosen way was followed
    assert len(site.logins()) == 1


def test_a_declined_choice_stops_the_search_before_any_credential_use(owner: Any, fixture_web: FixtureWeb) -> None:
    site = fixture_web.fresh("signin-ambiguous")
    run = sign_in_to(owner, site.url("/"), origins=[site.origin], request_input=Asked(lambda: None))

    assert (run.outcome, run.reason) == ("ambiguous", "ambiguous_control")
    assert run.mandate.secrets() == ()  # the credential was never resolved
    assert site.logins() == []
