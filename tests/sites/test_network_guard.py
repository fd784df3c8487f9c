"""The network guard's decisions, without a browser: addresses, names, opened networks, origins."""

from __future__ import annotations

import ipaddress
from typing import Any

import pytest

from apps.sites.browser.network import AddressRefused, IPNetwork, NetworkGuard, classify_address, system_resolver
from apps.sites.browser.websites import AuthorizedWebsites, InvalidOrigin, origin_of

LOOPBACK_ONLY = (ipaddress.ip_network("127.0.0.0/8"),)


@pytest.mark.parametrize(
    ("address", "refusal"),
    [
        ("127.0.0.1", "loopback_address"),
        ("::1", "loopback_address"),
        ("10.0.0.1", "private_address"),
        ("192.168.1.20", "private_address"),
        ("172.16.5.4", "private_address"),
        ("fd12::1", "private_address"),
        ("169.254.169.254", "metadata_address"),
        ("fd00:ec2::254", "metadata_address"),
        ("100.100.100.200", "metadata_address"),
        ("169.254.1.1", "link_local_address"),
        ("fe80::1", "link_local_address"),
        ("100.64.0.1", "non_public_address"),
        ("0.0.0.0", "loopback_address"),  # noqa: S104 - a connection to it reaches the server itself
        ("224.0.0.1", "non_public_address"),
        # IPv6 forms that lead to an IPv4 address are judged by where they lead.
        ("::ffff:127.0.0.1", "loopback_address"),
        ("::ffff:10.0.0.1", "private_address"),
        ("64:ff9b::a00:1", "private_address"),
        ("2002:7f00:1::", "loopback_address"),
        ("93.184.216.34", None),
        ("2606:2800:220:1::1", None),
    ],
)
def test_addresses_are_classified(address: str, refusal: str | None) -> None:
    assert classify_address(ipaddress.ip_address(address)) == refusal


def _guard(table: dict[str, list[str]], opened: tuple[IPNetwork, ...] = ()) -> NetworkGuard:
    return NetworkGuard(opened_networks=opened, resolver=lambda host: table.get(host, []))


def test_a_name_is_refused_if_any_of_its_addresses_is_refused() -> None:
    guard = _guard({"mixed.example": ["93.184.216.34", "10.0.0.1"], "public.example": ["93.184.216.34"]})
    with pytest.raises(AddressRefused) as refused:
        guard.resolve("mixed.example")
    assert refused.value.reason == "private_address"
    assert [str(address) for address in guard.resolve("public.example")] == ["93.184.216.34"]


def test_unresolvable_and_garbled_answers_are_refused() -> None:
    guard = _guard({"garbled.example": ["93.184.216.34", "not-an-address"]})
    for host in ("missing.example", "garbled.example"):
        with pytest.raises(AddressRefused) as refused:
            guard.resolve(host)
        assert refused.value.reason == "unresolvable"


def test_the_system_resolver_sends_localhost_to_loopback() -> None:
    guard = NetworkGuard(resolver=system_resolver)
    with pytest.raises(AddressRefused) as refused:
        guard.resolve("localhost")
    assert refused.value.reason == "loopback_address"


def test_opened_networks_admit_their_addresses_but_never_metadata() -> None:
    guard = _guard({}, opened=(*LOOPBACK_ONLY, ipaddress.ip_network("169.254.0.0/16")))
    assert [str(a) for a in guard.resolve("127.0.0.1")] == ["127.0.0.1"]
    assert len(guard.resolve("::ffff:127.0.0.1")) == 1
    assert [str(a) for a in guard.resolve("169.254.1.1")] == ["169.254.1.1"]
    with pytest.raises(AddressRefused) as refused:
        guard.resolve("169.254.169.254")
    assert refused.value.reason == "metadata_address"
    with pytest.raises(AddressRefused):
        guard.resolve("10.0.0.1")


def test_the_default_settings_open_no_network(settings: pytest.FixtureRequest) -> None:
    settings.METNOS_SITES_ALLOW_PRIVATE = []  # type: ignore[attr-defined]
    with pytest.raises(AddressRefused):
        NetworkGuard.from_settings().resolve("127.0.0.1")


def test_origins_compare_scheme_host_and_port_exactly() -> None:
    websites = AuthorizedWebsites.of(["https://Shop.Example/login?next=/", "http://127.0.0.1:8001"])
    assert websites.allows("https://shop.example/invoices")
    assert websites.allows("https://shop.example:443/")
    assert websites.allows("http://127.0.0.1:8001/x")
    assert not websites.allows("http://shop.example/")
    assert not websites.allows("https://shop.example:8443/")
    assert not websites.allows("https://evil.example/")
    assert not websites.allows("file:///etc/passwd")
    assert websites.compare("http://shop.example/") == "same_host_other_scheme"
    assert websites.compare("https://shop.example:8443/") == "same_host_other_port"
    assert websites.compare("https://evil.example/") == "other_host"
    assert origin_of("wss://shop.example/socket") == origin_of("https://shop.example")
    for address in ("file:///etc/passwd", "data:text/html,hi", "chrome://version", "javascript:alert(1)"):
        with pytest.raises(InvalidOrigin):
            origin_of(address)


def test_the_authorized_websites_come_from_the_turns_mandate(owner: Any) -> None:
    from apps.runtime.executor import NoMandate
    from apps.vault.mandates import CredentialGrant, VaultMandate

    mandate = VaultMandate(
        owner=owner, turn_id=1, grants=[CredentialGrant(7, frozenset({"https://shop.example", "https://sso.example"}))]
    )
    websites = AuthorizedWebsites.from_mandate(mandate)
    assert websites.allows("https://sso.example/login") and websites.allows("https://shop.example/bills")
    assert not websites.allows("https://other.example/")
    assert AuthorizedWebsites.from_mandate(NoMandate()).origins == frozenset()
