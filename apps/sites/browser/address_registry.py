"""The IANA special-purpose address registries, as the network guard reads them.

Each entry is a row of the IANA IPv4 or IPv6 Special-Purpose Address
Registry (RFC 6890) with its name, its RFC and the registry's "Globally
Reachable" column (``None`` where the registry says N/A), plus the rows of
the IPv4 and IPv6 address-space registries that are not ordinary unicast:
multicast, and for IPv6 everything outside 2000::/3 (reserved by the IETF,
deprecated site-local). An address no entry holds is an ordinary public one.

``refusal`` is what the guard calls an address of the entry. Every entry is
refused, including the few the registry marks globally reachable: those are
protocol anycast (PCP, TURN, AMT, AS112, SRP), which reach the *nearest*
instance of a service and so may reach one on the server's own network, or
identifiers that are not locators (ORCHIDv2, DETs). No website lives there.

The blocks that embed an IPv4 address (IPv4-mapped, NAT64, 6to4, Teredo) are
listed for completeness; the guard unwraps them first
(:mod:`apps.sites.browser.network`). When the registries change, compare
https://www.iana.org/assignments/iana-ipv4-special-registry and
https://www.iana.org/assignments/iana-ipv6-special-registry with these rows.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from typing import Literal

# The address refusals an entry can give; metadata is decided before the registry.
BlockRefusal = Literal["loopback_address", "private_address", "link_local_address", "non_public_address"]


@dataclass(frozen=True)
class SpecialPurposeBlock:
    network: ipaddress.IPv4Network | ipaddress.IPv6Network
    name: str
    rfc: str
    globally_reachable: bool | None
    refusal: BlockRefusal


def _block(
    network: str, name: str, rfc: str, globally_reachable: bool | None, refusal: BlockRefusal = "non_public_address"
) -> SpecialPurposeBlock:
    return SpecialPurposeBlock(ipaddress.ip_network(network), name, rfc, globally_reachable, refusal)


IPV4_SPECIAL_PURPOSE: tuple[SpecialPurposeBlock, ...] = (
    _block("0.0.0.0/8", '"This network"', "RFC 791", False),
    # A connection to 0.0.0.0 reaches the server itself.
    _block("0.0.0.0/32", '"This host on this network"', "RFC 1122", False, "loopback_address"),
    _block("10.0.0.0/8", "Private-Use", "RFC 1918", False, "private_address"),
    _block("100.64.0.0/10", "Shared Address Space", "RFC 6598", False),
    _block("127.0.0.0/8", "Loopback", "RFC 1122", False, "loopback_address"),
    _block("169.254.0.0/16", "Link Local", "RFC 3927", False, "link_local_address"),
    _block("172.16.0.0/12", "Private-Use", "RFC 1918", False, "private_address"),
    _block("192.0.0.0/24", "IETF Protocol Assignments", "RFC 6890", False),
    _block("192.0.0.0/29", "IPv4 Service Continuity Prefix", "RFC 7335", False),
    _block("192.0.0.8/32", "IPv4 dummy address", "RFC 7600", False),
    _block("192.0.0.9/32", "Port Control Protocol Anycast", "RFC 7723", True),
    _block("192.0.0.10/32", "Traversal Using Relays around NAT Anycast", "RFC 8155", True),
    _block("192.0.0.170/32", "NAT64/DNS64 Discovery", "RFC 8880", False),
    _block("192.0.0.171/32", "NAT64/DNS64 Discovery", "RFC 8880", False),
    _block("192.0.2.0/24", "Documentation (TEST-NET-1)", "RFC 5737", False),
    _block("192.31.196.0/24", "AS112-v4", "RFC 7535", True),
    _block("192.52.193.0/24", "AMT", "RFC 7450", True),
    _block("192.88.99.0/24", "Deprecated (6to4 Relay Anycast)", "RFC 7526", None),
    _block("192.168.0.0/16", "Private-Use", "RFC 1918", False, "private_address"),
    _block("192.175.48.0/24", "Direct Delegation AS112 Service", "RFC 7534", True),
    _block("198.18.0.0/15", "Benchmarking", "RFC 2544", False),
    _block("198.51.100.0/24", "Documentation (TEST-NET-2)", "RFC 5737", False),
    _block("203.0.113.0/24", "Documentation (TEST-NET-3)", "RFC 5737", False),
    _block("240.0.0.0/4", "Reserved", "RFC 1112", False),
    _block("255.255.255.255/32", "Limited Broadcast", "RFC 919", False),
    # From the IPv4 address-space registry.
    _block("224.0.0.0/4", "Multicast", "RFC 5771", False),
)

IPV6_SPECIAL_PURPOSE: tuple[SpecialPurposeBlock, ...] = (
    _block("::1/128", "Loopback Address", "RFC 4291", False, "loopback_address"),
    # A connection to :: reaches the server itself.
    _block("::/128", "Unspecified Address", "RFC 4291", False, "loopback_address"),
    _block("::ffff:0:0/96", "IPv4-mapped Address", "RFC 4291", False),
    _block("64:ff9b::/96", "IPv4-IPv6 Translat.", "RFC 6052", True),
    _block("64:ff9b:1::/48", "IPv4-IPv6 Translat.", "RFC 8215", False),
    _block("100::/64", "Discard-Only Address Block", "RFC 6666", False),
    _block("2001::/23", "IETF Protocol Assignments", "RFC 2928", False),
    _block("2001::/32", "TEREDO", "RFC 4380", None),
    _block("2001:1::1/128", "Port Control Protocol Anycast", "RFC 7723", True),
    _block("2001:1::2/128", "Traversal Using Relays around NAT Anycast", "RFC 8155", True),
    _block("2001:1::3/128", "DNS-SD Service Registration Protocol Anycast", "RFC 9665", True),
    _block("2001:2::/48", "Benchmarking", "RFC 5180", False),
    _block("2001:3::/32", "AMT", "RFC 7450", True),
    _block("2001:4:112::/48", "AS112-v6", "RFC 7535", True),
    _block("2001:10::/28", "Deprecated (previously ORCHID)", "RFC 4843", None),
    _block("2001:20::/28", "ORCHIDv2", "RFC 7343", True),
    _block("2001:30::/28", "Drone Remote ID Protocol Entity Tags (DETs) Prefix", "RFC 9374", True),
    _block("2001:db8::/32", "Documentation", "RFC 3849", False),
    _block("2002::/16", "6to4", "RFC 3056", None),
    _block("2620:4f:8000::/48", "Direct Delegation AS112 Service", "RFC 7534", True),
    _block("3fff::/20", "Documentation", "RFC 9637", False),
    _block("5f00::/16", "Segment Routing (SRv6) SIDs", "RFC 9602", False),
    _block("fc00::/7", "Unique-Local", "RFC 4193", False, "private_address"),
    _block("fe80::/10", "Link-Local Unicast", "RFC 4291", False, "link_local_address"),
    # From the IPv6 address-space registry: all but 2000::/3 is not unicast in use.
    _block("::/8", "Reserved by IETF", "RFC 4291", False),
    _block("100::/8", "Reserved by IETF", "RFC 4291", False),
    _block("200::/7", "Reserved by IETF", "RFC 4048", False),
    _block("400::/6", "Reserved by IETF", "RFC 4291", False),
    _block("800::/5", "Reserved by IETF", "RFC 4291", False),
    _block("1000::/4", "Reserved by IETF", "RFC 4291", False),
    _block("4000::/3", "Reserved by IETF", "RFC 4291", False),
    _block("6000::/3", "Reserved by IETF", "RFC 4291", False),
    _block("8000::/3", "Reserved by IETF", "RFC 4291", False),
    _block("a000::/3", "Reserved by IETF", "RFC 4291", False),
    _block("c000::/3", "Reserved by IETF", "RFC 4291", False),
    _block("e000::/4", "Reserved by IETF", "RFC 4291", False),
    _block("f000::/5", "Reserved by IETF", "RFC 4291", False),
    _block("f800::/6", "Reserved by IETF", "RFC 4291", False),
    _block("fe00::/9", "Reserved by IETF", "RFC 4291", False),
    # The old private networks of IPv6: what they reach is the site's own network.
    _block("fec0::/10", "Deprecated site-local", "RFC 3879", False, "private_address"),
    _block("ff00::/8", "Multicast", "RFC 4291", False),
)

_MOST_SPECIFIC_FIRST = sorted(
    IPV4_SPECIAL_PURPOSE + IPV6_SPECIAL_PURPOSE, key=lambda block: block.network.prefixlen, reverse=True
)


def special_purpose_block(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> SpecialPurposeBlock | None:
    """The most specific entry that holds ``address``; ``None`` for an ordinary public address."""
    for block in _MOST_SPECIFIC_FIRST:
        if block.network.version == address.version and address in block.network:
            return block
    return None
