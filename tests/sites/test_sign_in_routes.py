"""The search for the way in: bounds, dead ends, a branch that changes, and the route-choice model.

Real Chromium against the fixture web (spec: Signing in to a website).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from apps.sites.limits import SIGN_IN_MAX_ACTIONS, SIGN_IN_MAX_STEPS_PER_ROUTE
from tests.model_server import ScriptedModelServer
from tests.sites.fixture_web import FixtureSite, FixtureWeb
from tests.sites.signin_support import PASSWORD, USERNAME, sign_in_to

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def _gets(site: FixtureSite) -> list[str]:
    return [path for method, path in site.requests() if method == "GET"]


def test_a_dead_end_returns_to_the_verified_branch_and_tries_the_alternative(
    owner: Any, fixture_web: FixtureWeb
) -> None:
    site = fixture_web.fresh("signin-deadend")
    run = sign_in_to(owner, site.url("/"), origins=[site.origin])
    assert run.outcome == "signed_in", run.result
    # "Sign in" (the strongest signal) led nowhere; back on the home page, "Account" led to "Log in".
    assert _gets(site) == ["/", "/moved.html", "/", "/account.html", "/login.html", "/private/account.html"]
    assert run.audit()["search_actions"] == 4  # three clicks and one return


def test_a_branch_that_changed_during_the_return_is_discarded_for_a_fresh_start_from_the_entry(
    owner: Any, fixture_web: FixtureWeb
) -> None:
    site = fixture_web.fresh("signin-changing")
    run = sign_in_to(owner, site.url("/"), origins=[site.origin])
    assert run.outcome == "signed_in", run.result
    gets = _gets(site)
    # The customer area changed when the search came back to it: the branch was dropped, the
    # entry observed afresh, and the discarded branch was never tried again.
    assert gets.count("/area.html") == 2 and gets.count("/closed.html") == 1
    assert "/promo.html" not in gets
    assert gets.index("/profile.html") > gets.index("/area.html")
    assert gets[gets.index("/closed.html") + 2] == "/"  # after the changed branch: the original entry


def test_a_route_stops_after_four_steps(owner: Any, fixture_web: FixtureWeb) -> None:
    site = fixture_web.fresh("signin-deep")
    run = sign_in_to(owner, site.url("/"), origins=[site.origin])
    assert (run.outcome, run.reason) == ("not_found", "route_step_limit")
    gets = _gets(site)
    assert f"/a{SIGN_IN_MAX_STEPS_PER_ROUTE}.html" in gets  # the fourth step was taken
    assert "/login.html" not in gets  # the fifth was not
    assert run.mandate.secrets() == ()


def test_the_whole_search_shares_thirty_two_actions(owner: Any, fixture_web: FixtureWeb) -> None:
    site = fixture_web.fresh("signin-deep")
    run = sign_in_to(owner, site.url("/_/maze?at=0"), origins=[site.origin])
    assert (run.outcome, run.reason) == ("not_found", "action_limit")
    audit = run.audit()
    assert audit["search_actions"] == SIGN_IN_MAX_ACTIONS and audit["internal_class"] == "exhausted"
    rooms = [path for path in _gets(site) if path == "/_/maze"]
    assert len(rooms) <= SIGN_IN_MAX_ACTIONS + 1


def test_the_route_choice_model_chooses_among_the_observed_controls(
    owner: Any, fixture_web: FixtureWeb, scripted_model_server: ScriptedModelServer, settings: Any
) -> None:
    settings.METNOS_MODEL_TIERS = {"route_choice": scripted_model_server.settings_entry()}
    scripted_model_server.script({"choice": 2})
    site = fixture_web.fresh("signin-nosignal")
    run = sign_in_to(owner, site.url("/"), origins=[site.origin])
    assert run.outcome == "signed_in", run.result
    assert run.audit()["model_decisions"] == 1
    [request] = scripted_model_server.chat_requests
    offered = json.loads(request.json["messages"][1]["content"])["controls"]
    assert [control["name"] for control in offered] == ["Contact", "Our plans", "Portal"]
    body = request.raw_body.decode()
    assert site.origin not in body and "127.0.0.1" not in body  # no addresses
    assert PASSWORD not in body and USERNAME not in body


def test_a_model_answer_outside_the_offered_controls_is_not_followed(
    owner: Any, fixture_web: FixtureWeb, scripted_model_server: ScriptedModelServer, settings: Any
) -> None:
    settings.METNOS_MODEL_TIERS = {"route_choice": scripted_model_server.settings_entry()}
    scripted_model_server.script({"choice": 7})
    site = fixture_web.fresh("signin-nosignal")
    run = sign_in_to(owner, site.url("/"), origins=[site.origin])
    assert (run.outcome, run.reason) == ("not_found", "model_declined")
    assert _gets(site) == ["/"]


def test_with_clear_signals_the_model_is_never_asked(
    owner: Any, fixture_web: FixtureWeb, scripted_model_server: ScriptedModelServer, settings: Any
) -> None:
    settings.METNOS_MODEL_TIERS = {"route_choice": scripted_model_server.settings_entry()}
    site = fixture_web.fresh("signin-deadend")
    run = sign_in_to(owner, site.url("/"), origins=[site.origin])
    assert run.outcome == "signed_in"
    assert scripted_model_server.chat_requests == []
