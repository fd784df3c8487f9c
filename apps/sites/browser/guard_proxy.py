"""The guard proxy: every connection the browser makes passes through here.

Each session's Chromium is given a SOCKS5 proxy on 127.0.0.1 and sends it
every connection: documents, sub-resources, redirect hops, WebSockets. The
browser does no name resolution of its own; the proxy resolves each host
with the session's :class:`~apps.sites.browser.network.NetworkGuard`, refuses if any
address is refused, and connects to the address it checked — so a name that
changes its answer between the check and the connection (DNS rebinding)
gains nothing.

The proxy also connects only to hosts the session's request check approved.
Chromium follows redirects without asking that check again, so a redirect to
a host never approved (another website, a private address) is refused here.
"""

from __future__ import annotations

import contextlib
import logging
import selectors
import socket
import struct
import threading
from collections import Counter
from collections.abc import Callable

from apps.sites.browser.network import AddressRefused, IPAddress, NetworkGuard

logger = logging.getLogger(__name__)

# Connect to one checked address; tests replace it to reach the fixture web
# behind a "public" address their resolver gave.
Dialer = Callable[[IPAddress, int, float], socket.socket]

CONNECT_TIMEOUT_SECONDS = 10.0
_HANDSHAKE_TIMEOUT_SECONDS = 10.0
_BUFFER = 64 * 1024

_SOCKS_VERSION = 5
_CONNECT = 1
_ATYP_IPV4, _ATYP_DOMAIN, _ATYP_IPV6 = 1, 3, 4
_REPLY_OK, _REPLY_NOT_ALLOWED, _REPLY_UNREACHABLE, _REPLY_UNSUPPORTED = 0, 2, 4, 7


def direct_dial(address: IPAddress, port: int, timeout: float) -> socket.socket:
    return socket.create_connection((str(address), port), timeout=timeout)


class _SocksError(Exception):
    pass


def _read_exactly(connection: socket.socket, count: int) -> bytes:
    data = b""
    while len(data) < count:
        chunk = connection.recv(count - len(data))
        if not chunk:
            raise _SocksError("closed during handshake")
        data += chunk
    return data


