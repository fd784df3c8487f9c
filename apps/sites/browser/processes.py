"""Finding and ending a session's Chromium by the marker on its command line.

Playwright does not expose the browser's process id, so each session's
Chromium carries ``--metnos-session=<token>`` (Chromium ignores switches it
does not know). Ending a browser by force is the last resort: after "Close
the web sessions" once the grace time has passed, or when a session lost its
slot and must not keep a ninth browser alive.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

MARKER_SWITCH = "--metnos-session"


def session_marker(token: str) -> str:
    return f"{MARKER_SWITCH}={token}"


def _command_lines() -> list[tuple[int, list[bytes]]]:
    lines = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            lines.append((int(entry.name), (entry / "cmdline").read_bytes().split(b"\0")))
        except OSError:
            continue  # the process ended meanwhile
    return lines


def browser_processes(token: str) -> list[int]:
    """Process ids whose command line carries this session's marker (Linux ``/proc``)."""
    marker = session_marker(token).encode()
    return [pid for pid, arguments in _command_lines() if marker in arguments]


def live_session_tokens(*, descendants_of: int | None = None) -> set[str]:
    """The sessions whose browser is running now: on this machine, or started under one process."""
    prefix = MARKER_SWITCH.encode() + b"="
    lines = _command_lines()
    family = process_descendants(descendants_of) if descendants_of is not None else None
    return {
        argument[len(prefix) :].decode()
        for pid, arguments in lines
        if family is None or pid in family
        for argument in arguments
        if argument.startswith(prefix)
    }


def process_descendants(root: int) -> set[int]:
    """``root`` and every process started under it, at any depth."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
    family, frontier = {root}, [root]
    while frontier:
        parent = frontier.pop()
        children = [pid for pid, ppid in parents.items() if ppid == parent and pid not in family]
        family.update(children)
        frontier.extend(children)
    return family


def browser_kill(token: str) -> int:
    """End this session's browser processes at once; how many were signalled."""
    signalled = 0
    for pid in browser_processes(token):
        try:
            os.kill(pid, signal.SIGKILL)
            signalled += 1
        except (ProcessLookupError, PermissionError):
            continue
    return signalled


def browser_wait_gone(token: str, *, timeout: float = 5.0) -> bool:
    """Wait until this session's browser has exited, ending it by force after ``timeout`` seconds.

    A session frees its slot only after this, so a browser still shutting
    down never overlaps the next session's: eight at most, strictly. Whether
    it is gone.
    """
    for forced in (False, True):
        deadline = time.monotonic() + timeout
        while browser_processes(token):
            if time.monotonic() >= deadline:
                break
            time.sleep(0.05)
        else:
            return True
        if not forced:
            browser_kill(token)
    return False
