"""The managed browser cannot reach the server's own network: real Chromium, default guard.

Every test here runs with the *default* settings (no network opened), not
the suite's loopback opening. A "public-looking" website needs a name that
resolves to a public address: the injected resolver gives ``shop.example``
the address 93.184.216.34 and the injected dialer carries connections to
that address to the fixture web on loopback. Nothing else is resolvable,
so no request can leave this machine.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterator
from contextlib import AbstractContextManager
from typing import Any
from urllib.parse import quote

import pytest

from apps.sites.browser.guard_proxy import direct_dial
from apps.sites.browser.network import IPAddress, NetworkGuard
from apps.sites.browser.sessions import BrowserSession, NavigationRefused, browser_session
from apps.sites.browser.websites import AuthorizedWebsites
from tests.sites.fixture_web import FixtureSite, FixtureWeb

pytestmark = pytest.mark.django_db(transaction=True)

PUBLIC_LOOKING = "shop.example"
PUBLIC_ADDRESS = ipaddress.ip_address("93.184.216.34")
NAMES = {PUBLIC_LOOKING: [str(PUBLIC_ADDRESS)], "intranet.example": ["127.0.0.1"]}


def resolver(host: str) -> list[str]:
    return NAMES.get(host, [])


def dial_public_to_loopback(address: IPAddress, port: int, timeout: float) -> socket.socket:
    """Stand-in for the internet: the public address answers from the fixture web."""
    if address == PUBLIC_ADDRESS:
        return socket.create_connection(("127.0.0.1", port), timeout=timeout)
    return direct_dial(address, port, timeout)


@pytest.fixture
def default_guard(settings: Any) -> NetworkGuard:
    settings.METNOS_SITES_ALLOW_PRIVATE = []
    settings.METNOS_SITES_OUTSIDE_REQUESTS = "any"
    return NetworkGuard.from_settings(resolver=resolver)


@pytest.fixture
def shop(fixture_web: FixtureWeb) -> FixtureSite:
    return fixture_web.fresh("net-shop")


@pytest.fixture
def private(fixture_web: FixtureWeb) -> Iterator[FixtureSite]:
    site = fixture_web.fresh("net-private")
    yield site
    # Whatever the test did, the service on the "private network" was never reached.
    assert site.requests() == []


def public_url(site: FixtureSite, path: str) -> str:
    return f"http://{PUBLIC_LOOKING}:{site.server.server_address[1]}{path}"


def public_session(owner: Any, guard: NetworkGuard, shop: FixtureSite) -> AbstractContextManager[BrowserSession]:
    """A session authorized for the public-looking shop only, under the default guard."""
    websites = AuthorizedWebsites.of([public_url(shop, "/")])
    return browser_session(owner=owner, websites=websites, guard=guard, dial=dial_public_to_loopback)


@pytest.mark.parametrize(
    ("address", "reason"),
    [
        ("http://127.0.0.1:{port}/secret.html", "loopback_address"),
        ("http://10.0.0.1/", "private_address"),
        ("http://169.254.169.254/latest/meta-data/", "metadata_address"),
        ("http://intranet.example:{port}/secret.html", "loopback_address"),
        ("http://[::1]:{port}/secret.html", "loopback_address"),
    ],
)
def test_private_addresses_are_refused_even_when_authorized(
    owner: Any, default_guard: NetworkGuard, private: FixtureSite, address: str, reason: str
) -> None:
    url = address.format(port=private.server.server_address[1])
    with browser_session(owner=owner, websites=AuthorizedWebsites.of([url]), guard=default_guard) as session:
        with pytest.raises(NavigationRefused) as refused:
            session.goto(url)
        assert refused.value.reason == reason
        assert session.refusals() == {f"navigation.{reason}": 1}


def test_a_public_page_that_redirects_to_a_private_address_is_refused(
    owner: Any, default_guard: NetworkGuard, shop: FixtureSite, private: FixtureSite
) -> None:
    secret = private.url("/secret.html")
    with public_session(owner, default_guard, shop) as session:
        session.goto(public_url(shop, "/"))
        assert session.page.title() == "Net shop"  # the public-looking site itself is reachable
        with pytest.raises(NavigationRefused) as refused:
            session.goto(public_url(shop, "/_/redirect?to=" + quote(secret, safe="")))
        assert refused.value.reason == "loopback_address"
        assert session.page.title() != "Private secret"
        refusals = session.refusals()
    assert refusals["connection.loopback_address"] >= 1
    assert ("GET", "/_/redirect") in shop.requests()


def test_a_redirect_to_the_metadata_service_is_refused(
    owner: Any, default_guard: NetworkGuard, shop: FixtureSite
) -> None:
    with public_session(owner, default_guard, shop) as session, pytest.raises(NavigationRefused) as refused:
        session.goto(public_url(shop, "/_/redirect?to=" + quote("http://169.254.169.254/latest/", safe="")))
    assert refused.value.reason == "metadata_address"
    assert session.refusals()["connection.metadata_address"] >= 1


def test_sub_resources_of_a_public_page_cannot_reach_private_addresses(
    owner: Any, default_guard: NetworkGuard, shop: FixtureSite, private: FixtureSite
) -> None:
    target = private.url("/_/press?control=leak")
    with public_session(owner, default_guard, shop) as session:
        session.goto(public_url(shop, "/probe.html?target=" + quote(target, safe="")))
        session.page.click("#load")
        session.page.wait_for_function("document.getElementById('status').dataset.fetch === 'failed'")
        assert session.page.text_content("#status") == "image failed"
        assert session.refusals() == {"subresource.loopback_address": 2}
    assert private.presses() == []


def test_refusals_record_only_counters_from_a_closed_set(
    owner: Any, default_guard: NetworkGuard, private: FixtureSite, caplog: pytest.LogCaptureFixture
) -> None:
    url = private.url("/secret.html")
    websites = AuthorizedWebsites.of([url])
    with (
        browser_session(owner=owner, websites=websites, guard=default_guard) as session,
        pytest.raises(NavigationRefused),
    ):
        session.goto(url)
    port = str(private.server.server_address[1])
    for counter in session.refusals():
        assert counter.replace(".", "").replace("_", "").isalpha(), counter
    recorded = " ".join(f"{record.getMessage()} {record.__dict__}" for record in caplog.records)
    assert "127.0.0.1" not in recorded and port not in recorded and "secret" not in recorded


def test_a_name_that_changes_its_answer_is_refused_at_the_connection(
    owner: Any, settings: Any, private: FixtureSite
) -> None:
    """DNS rebinding: public when checked, loopback when connecting — the proxy checks what it connects to."""
    settings.METNOS_SITES_ALLOW_PRIVATE = []
    answers = iter([[str(PUBLIC_ADDRESS)], ["127.0.0.1"]])
    guard = NetworkGuard.from_settings(resolver=lambda host: next(answers, ["127.0.0.1"]))
    url = f"http://rebind.example:{private.server.server_address[1]}/secret.html"
    with browser_session(owner=owner, websites=AuthorizedWebsites.of([url]), guard=guard) as session:
        with pytest.raises(NavigationRefused) as refused:
            session.goto(url)
        assert refused.value.reason == "loopback_address"
        assert session.refusals() == {"connection.loopback_address": 1}


def test_a_redirect_to_an_authorized_website_at_a_private_address_is_refused(
    owner: Any, default_guard: NetworkGuard, shop: FixtureSite, private: FixtureSite
) -> None:
    """Authorized websites are approved when the session opens, after the address checks: a private one is not."""
    intranet = f"http://intranet.example:{private.server.server_address[1]}"
    websites = AuthorizedWebsites.of([public_url(shop, "/"), intranet])
    with browser_session(owner=owner, websites=websites, guard=default_guard, dial=dial_public_to_loopback) as session:
        with pytest.raises(NavigationRefused) as refused:
            session.goto(public_url(shop, "/_/redirect?to=" + quote(intranet + "/secret.html", safe="")))
        assert refused.value.reason == "loopback_address"
        assert session.page.title() != "Private secret"
        refusals = session.refusals()
    assert set(refusals) == {"connection.loopback_address"}
