"""Which steps LRE runs item by item, and the bounds of a hand-off.

A step runs *per item* when its result for a batch of items is the union of
its results for each item (reading files, extracting entries): its input can
be split into batches. Any other step (a spreadsheet of everything, a
summary) runs once over the whole collection of the phase before it.
Executors declare this by registering here from their app's ``ready()``.
"""

from __future__ import annotations

from django.conf import settings

_per_item: set[str] = set()


def register_per_item(*names: str) -> None:
    """Declare executors whose work on a batch is the union of their work on each item."""
    _per_item.update(names)


def runs_per_item(name: str) -> bool:
    return name in _per_item


def handoff_threshold() -> int:
    """A per-item step over more items than this is handed to LRE instead of running in the turn."""
    return int(settings.METNOS_LRE_HANDOFF_ITEMS)


def batch_size() -> int:
    return int(settings.METNOS_LRE_BATCH_SIZE)


def lre_enabled() -> bool:
    """A disabled engine keeps reporting its presence but starts no batch."""
    return bool(settings.METNOS_LRE_ENABLED)
