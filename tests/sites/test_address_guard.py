"""The address guard judges an address by what it reaches, never by its spelling.

Each row: a host (an address literal in any form a browser or the system
resolver accepts, or a URL whose host the request check would take), what
it is, and whether the guard lets the browser reach it with the default
settings and with every private network opened by the operator.

No test here sends a packet or asks DNS: the guard is called directly, and
its resolver fails the test if the guard ever asks it about a literal.
"""

from __future__ import annotations

import ipaddress

import pytest

from apps.sites.browser.address_registry import IPV4_SPECIAL_PURPOSE, IPV6_SPECIAL_PURPOSE, SpecialPurposeBlock
from apps.sites.browser.network import AddressRefused, IPNetwork, NetworkGuard, classify_address
from apps.sites.browser.websites import origin_of

# What an operator opens when it opens "every private network" with
# METNOS_SITES_ALLOW_PRIVATE: loopback, private use, shared, link-local, unique local.
PRIVATE_NETWORKS: tuple[IPNetwork, ...] = tuple(
    ipaddress.ip_network(text)
    for text in (
        "127.0.0.0/8", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "169.254.0.0/16",
        "::1/128", "fc00::/7", "fe80::/10",
    )
)  # fmt: skip
EVERY_NETWORK: tuple[IPNetwork, ...] = (ipaddress.ip_network("0.0.0.0/0"), ipaddress.ip_network("::/0"))

REFUSALS = {
    "public": None,
    "loopback": "loopback_address",
    "private": "private_address",
    "link-local": "link_local_address",
    "metadata": "metadata_address",
    "reserved": "non_public_address",
}

