"""The network guard: no way into the server's own network through the browser.

The managed browser runs on the server on behalf of many users, so by default
it reaches only public addresses: loopback, private, link-local, cloud
metadata and other non-public addresses are refused. A host name is resolved
here (never trusted to the browser) and refused if *any* of its addresses is
refused, so a name cannot smuggle a private address in beside a public one.

An address is judged by what it reaches, not by how it is written. A host
that is a number in any form a browser or ``inet_aton`` takes (``2130706433``,
``0x7f.1``, ``0177.0.0.1``) is that IPv4 address, and is never looked up. An
IPv6 address that stands for an IPv4 one (IPv4-mapped, IPv4-compatible,
IPv4-translated, NAT64, 6to4) is judged as that IPv4 address; local-use NAT64
and Teredo, whose IPv4 address cannot be known for sure, are not public, and
count as metadata if any IPv4 address they may carry is. Then the address is
looked up in the IANA registries (:mod:`apps.sites.browser.address_registry`):
an address none of their entries holds is public.

``METNOS_SITES_ALLOW_PRIVATE`` opens named networks (the test suite opens
loopback only); a wrapped address is opened by the network of the IPv4
address it reaches. Cloud metadata addresses stay refused even inside an
opened network, and so does a link-local address reached through a wrapper:
nothing a website does needs the server's instance credentials, and no
translator has any business on the server's own link.

The guard's decisions carry a reason from a closed set and nothing else: no
address, no host, no page data reaches a record.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal, cast, get_args

from django.conf import settings

from apps.sites.browser.address_registry import special_purpose_block

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
# Azure, Alibaba, ECS task metadata, Oracle, AWS and OpenStack over IPv6).
# 168.63.129.16 is a public address that Azure routes to its own platform.
CLOUD_METADATA_ADDRESSES: frozenset[IPAddress] = frozenset(
    ipaddress.ip_address(text)
    for text in (
        "169.254.169.254", "169.254.170.2", "168.63.129.16", "100.100.100.200", "192.0.0.192",
        "fd00:ec2::254", "fe80::a9fe:a9fe",
    )
)  # fmt: skip
# Refusals no opened network lifts for an address reached through a wrapper.
_NEVER_OPENED_WHEN_WRAPPED: frozenset[AddressRefusal] = frozenset({"metadata_address", "link_local_address"})

# IPv6 forms that stand for exactly one IPv4 address, in their last 32 bits.
_IPV4_COMPATIBLE = ipaddress.ip_network("::/96")  # deprecated (RFC 4291)
_IPV4_TRANSLATED = ipaddress.ip_network("::ffff:0:0:0/96")  # SIIT (RFC 2765)
_NAT64 = ipaddress.ip_network("64:ff9b::/96")  # the well-known prefix (RFC 6052)
# Local-use NAT64 (RFC 8215): a translator's own prefix of /48 or longer inside it.
_LOCAL_NAT64 = ipaddress.ip_network("64:ff9b:1::/48")
_LOCAL_NAT64_PREFIX_LENGTHS = (48, 56, 64, 96)

# A number in a host, as browsers read it: decimal, octal after a 0, hex after 0x.
_NUMBER = re.compile(r"[0-9]+|0[xX][0-9a-fA-F]*")
_DIGITS = {16: re.compile(r"[0-9a-fA-F]*"), 8: re.compile(r"[0-7]*"), 10: re.compile(r"[0-9]+")}


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


def _rfc6052_ipv4(address: ipaddress.IPv6Address, prefix_length: int) -> ipaddress.IPv4Address:
    """The IPv4 address after a translator prefix of ``prefix_length`` bits (RFC 6052 section 2.2).

    The address follows the prefix, skipping bits 64-71 (the "u" octet).
    """
    if prefix_length == 96:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    window = (int(address) >> (128 - prefix_length - 40)) & (2**40 - 1)
    before_u = 64 - prefix_length
    high, low = window >> (40 - before_u), window & (2 ** (32 - before_u) - 1)
    return ipaddress.IPv4Address((high << (32 - before_u)) | low)


def _embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The one IPv4 address an IPv6 address stands for, which is where it leads."""
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address in _NAT64 or address in _IPV4_TRANSLATED or (address in _IPV4_COMPATIBLE and int(address) > 1):
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)  # (:: and ::1 are themselves)
    return None


