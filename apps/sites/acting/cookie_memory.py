"""Remembered cookie decisions, per owner, for one browser session.

A decision pairs a notice's identity (the page's origin, the panel's frame
path and its key: kind, structural fingerprint and name) with the identity of
the control that rejected it. A decision is never trusted as it stands: the
procedure uses it only when the current observation shows the same panel
holding exactly one control with that identity, and the control's visible
label still reads as rejection. Otherwise the decision is forgotten and the
notice is read afresh.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from urllib.parse import urlsplit

from apps.sites.observation.snapshot import ControlIdentity, FramePath, Panel

MAX_DECISIONS = 200


@dataclass(frozen=True)
class NoticeIdentity:
    origin: str
    frame_path: FramePath
    panel_key: str


def notice_identity(page_url: str, panel: Panel) -> NoticeIdentity:
    parts = urlsplit(page_url)
    return NoticeIdentity(f"{parts.scheme}://{parts.netloc}", panel.frame_path, panel.key)


class ConsentMemory:
    """One owner's remembered rejections (in memory; a session holds one)."""

    def __init__(self, owner_id: int) -> None:
        self.owner_id = owner_id
        self._decisions: dict[NoticeIdentity, ControlIdentity] = {}
        self._lock = threading.Lock()

    def recall(self, notice: NoticeIdentity) -> ControlIdentity | None:
        with self._lock:
            return self._decisions.get(notice)

    def remember(self, notice: NoticeIdentity, control: ControlIdentity) -> None:
        with self._lock:
            self._decisions.pop(notice, None)
            self._decisions[notice] = control
            while len(self._decisions) > MAX_DECISIONS:
                self._decisions.pop(next(iter(self._decisions)))

    def forget(self, notice: NoticeIdentity) -> None:
        with self._lock:
            self._decisions.pop(notice, None)

    def __len__(self) -> int:
        with self._lock:
            return len(self._decisions)