# host, classification, allowed by default, allowed with the private networks opened
ADDRESSES: list[tuple[str, str, bool, bool]] = [
    # Ordinary public addresses stay allowed, in every form that leads to them.
    ("8.8.8.8", "public", True, True),
    ("1.1.1.1", "public", True, True),
    ("93.184.216.34", "public", True, True),
    ("172.32.0.1", "public", True, True),  # just past 172.16/12
    ("100.128.0.1", "public", True, True),  # just past the shared 100.64/10
    ("192.0.1.1", "public", True, True),  # just past 192.0.0.0/24
    ("2606:4700::1111", "public", True, True),
    ("2606:2800:220:1::1", "public", True, True),
    ("2001:4860:4860::8888", "public", True, True),
    ("2001:200::1", "public", True, True),  # just past 2001::/23
    ("::ffff:8.8.8.8", "public", True, True),
    ("64:ff9b::8.8.8.8", "public", True, True),  # DNS64/NAT64 answer for a public host
    ("2002:808:808::1", "public", True, True),  # 6to4
    ("http://93.184.216.34/", "public", True, True),
    ("http://[2606:4700::1111]:8443/x", "public", True, True),
    # Loopback, in the forms that still reach it.
    ("127.0.0.1", "loopback", False, True),
    ("127.255.255.254", "loopback", False, True),
    ("::1", "loopback", False, True),
    ("::ffff:127.0.0.1", "loopback", False, True),
    ("::127.0.0.1", "loopback", False, True),  # IPv4-compatible
    ("::ffff:0:127.0.0.1", "loopback", False, True),  # IPv4-translated
    ("64:ff9b::127.0.0.1", "loopback", False, True),
    ("2002:7f00:1::", "loopback", False, True),
    ("2130706433", "loopback", False, True),  # decimal
    ("0x7f000001", "loopback", False, True),  # hex
    ("0x7f.1", "loopback", False, True),
    ("0177.0.0.1", "loopback", False, True),  # octal
    ("127.1", "loopback", False, True),
    ("127.0.0.1.", "loopback", False, True),
    ("0.0.0.0", "loopback", False, False),  # noqa: S104 - a connection to it reaches the server itself
    ("::", "loopback", False, False),
    ("http://127.0.0.1:8080/", "loopback", False, True),
    ("http://[::1]/", "loopback", False, True),
    ("http://0x7f.1/", "loopback", False, True),
    ("http://１２７.０.０.１/", "loopback", False, True),  # full-width digits, folded by IDNA
    # Private networks: refused by default, allowed once opened, wrapped or not.
    ("10.0.0.1", "private", False, True),
    ("172.16.5.4", "private", False, True),
    ("192.168.1.20", "private", False, True),
    ("012.0.0.1", "private", False, True),  # octal 10.0.0.1
    ("0xc0a80114", "private", False, True),  # hex 192.168.1.20
    ("fd12::1", "private", False, True),
    ("fc00::1", "private", False, True),
    ("::ffff:10.0.0.1", "private", False, True),
    ("::10.0.0.1", "private", False, True),
    ("::ffff:0:10.0.0.1", "private", False, True),
    ("64:ff9b::10.0.0.1", "private", False, True),
    ("2002:c0a8:114::", "private", False, True),
    ("fec0::1", "private", False, False),  # deprecated site-local: not in fc00::/7
    ("http://[::ffff:10.0.0.1]/", "private", False, True),
    # Link-local: opened with its network, but never reached through a wrapper.
    ("169.254.1.1", "link-local", False, True),
    ("fe80::1", "link-local", False, True),
    ("fe80::1%eth0", "link-local", False, True),
    ("http://[fe80::1%25eth0]/", "link-local", False, True),
    ("::ffff:169.254.1.1", "link-local", False, False),
    ("::169.254.1.1", "link-local", False, False),
    ("::ffff:0:169.254.1.1", "link-local", False, False),
    ("64:ff9b::169.254.1.1", "link-local", False, False),
    ("2002:a9fe:101::", "link-local", False, False),
    # Cloud metadata: never, in any form, whatever is opened.
    ("169.254.169.254", "metadata", False, False),
    ("169.254.170.2", "metadata", False, False),
    ("168.63.129.16", "metadata", False, False),
    ("100.100.100.200", "metadata", False, False),
    ("192.0.0.192", "metadata", False, False),  # Oracle Cloud
    ("fd00:ec2::254", "metadata", False, False),
    ("fe80::a9fe:a9fe", "metadata", False, False),  # OpenStack over IPv6
    ("fe80::a9fe:a9fe%eth0", "metadata", False, False),
    ("::ffff:169.254.169.254", "metadata", False, False),
    ("::ffff:a9fe:a9fe", "metadata", False, False),
    ("::169.254.169.254", "metadata", False, False),  # IPv4-compatible
    ("::ffff:0:169.254.169.254", "metadata", False, False),  # IPv4-translated
    ("64:ff9b::169.254.169.254", "metadata", False, False),
    ("64:ff9b:1::a9fe:a9fe", "metadata", False, False),  # local-use NAT64, /96 layout
    ("64:ff9b:1:a9fe:a9:fe00::", "metadata", False, False),  # local-use NAT64, /48 layout
    ("64:ff9b:1:a9:fe:a9fe::", "metadata", False, False),  # local-use NAT64, /56 layout
    ("64:ff9b:1:0:a9:fea9:fe00:0", "metadata", False, False),  # local-use NAT64, /64 layout
    ("2002:a9fe:a9fe::", "metadata", False, False),  # 6to4
    ("2001:0:4136:e378:8000:63bf:5601:5601", "metadata", False, False),  # Teredo client
    ("2852039166", "metadata", False, False),
    ("0xa9fea9fe", "metadata", False, False),
    ("0xa9.0xfe.0xa9.0xfe", "metadata", False, False),
    ("0251.0376.0251.0376", "metadata", False, False),
    ("169.254.43518", "metadata", False, False),
    ("169.254.169.254.", "metadata", False, False),
    ("http://169.254.169.254/latest/meta-data/", "metadata", False, False),
    ("http://[::ffff:169.254.169.254]/", "metadata", False, False),
    ("http://[::a9fe:a9fe]/", "metadata", False, False),
    ("http://[64:ff9b:1::a9fe:a9fe]/", "metadata", False, False),
    ("http://2852039166/", "metadata", False, False),
    ("http://[fd00:ec2::254]/", "metadata", False, False),
    # Everything else that is not a public address: shared, reserved, special purpose.
    ("100.64.0.1", "reserved", False, True),
    ("0.1.2.3", "reserved", False, False),
    ("192.0.0.1", "reserved", False, False),
    ("192.0.0.9", "reserved", False, False),  # anycast to the nearest PCP server
    ("192.0.0.10", "reserved", False, False),
    ("192.0.0.170", "reserved", False, False),
    ("192.0.0.200", "reserved", False, False),
    ("192.0.2.1", "reserved", False, False),
    ("192.31.196.1", "reserved", False, False),
    ("192.88.99.1", "reserved", False, False),
    ("198.18.0.1", "reserved", False, False),
    ("198.51.100.7", "reserved", False, False),
    ("203.0.113.5", "reserved", False, False),
    ("224.0.0.1", "reserved", False, False),
    ("239.255.255.250", "reserved", False, False),
    ("240.0.0.1", "reserved", False, False),
    ("255.255.255.255", "reserved", False, False),
    ("64:ff9b:1::1", "reserved", False, False),  # local-use NAT64 (RFC 8215)
    ("64:ff9b:1::808:808", "reserved", False, False),
    ("2001::1", "reserved", False, False),  # Teredo
    ("2001:0:4136:e378:8000:63bf:3fff:fdd2", "reserved", False, False),
    ("2001:1::1", "reserved", False, False),
    ("2001:2::1", "reserved", False, False),
    ("2001:20::1", "reserved", False, False),
    ("2001:db8::1", "reserved", False, False),
    ("3fff::1", "reserved", False, False),
    ("5f00::1", "reserved", False, False),
    ("100::1", "reserved", False, False),
    ("4000::1", "reserved", False, False),
    ("ff02::1", "reserved", False, False),
    ("::ffff:0.1.2.3", "reserved", False, False),
    ("::ffff:192.0.0.9", "reserved", False, False),
]