def _possible_ipv4(address: ipaddress.IPv6Address) -> tuple[ipaddress.IPv4Address, ...]:
    """The IPv4 addresses a local-use NAT64 or Teredo address may lead to (which one is not known here)."""
    if address in _LOCAL_NAT64:
        return tuple(_rfc6052_ipv4(address, length) for length in _LOCAL_NAT64_PREFIX_LENGTHS)
    if address.teredo is not None:
        return address.teredo  # the Teredo server, and the client behind its NAT
    return ()


def _destination(address: IPAddress) -> IPAddress:
    """Where ``address`` leads: the IPv4 address an IPv6 form stands for, else the address without its zone."""
    if isinstance(address, ipaddress.IPv4Address):
        return address
    unzoned = ipaddress.IPv6Address(int(address))
    return _embedded_ipv4(unzoned) or unzoned


def _is_wrapped(address: IPAddress) -> bool:
    """Whether ``address`` reaches an IPv4 address through an IPv6 form (for sure, or maybe)."""
    destination = _destination(address)
    return destination.version != address.version or (
        isinstance(destination, ipaddress.IPv6Address) and bool(_possible_ipv4(destination))
    )


def classify_address(address: IPAddress) -> AddressRefusal | None:
    """Why ``address`` is not public, or ``None`` for a public address: judged by what it reaches."""
    destination = _destination(address)
    if destination in CLOUD_METADATA_ADDRESSES:
        return "metadata_address"
    if isinstance(destination, ipaddress.IPv6Address):
        for candidate in _possible_ipv4(destination):
            refusal = classify_address(candidate)
            if refusal in _NEVER_OPENED_WHEN_WRAPPED:
                return refusal
    block = special_purpose_block(destination)
    return None if block is None else block.refusal


def parse_address(text: str) -> IPAddress | None:
    """The address a host literal stands for, or ``None`` for a name.

    IPv6 may come in brackets and with a zone. IPv4 may come in every form
    browsers (the WHATWG URL standard) and ``inet_aton`` read: 1 to 4 parts,
    each decimal, octal (``0177``) or hex (``0x7f``), and a trailing dot.
    """
    host = text.split("%", 1)[0].strip("[]")
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        return _numeric_ipv4(host)


def _numeric_parts(host: str) -> list[str] | None:
    """The dot-separated parts of a host whose last part is a number, which browsers read as IPv4."""
    parts = host.split(".")
    if len(parts) > 1 and not parts[-1]:
        parts.pop()
    return parts if _NUMBER.fullmatch(parts[-1]) else None


def _ipv4_number(part: str) -> int | None:
    if part[:2] in ("0x", "0X"):
        digits, base = part[2:], 16
    elif len(part) > 1 and part.startswith("0"):
        digits, base = part[1:], 8
    else:
        digits, base = part, 10
    if not _DIGITS[base].fullmatch(digits):
        return None
    return int(digits, base) if digits else 0


def _numeric_ipv4(host: str) -> ipaddress.IPv4Address | None:
    parts = _numeric_parts(host)
    if parts is None or len(parts) > 4:
        return None
    numbers: list[int] = []
    for part in parts:
        number = _ipv4_number(part)
        if number is None:
            return None
        numbers.append(number)
    *leading, last = numbers
    # Every part but the last is one byte; the last fills the bytes left.
    if any(number > 255 for number in leading) or last >= 256 ** (5 - len(numbers)):
        return None
    return ipaddress.IPv4Address(sum(number << (8 * (3 - index)) for index, number in enumerate(leading)) + last)


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
        """Whether an opened network holds where ``address`` leads (for a wrapped address, its IPv4 address)."""
        destination = _destination(address)
        return any(destination in network for network in self.opened_networks if network.version == destination.version)

    def refusal_for(self, address: IPAddress) -> AddressRefusal | None:
        """Why the browser may not connect to ``address``; ``None`` when it may."""
        refusal = classify_address(address)
        if refusal is None or refusal == "metadata_address":
            return refusal
        if refusal in _NEVER_OPENED_WHEN_WRAPPED and _is_wrapped(address):
            return refusal
        return None if self.is_opened(address) else refusal

    def resolve(self, host: str) -> list[IPAddress]:
        """The addresses of ``host``, all of them allowed, or :class:`AddressRefused`.

        An address literal (:func:`parse_address`) is not resolved, nor is a
        host ending in a number that is no address. Resolution failing, or
        giving nothing usable, is ``unresolvable``.
        """
        literal = parse_address(host)
        if literal is None and _numeric_parts(host) is not None:
            raise AddressRefused("unresolvable")  # a number that is no address: browsers refuse it too
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
