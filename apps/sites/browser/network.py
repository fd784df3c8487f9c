"""The network guard: no way into the server's own network through the browser.

The managed browser runs on the server on behalf of many users, so by default
it reaches only public addresses: loopback, private, link-local, cloud
metadata and other non-public addresses are refused. A host name is resolved
here (never trusted to the browser) and refused if *any* of its addresses is
refused, so a name cannot smuggle a private address in beside a public one.

``METNOS_SITES_ALLOW_PRIVATE`` opens named networks (the test suite opens
loopback only). Cloud metadata addresses stay refused even inside an opened
network: nothing a website does needs the server's instance credentials.

The guard's decisions carry a reason from a closed set and nothing else: no
address, no host, no page data reaches a record.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal, cast, get_args

from django.conf import settings

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network

# Host name -> the addresses it resolves to (as text). Tests inject their own.
Resolver = Callable[[str], Sequence[str]]

AddressRefusal = Literal["loopback_address", "private_address", "link_local_address", "metadata_address",
                         "non_public_address", "unresolvable"]  # fmt: skip
ADDRESS_REFUSALS: frozenset[str] = frozenset(get_args(AddressRefusal))

# What sub-resource requests to hosts outside the authorized websites may reach:
# ``any`` public host, only hosts in the ``opened`` networks, or ``none``.
OutsideRequests = Literal["any", "opened", "none"]
OUTSIDE_REQUEST_POLICIES: tuple[str, ...] = get_args(OutsideRequests)

# Instance metadata and platform services of the common clouds (AWS, GCP,
# Azure, Alibaba, ECS task metadata, AWS over IPv6). 168.63.129.16 is a public
# address that Azure routes to its own platform.
CLOUD_METADATA_ADDRESSES: frozenset[IPAddress] = frozenset(
    ipaddress.ip_address(text)
    for text in ("169.254.169.254", "169.254.170.2", "168.63.129.16", "100.100.100.200", "fd00:ec2::254")
)
_NAT64 = ipaddress.ip_network("64:ff9b::/96")


class AddressRefused(Exception):
    """A host whose addresses the guard refuses; ``reason`` is from :data:`AddressRefusal`."""

    def __init__(self, reason: AddressRefusal) -> None:
        super().__init__(reason)
        self.reason: AddressRefusal = reason


def system_resolver(host: str) -> list[str]:
    """Every address the system resolver gives for ``host``; none when it cannot resolve."""
    try:
        infos = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        return []
    return [str(info[4][0]) for info in infos]


def _embedded_ipv4(address: IPAddress) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 one stands for (mapped, 6to4, NAT64), which is where it leads."""
    if not isinstance(address, ipaddress.IPv6Address):
        return None
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address in _NAT64:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return None


def classify_address(address: IPAddress) -> AddressRefusal | None:
    """Why ``address`` is not public, or ``None`` for a public address."""
    embedded = _embedded_ipv4(address)
    if embedded is not None:
        return classify_address(embedded)
    if address in CLOUD_METADATA_ADDRESSES:
        return "metadata_address"
    if address.is_loopback:
        return "loopback_address"
    if address.is_link_local:
        return "link_local_address"
    if address.is_private:
        return "private_address"
    if not address.is_global or address.is_multicast:
        return "non_public_address"
    return None


def parse_address(text: str) -> IPAddress | None:
    try:
        return ipaddress.ip_address(text.split("%", 1)[0].strip("[]"))
    except ValueError:
        return None


@dataclass(frozen=True)
class NetworkGuard:
    """Decides which addresses the browser may connect to."""

    opened_networks: tuple[IPNetwork, ...] = ()
    resolver: Resolver = field(default=system_resolver, compare=False)
    outside_requests: OutsideRequests = "any"

    @classmethod
    def from_settings(cls, *, resolver: Resolver | None = None) -> NetworkGuard:
        return cls(
            opened_networks=tuple(settings.METNOS_SITES_ALLOW_PRIVATE),
            resolver=resolver or system_resolver,
            outside_requests=cast(OutsideRequests, settings.METNOS_SITES_OUTSIDE_REQUESTS),
        )

    def is_opened(self, address: IPAddress) -> bool:
        embedded = _embedded_ipv4(address) or address
        return any(embedded in network for network in self.opened_networks if network.version == embedded.version)

    def refusal_for(self, address: IPAddress) -> AddressRefusal | None:
        """Why the browser may not connect to ``address``; ``None`` when it may."""
        refusal = classify_address(address)
        if refusal is None or refusal == "metadata_address":
            return refusal
        return None if self.is_opened(address) else refusal

    def resolve(self, host: str) -> list[IPAddress]:
        """The addresses of ``host``, all of them allowed, or :class:`AddressRefused`.

        An address literal is not resolved. Resolution failing, or giving
        nothing usable, is ``unresolvable``.
        """
        literal = parse_address(host)
        parsed = [literal] if literal is not None else [parse_address(text) for text in self.resolver(host)]
        addresses = [address for address in parsed if address is not None]
        if not addresses or len(addresses) != len(parsed):
            raise AddressRefused("unresolvable")
        for address in addresses:
            refusal = self.refusal_for(address)
            if refusal is not None:
                raise AddressRefused(refusal)
        return list(dict.fromkeys(addresses))

    def all_opened(self, addresses: Sequence[IPAddress]) -> bool:
        """Whether every address lies in an opened network (the ``opened`` policy)."""
        return bool(addresses) and all(self.is_opened(address) for address in addresses)
