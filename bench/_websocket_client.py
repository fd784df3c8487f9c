"""A lean WebSocket client for benchmarks: many connections in one asyncio process.

The clients share two cores with the server they measure, so their own cost
per message lands in every latency. This one does only what RFC 6455 asks
of a client that listens: the opening handshake (with the ``Origin`` and
``Cookie`` a browser sends, and the server's ``Sec-WebSocket-Accept``
checked), unmasked server frames, answers to pings, and a masked close.
Parsing a step event and decoding its JSON takes about 10 µs of Python;
what remains of a client's cost per message is the kernel's socket work.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import os
import struct
import time
from collections.abc import Callable

_ACCEPT_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
OP_TEXT, OP_CLOSE, OP_PING, OP_PONG = 0x1, 0x8, 0x9, 0xA
CLOSE_NORMAL = 1000


class ProtocolViolation(Exception):
    """The server sent something a browser would refuse."""


def expected_accept(key: bytes) -> bytes:
    return base64.b64encode(hashlib.sha1(key + _ACCEPT_GUID).digest())  # noqa: S324 - RFC 6455 asks for SHA-1


def masked_frame(opcode: int, payload: bytes) -> bytes:
    """A final client frame: clients must mask what they send."""
    mask = os.urandom(4)
    length = len(payload)
    if length < 126:
        header = struct.pack("!BB", 0x80 | opcode, 0x80 | length)
    elif length < 1 << 16:
        header = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, length)
    else:
        header = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, length)
    return header + mask + bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))


class LeanClient(asyncio.Protocol):
    """One connection; ``on_text(payload, arrived_at)`` sees every text message as it is parsed."""

    def __init__(self, *, host: str, path: str, origin: str, cookie: str, on_text: Callable[[bytes, float], None]):
        loop = asyncio.get_running_loop()
        self.opened: asyncio.Future[bool] = loop.create_future()
        self.closed: asyncio.Future[bool] = loop.create_future()
        self.violations = 0
        self._on_text = on_text
        self._key = base64.b64encode(os.urandom(16))
        self._request = (
            f"GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {self._key.decode()}\r\nSec-WebSocket-Version: 13\r\n"
            f"Origin: {origin}\r\nCookie: {cookie}\r\n\r\n"
        ).encode()
        self._buffer = bytearray()
        self._handshaken = False
        self._closing = False
        self._transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self._transport = transport
        transport.write(self._request)

    def data_received(self, data: bytes) -> None:
        self._buffer += data
        if not self._handshaken and not self._read_handshake():
            return
        try:
            self._read_frames()
        except ProtocolViolation as violation:
            self.violations += 1
            self._fail(violation)

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.opened.done():
            self.opened.set_exception(ConnectionError(f"closed during the handshake: {exc}"))
        if not self.closed.done():
            self.closed.set_result(True)

    def close(self) -> None:
        """Start the closing handshake; ``closed`` resolves when the server has answered."""
        if self._transport is not None and not self._closing and not self._transport.is_closing():
            self._closing = True
            self._transport.write(masked_frame(OP_CLOSE, struct.pack("!H", CLOSE_NORMAL)))

    def abort(self) -> None:
        if self._transport is not None:
            self._transport.abort()

    def _read_handshake(self) -> bool:
        end = self._buffer.find(b"\r\n\r\n")
        if end < 0:
            return False
        head = bytes(self._buffer[:end]).decode("latin-1").split("\r\n")
        del self._buffer[: end + 4]
        headers = {name.strip().lower(): value.strip() for name, _, value in (line.partition(":") for line in head[1:])}
        if (
            not head[0].startswith("HTTP/1.1 101 ")
            or headers.get("sec-websocket-accept") != expected_accept(self._key).decode()
        ):
            self._fail(ConnectionError(f"handshake refused: {head[0]}"))
            return False
        self._handshaken = True
        self.opened.set_result(True)
        return True

    def _read_frames(self) -> None:
        buffer, position = self._buffer, 0
        while len(buffer) - position >= 2:
            first, second = buffer[position], buffer[position + 1]
            if second & 0x80:
                raise ProtocolViolation("a server frame was masked")
            length, header = second & 0x7F, 2
            if length == 126:
                if len(buffer) - position < 4:
                    break
                length, header = struct.unpack_from("!H", buffer, position + 2)[0], 4
            elif length == 127:
                if len(buffer) - position < 10:
                    break
                length, header = struct.unpack_from("!Q", buffer, position + 2)[0], 10
            if len(buffer) - position < header + length:
                break
            payload = bytes(buffer[position + header : position + header + length])
            position += header + length
            self._frame(first, payload)
        del buffer[:position]

    def _frame(self, first: int, payload: bytes) -> None:
        opcode = first & 0x0F
        if opcode == OP_TEXT and first & 0x80:
            self._on_text(payload, time.monotonic())
        elif opcode == OP_CLOSE:
            if not self._closing:
                self.close()
            assert self._transport is not None
            self._transport.close()
        elif opcode == OP_PING:
            assert self._transport is not None
            self._transport.write(masked_frame(OP_PONG, payload))
        elif opcode != OP_PONG:
            # The events are short texts: a fragment or binary frame is unexpected.
            raise ProtocolViolation(f"unexpected frame (opcode {opcode}, final {bool(first & 0x80)})")

    def _fail(self, error: Exception) -> None:
        if not self.opened.done():
            self.opened.set_exception(error)
        self.abort()
