"""Whether the process that holds some work still exists: the test a starting worker applies to its dead peers.

Work held by a process records ``host:pid`` (a turn's conductor, a browser
slot's holder, a batch's lease). On the same host, a pid that no longer
exists means its holder died — killed outright, with no chance to clean up.
On another host nothing can be told; leases and time limits cover that.
"""

from __future__ import annotations

import os
import socket


def process_alive(pid: int) -> bool:
    """Whether a process with ``pid`` exists on this host (one owned by another user counts)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # it exists, owned by someone else
    return True


def holder_died_here(holder: str) -> bool:
    """Whether ``holder`` (``host:pid``, maybe followed by ``#token``) was a process of this host that is gone."""
    host, _, pid_text = holder.partition("#")[0].rpartition(":")
    return host == socket.gethostname() and pid_text.isdigit() and not process_alive(int(pid_text))
