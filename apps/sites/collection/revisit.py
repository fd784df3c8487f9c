"""Finding a control again after returning to a page, without guessing.

On a fresh read of a page the document is new, so a control is found again
by its identity alone: frame, role, accessible name, visible text, section
title, the visible text of its own row and its structural fingerprint.
Identical buttons ("Download" on every row) differ by their row; rows that
read the same leave their controls ambiguous, and an ambiguous control is
never chosen, least of all by its position.

A control belongs to a record row when its row text shows every cell of that
row whole (:func:`apps.sites.collection.reading.row_matches`): "INV-2026-001" is not found inside
"INV-2026-0011", so a longer identifier never makes a shorter one's control
ambiguous.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal
from urllib.parse import urlsplit, urlunsplit

from apps.sites.observation.snapshot import Control, ControlIdentity, Snapshot

FoundKind = Literal["found", "missing", "ambiguous"]


@dataclass(frozen=True)
class FoundAgain:
    kind: FoundKind
    control: Control | None = None


def identity_key(control: Control | ControlIdentity) -> ControlIdentity:
    """What identifies a control across reads of its page (never its position or document)."""
    return ControlIdentity(
        control.frame_path, control.role, control.name, control.text, control.section, control.row, control.fingerprint
    )


def find_again(snapshot: Snapshot, control: Control | ControlIdentity) -> FoundAgain:
    """The one control of ``snapshot`` with the identity of ``control``, or why there is none."""
    wanted = identity_key(control)
    matches = [candidate for candidate in snapshot.controls if identity_key(candidate) == wanted]
    if not matches:
        return FoundAgain("missing")
    if len(matches) == 1 and not matches[0].ambiguous:
        return FoundAgain("found", matches[0])
    if same_address(matches):
        # Identical links to one address ("Next page" above and below a list): following that
        # address chooses no element, so none is chosen by position.
        return FoundAgain("found", matches[0])
    return FoundAgain("ambiguous")


def same_address(controls: list[Control] | tuple[Control, ...]) -> bool:
    """Whether every control is a link to the same address (their ambiguity does not matter then)."""
    addresses = {page_address(control.href) for control in controls if control.role == "link" and control.href}
    return len(addresses) == 1 and all(control.role == "link" and control.href for control in controls)


def page_address(url: str) -> str:
    """An address without its fragment, so "#top" does not make another page."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return url
    return urlunsplit((parts.scheme.lower(), parts.netloc.lower(), parts.path or "/", parts.query, ""))
