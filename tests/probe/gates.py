"""Cross-process gates kept in the Django cache (locmem in-process, Redis otherwise)."""

from django.core.cache import cache

GATE_TTL_SECONDS = 300


def _key(gate_id: str, name: str) -> str:
    return f"probe:{gate_id}:{name}"


def mark(gate_id: str, name: str) -> None:
    cache.set(_key(gate_id, name), True, GATE_TTL_SECONDS)


def is_marked(gate_id: str, name: str) -> bool:
    return bool(cache.get(_key(gate_id, name)))