def _no_lookups(host: str) -> list[str]:
    pytest.fail(f"the guard asked the resolver about {host!r}")


def _refusal(guard: NetworkGuard, host: str) -> str | None:
    if "://" in host:
        host = origin_of(host).host
    try:
        guard.resolve(host)
    except AddressRefused as refused:
        return refused.reason
    return None


@pytest.mark.parametrize(("host", "classification", "by_default", "with_private_opened"), ADDRESSES)
def test_an_address_is_judged_by_what_it_reaches(
    host: str, classification: str, by_default: bool, with_private_opened: bool
) -> None:
    refusal = _refusal(NetworkGuard(resolver=_no_lookups), host)
    assert refusal == REFUSALS[classification]
    assert (refusal is None) is by_default
    opened = NetworkGuard(opened_networks=PRIVATE_NETWORKS, resolver=_no_lookups)
    assert (_refusal(opened, host) is None) is with_private_opened


METADATA = [host for host, classification, _, _ in ADDRESSES if classification == "metadata"]
WRAPPED_LINK_LOCAL = [
    host for host, classification, _, opened in ADDRESSES if classification == "link-local" and not opened
]


@pytest.mark.parametrize("host", METADATA)
def test_metadata_is_refused_in_every_form_with_every_network_opened(host: str) -> None:
    assert _refusal(NetworkGuard(opened_networks=EVERY_NETWORK, resolver=_no_lookups), host) == "metadata_address"


@pytest.mark.parametrize("host", WRAPPED_LINK_LOCAL)
def test_a_wrapped_link_local_address_is_refused_with_every_network_opened(host: str) -> None:
    assert _refusal(NetworkGuard(opened_networks=EVERY_NETWORK, resolver=_no_lookups), host) == "link_local_address"


def test_a_name_is_refused_when_any_answer_wraps_metadata() -> None:
    answers = {"cdn.example": ["93.184.216.34", "::ffff:0:169.254.169.254"], "nat.example": ["64:ff9b:1::a9fe:a9fe"]}
    guard = NetworkGuard(opened_networks=EVERY_NETWORK, resolver=lambda host: answers[host])
    for host in answers:
        with pytest.raises(AddressRefused) as refused:
            guard.resolve(host)
        assert refused.value.reason == "metadata_address"


@pytest.mark.parametrize("host", ["1.2.3.4.5", "256.0.0.1", "4294967296", "0x7g.1", "09.0.0.1", "shop.0x10"])
def test_a_host_ending_in_a_number_that_is_no_address_is_refused_without_a_lookup(host: str) -> None:
    # Browsers refuse such hosts; the system resolver would send some of them to DNS.
    assert _refusal(NetworkGuard(opened_networks=EVERY_NETWORK, resolver=_no_lookups), host) == "unresolvable"


def test_a_name_that_only_looks_numeric_is_resolved() -> None:
    asked: list[str] = []

    def resolver(host: str) -> list[str]:
        asked.append(host)
        return ["93.184.216.34"]

    guard = NetworkGuard(resolver=resolver)
    assert [str(address) for address in guard.resolve("0x7f.example")] == ["93.184.216.34"]
    assert asked == ["0x7f.example"]


@pytest.mark.parametrize("block", [*IPV4_SPECIAL_PURPOSE, *IPV6_SPECIAL_PURPOSE], ids=lambda block: str(block.network))
def test_every_registry_entry_is_refused_even_where_iana_says_globally_reachable(block: SpecialPurposeBlock) -> None:
    # Those few are protocol anycast, reaching the nearest instance of a service, or identifiers.
    assert classify_address(block.network.network_address) is not None
    assert classify_address(block.network.broadcast_address) is not None
