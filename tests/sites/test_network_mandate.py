"""Every navigation, popup and new tab passes the same check against the authorized websites.

These run with the suite's settings (loopback opened, sub-resources outside
the authorized websites only to loopback): every fixture site is on
127.0.0.1, each on its own port, so another site is another origin.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import pytest

from apps.sites.browser.network import NetworkGuard
from apps.sites.browser.sessions import NavigationRefused, browser_session
from apps.sites.browser.websites import AuthorizedWebsites
from tests.sites.fixture_web import FixtureSite, FixtureWeb, wait_until

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def shop(fixture_web: FixtureWeb) -> FixtureSite:
    return fixture_web.fresh("net-shop")


@pytest.fixture
def elsewhere(fixture_web: FixtureWeb) -> FixtureSite:
    return fixture_web.fresh("net-private")


def only(site: FixtureSite) -> AuthorizedWebsites:
    return AuthorizedWebsites.of([site.origin])


@pytest.mark.parametrize(
    "address", ["file:///etc/passwd", "data:text/html,<h1>hi</h1>", "chrome://version", "javascript:alert(1)"]
)
def test_navigations_outside_the_web_are_refused(owner: Any, shop: FixtureSite, address: str) -> None:
    with browser_session(owner=owner, websites=only(shop)) as session:
        with pytest.raises(NavigationRefused) as refused:
            session.goto(address)
        assert refused.value.reason == "scheme"
        assert session.page.url == "about:blank"


def test_a_website_not_authorized_is_refused_with_a_comparison_only(
    owner: Any, shop: FixtureSite, elsewhere: FixtureSite
) -> None:
    with browser_session(owner=owner, websites=only(shop)) as session:
        session.goto(shop.url("/"))
        with pytest.raises(NavigationRefused) as refused:
            session.goto(elsewhere.url("/secret.html"))
        assert refused.value.reason == "not_authorized"
        assert session.refusals() == {"navigation.not_authorized.same_host_other_port": 1}
        assert session.page.title() == "Net shop"
    assert elsewhere.requests() == []


def test_a_redirect_off_the_authorized_websites_is_refused(
    owner: Any, shop: FixtureSite, elsewhere: FixtureSite
) -> None:
    with browser_session(owner=owner, websites=only(shop)) as session:
        with pytest.raises(NavigationRefused) as refused:
            session.goto(shop.url("/_/redirect?to=" + quote(elsewhere.url("/secret.html"), safe="")))
        assert refused.value.reason == "not_authorized"
        refusals = session.refusals()
    assert refusals["redirect.not_authorized.same_host_other_port"] == 1
    assert refusals["connection.not_approved"] >= 1
    assert elsewhere.requests() == []


def test_a_redirect_within_the_authorized_websites_is_followed(owner: Any, shop: FixtureSite) -> None:
    with browser_session(owner=owner, websites=only(shop)) as session:
        session.goto(shop.url("/_/redirect?to=/index.html"))
        assert session.page.title() == "Net shop"
        assert session.refusals() == {}


@pytest.mark.parametrize("opener", ["#open-popup", "#new-tab"])
def test_popups_and_new_tabs_pass_the_same_check(
    owner: Any, shop: FixtureSite, elsewhere: FixtureSite, opener: str
) -> None:
    refused_popup = shop.url("/probe.html?popup=" + quote(elsewhere.url("/secret.html"), safe=""))
    allowed_popup = shop.url("/probe.html?popup=" + quote(shop.url("/index.html"), safe=""))
    with browser_session(owner=owner, websites=only(shop)) as session:
        session.goto(refused_popup)
        with session.page.context.expect_page() as opened:
            session.page.click(opener)
        opened.value.wait_for_load_state()
        assert session.refusals() == {"navigation.not_authorized.same_host_other_port": 1}
        assert opened.value.title() != "Private secret"

        session.goto(allowed_popup)
        with session.page.context.expect_page() as opened:
            session.page.click(opener)
        opened.value.wait_for_load_state()
        assert opened.value.title() == "Net shop"
        assert len(session.pages()) == 3
    assert elsewhere.requests() == []


@pytest.mark.parametrize(("policy", "reaches"), [("opened", True), ("none", False)])
def test_sub_resources_outside_the_authorized_websites_follow_the_policy(
    owner: Any, settings: Any, shop: FixtureSite, elsewhere: FixtureSite, policy: str, reaches: bool
) -> None:
    settings.METNOS_SITES_OUTSIDE_REQUESTS = policy
    target = elsewhere.url("/_/press?control=asset")
    with browser_session(owner=owner, websites=only(shop), guard=NetworkGuard.from_settings()) as session:
        session.goto(shop.url("/probe.html?target=" + quote(target, safe="")))
        session.page.click("#load")
        session.page.wait_for_function("document.getElementById('status').dataset.fetch !== undefined")
        refusals = session.refusals()
    if reaches:
        assert wait_until(lambda: elsewhere.presses() == ["asset", "asset"])
        assert refusals == {}
    else:
        assert elsewhere.presses() == []
        assert refusals["subresource.outside_host"] >= 1


def test_a_click_that_leads_off_the_authorized_websites_is_refused(
    owner: Any, shop: FixtureSite, elsewhere: FixtureSite
) -> None:
    away = shop.url("/_/redirect?to=" + quote(elsewhere.url("/secret.html"), safe=""))
    with browser_session(owner=owner, websites=only(shop)) as session:
        session.goto(shop.url("/probe.html?link=" + quote(away, safe="")))
        session.ensure_on_websites()  # still on the shop
        session.page.click("#same-tab")
        session.page.wait_for_load_state()
        with pytest.raises(NavigationRefused) as refused:
            session.ensure_on_websites()
        assert refused.value.reason == "not_authorized"
        assert not session.page.url.startswith(elsewhere.origin)
        session.goto(shop.url("/"))  # the session goes on
    assert elsewhere.requests() == []


def test_a_single_sign_on_redirect_reaches_an_authorized_website_not_visited_yet(
    owner: Any, fixture_web: FixtureWeb
) -> None:
    app, idp = fixture_web.fresh("signin-sso-app"), fixture_web.fresh("signin-sso-idp")
    websites = AuthorizedWebsites.of([app.origin, idp.origin])
    with browser_session(owner=owner, websites=websites) as session:
        # A plain session: only the application is visited before the redirect to the identity site.
        session.goto(app.url("/_/goto-site?site=signin-sso-idp&path=/login.html"))
        assert session.page.title() == "Identity - Sign in"
        session.page.fill("#u", "ada@example.org")
        session.page.fill("#p", "CANARY-signin-pw-5e21")
        # The identity site sends the browser back to the application: interstitial, ticket, account.
        with session.page.expect_navigation(url=app.url("/private/account.html")):
            session.page.click("button[type=submit]")
        session.ensure_on_websites()
        assert session.refusals() == {}
    assert ("GET", "/_/sso-return") in app.requests()


def test_a_single_sign_on_redirect_to_a_website_not_authorized_is_refused(owner: Any, fixture_web: FixtureWeb) -> None:
    app, idp = fixture_web.fresh("signin-sso-app"), fixture_web.fresh("signin-sso-idp")
    with browser_session(owner=owner, websites=only(app)) as session:
        with pytest.raises(NavigationRefused) as refused:
            session.goto(app.url("/_/goto-site?site=signin-sso-idp&path=/login.html"))
        assert refused.value.reason == "not_authorized"
        refusals = session.refusals()
    assert refusals["redirect.not_authorized.same_host_other_port"] == 1
    assert refusals["connection.not_approved"] >= 1
    assert idp.requests() == []
