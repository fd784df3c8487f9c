"""Text from the outside world, made safe for every store.

File names, file contents, page text and model answers can hold what no
database stores as text: the NUL character (PostgreSQL refuses it in text
and in JSON), and lone surrogates — what Python makes of bytes that are not
valid UTF-8 in a file name (``os.fsdecode``), or what a JSON escape such as
``"\\udc80"`` decodes to. Neither SQLite nor PostgreSQL accepts them once
encoded, and an answer holding one cannot be encoded as UTF-8 for a page.

:func:`storable_text` and :func:`storable_value` replace them: an undecodable
byte of a file name becomes its escape (``\\xff``, so the name stays
recognisable), any other lone surrogate and NUL become U+FFFD, the
replacement character. The model fields of :mod:`apps.core.fields` apply
them to every value written, so no record fails for its text; the invocation
boundary applies them to each step's result first, so the person is told
(:data:`REPLACED_NOTICE`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any, Final

REPLACEMENT: Final = "\ufffd"
# What no store takes: NUL and lone surrogates, raw (in a Python string) …
_UNSTORABLE: Final = re.compile("[\x00\ud800-\udfff]")
# … or as JSON escapes, as json.dumps writes them (ensure_ascii).
# A pair of surrogate escapes is one character (an emoji, say): only a lone one counts.
_UNSTORABLE_ESCAPE: Final = re.compile(
    r"\\u0000"
    r"|\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})"
    r"|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}"
)
# os.fsdecode turns each undecodable byte 0x80-0xFF into U+DC80-U+DCFF.
_ESCAPED_BYTE_LOW, _ESCAPED_BYTE_HIGH = 0xDC80, 0xDCFF


def _replacement(match: re.Match[str]) -> str:
    code = ord(match.group(0))
    if _ESCAPED_BYTE_LOW <= code <= _ESCAPED_BYTE_HIGH:
        return f"\\x{code - 0xDC00:02x}"
    return REPLACEMENT


def holds_unstorable(text: str) -> bool:
    """Whether ``text`` holds NUL or a lone surrogate (what :func:`storable_text` replaces)."""
    return _UNSTORABLE.search(text) is not None


def storable_text(text: str) -> tuple[str, int]:
    """``text`` with NUL and lone surrogates replaced, and how many were.

    A well-formed surrogate pair cannot occur in a Python string (it holds the
    character itself), so every surrogate found is alone.
    """
    if _UNSTORABLE.search(text) is None:
        return text, 0
    return _UNSTORABLE.subn(_replacement, text)


def storable_value(value: Any) -> tuple[Any, int]:
    """A JSON-like ``value`` with every string in it (keys too) made storable, and how many characters changed.

    Mappings become dicts and tuples lists only where something changed.
    """
    if isinstance(value, str):
        return storable_text(value)
    if isinstance(value, Mapping):
        changed, items = 0, {}
        for key, item in value.items():
            new_key, key_count = storable_value(key) if isinstance(key, str) else (key, 0)
            new_item, item_count = storable_value(item)
            items[new_key] = new_item
            changed += key_count + item_count
        return (items, changed) if changed else (value, 0)
    if isinstance(value, list | tuple):
        results = [storable_value(item) for item in value]
        changed = sum(count for _, count in results)
        return ([item for item, _ in results], changed) if changed else (value, 0)
    return value, 0


def needs_storable(value: Any) -> bool:
    """Whether a JSON-like ``value`` holds anything :func:`storable_value` would replace.

    One pass of the C encoder over the value, then a search of its text: far
    cheaper than walking a large result in Python when (nearly always)
    nothing needs replacing.
    """
    if isinstance(value, str):
        return holds_unstorable(value)
    try:
        encoded = json.dumps(value, default=str)
    except (TypeError, ValueError):
        return True  # let the walk find what it can; the store reports the rest
    return _UNSTORABLE_ESCAPE.search(encoded) is not None


def stored_json_text_needs_storable(text: str) -> bool:
    """Whether JSON text read back from a store holds NUL or a lone surrogate (rows written before this module)."""
    return holds_unstorable(text) or _UNSTORABLE_ESCAPE.search(text) is not None


REPLACED_NOTICE: Final = (
    "{count} character(s) in what was read could not be stored as they were (an invalid character or "
    "a file name that is not valid UTF-8) and were replaced: \ufffd stands for a replaced character, "
    "\\xNN for a byte of a file name."
)