class GuardProxy:
    """A SOCKS5 proxy for one session: approved hosts only, allowed addresses only."""

    def __init__(self, guard: NetworkGuard, *, dial: Dialer = direct_dial) -> None:
        self._guard = guard
        self._dial = dial
        self._approved: set[tuple[str, int]] = set()
        self._lock = threading.Lock()
        self._refusals: Counter[str] = Counter()
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._stopping = threading.Event()
        self._threads: list[threading.Thread] = []
        self._open: set[socket.socket] = set()

    @property
    def url(self) -> str:
        return f"socks5://127.0.0.1:{self._listener.getsockname()[1]}"

    def approve(self, host: str, port: int) -> None:
        with self._lock:
            self._approved.add((host.lower(), port))

    def refusals(self) -> dict[str, int]:
        """Refused connections by reason (closed set: address refusals and ``not_approved``)."""
        with self._lock:
            return dict(self._refusals)

    def start(self) -> GuardProxy:
        thread = threading.Thread(target=self._accept, name="metnos-guard-proxy", daemon=True)
        thread.start()
        self._threads.append(thread)
        return self

    def stop(self) -> None:
        self._stopping.set()
        with contextlib.suppress(OSError):
            self._listener.shutdown(socket.SHUT_RDWR)
        self._listener.close()
        with self._lock:
            for connection in list(self._open):
                with contextlib.suppress(OSError):
                    connection.shutdown(socket.SHUT_RDWR)
        for thread in self._threads:
            thread.join(timeout=5)

    def _accept(self) -> None:
        while not self._stopping.is_set():
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            thread = threading.Thread(target=self._serve, args=(client,), name="metnos-guard-conn", daemon=True)
            thread.start()
            with self._lock:
                self._threads = [alive for alive in self._threads if alive.is_alive()]
                self._threads.append(thread)

    def _refuse(self, reason: str) -> None:
        with self._lock:
            self._refusals[reason] += 1

    def _serve(self, client: socket.socket) -> None:
        upstream: socket.socket | None = None
        with self._lock:
            self._open.add(client)
        try:
            client.settimeout(_HANDSHAKE_TIMEOUT_SECONDS)
            host, port = self._handshake(client)
            upstream = self._connect(client, host, port)
            if upstream is None:
                return
            with self._lock:
                self._open.add(upstream)
            _reply(client, _REPLY_OK)
            client.settimeout(None)
            upstream.settimeout(None)
            _relay(client, upstream, self._stopping)
        except (_SocksError, OSError):
            return
        finally:
            with self._lock:
                self._open.discard(client)
                if upstream is not None:
                    self._open.discard(upstream)
            client.close()
            if upstream is not None:
                upstream.close()

    def _handshake(self, client: socket.socket) -> tuple[str, int]:
        version, method_count = _read_exactly(client, 2)
        if version != _SOCKS_VERSION:
            raise _SocksError("not SOCKS5")
        _read_exactly(client, method_count)
        client.sendall(bytes([_SOCKS_VERSION, 0]))  # no authentication: the listener is on loopback
        version, command, _, address_type = _read_exactly(client, 4)
        if version != _SOCKS_VERSION or command != _CONNECT:
            _reply(client, _REPLY_UNSUPPORTED)
            raise _SocksError("unsupported command")
        if address_type == _ATYP_IPV4:
            host = socket.inet_ntop(socket.AF_INET, _read_exactly(client, 4))
        elif address_type == _ATYP_IPV6:
            host = socket.inet_ntop(socket.AF_INET6, _read_exactly(client, 16))
        elif address_type == _ATYP_DOMAIN:
            host = _read_exactly(client, _read_exactly(client, 1)[0]).decode("ascii", "replace")
        else:
            _reply(client, _REPLY_UNSUPPORTED)
            raise _SocksError("unsupported address type")
        (port,) = struct.unpack("!H", _read_exactly(client, 2))
        return host.lower().rstrip("."), port

    def _connect(self, client: socket.socket, host: str, port: int) -> socket.socket | None:
        try:
            addresses = self._guard.resolve(host)
        except AddressRefused as refused:
            self._refuse(refused.reason)
            _reply(client, _REPLY_NOT_ALLOWED)
            return None
        with self._lock:
            approved = (host, port) in self._approved
        if not approved:
            self._refuse("not_approved")
            _reply(client, _REPLY_NOT_ALLOWED)
            return None
        for address in addresses:
            try:
                return self._dial(address, port, CONNECT_TIMEOUT_SECONDS)
            except OSError:
                continue
        _reply(client, _REPLY_UNREACHABLE)
        return None


def _reply(client: socket.socket, code: int) -> None:
    with contextlib.suppress(OSError):
        client.sendall(bytes([_SOCKS_VERSION, code, 0, _ATYP_IPV4, 0, 0, 0, 0, 0, 0]))


def _relay(client: socket.socket, upstream: socket.socket, stopping: threading.Event) -> None:
    """Copy bytes both ways until both sides have finished (half-closes are passed on)."""
    selector = selectors.DefaultSelector()
    peers = {client: upstream, upstream: client}
    for end in peers:
        selector.register(end, selectors.EVENT_READ)
    open_ends = 2
    try:
        while open_ends and not stopping.is_set():
            for key, _ in selector.select(timeout=1.0):
                source: socket.socket = key.fileobj  # type: ignore[assignment]
                try:
                    data = source.recv(_BUFFER)
                except OSError:
                    data = b""
                if data:
                    peers[source].sendall(data)
                    continue
                selector.unregister(source)
                open_ends -= 1
                with contextlib.suppress(OSError):
                    peers[source].shutdown(socket.SHUT_WR)
    finally:
        selector.close()
