"""Generated secrets and the texts that carry them, for the redaction tests of every sink.

A case is a set of secrets (4 or more characters, with characters that need
URL, JSON and HTML escaping and a canary character, often overlapping: one
extends, overlaps or contains another) and a text that embeds them, and the
string where they overlap, in each form a value takes in text. :func:`leaks` names every form
of every secret still found in a sink's output; :func:`strings_in` and
:func:`captured_log` collect a sink's output.
"""

from __future__ import annotations

import html
import io
import json
import logging
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from urllib.parse import quote, quote_plus

from hypothesis import strategies as st

from apps.core.redaction import MIN_SECRET_CHARS

FORMS: dict[str, Callable[[str], str]] = {
    "raw": lambda secret: secret,
    "quote": quote,
    "quote_no_safe": lambda secret: quote(secret, safe=""),
    "quote_plus": quote_plus,
    "quote_lower": lambda secret: _lower_percent(quote(secret, safe="")),
    "quote_plus_lower": lambda secret: _lower_percent(quote_plus(secret)),
    "json": lambda secret: json.dumps(secret)[1:-1],
    "json_unicode": lambda secret: json.dumps(secret, ensure_ascii=False)[1:-1],
    "html": html.escape,
    "html_no_quote": lambda secret: html.escape(secret, quote=False),
}

# Characters each encoding changes, letters and digits, and some beyond ASCII.
_SPECIAL = "%&<>\"'\\/+ #;=?\n\t[]"
_ALPHABET = st.one_of(
    st.sampled_from(_SPECIAL),
    st.sampled_from("abcdefXYZ0129-_.~"),
    st.sampled_from("éß€中😀"),
    st.characters(exclude_categories=["Cs"]),
)
# Every secret holds a canary character, found in no fixed text of a sink (its
# messages, field names, the marker): a secret in an output was leaked there.
CANARIES = "☃\ue000𝔠"
_FILLER = st.text(st.one_of(_ALPHABET, st.sampled_from(CANARIES)), max_size=8)


def _lower_percent(encoded: str) -> str:
    parts = encoded.split("%")
    return parts[0] + "".join("%" + part[:2].lower() + part[2:] for part in parts[1:])


@dataclass(frozen=True)
class Case:
    secrets: tuple[str, ...]
    text: str


@st.composite
def _canary_text(draw: st.DrawFn, min_size: int) -> tuple[str, int]:
    """A text of at least ``min_size`` characters holding a canary, and where the canary is."""
    left = draw(st.text(_ALPHABET, max_size=6))
    right = draw(st.text(_ALPHABET, min_size=max(0, min_size - 1 - len(left)), max_size=6))
    return left + draw(st.sampled_from(CANARIES)) + right, len(left)


@st.composite
def _secrets(draw: st.DrawFn) -> tuple[tuple[str, ...], str]:
    """Two secrets and a string holding both where they overlap."""
    first, canary = draw(_canary_text(MIN_SECRET_CHARS))
    relation = draw(st.sampled_from(["apart", "extends", "overlaps", "inside"]))
    if relation == "extends":  # hunter2 and hunter2-long
        second = first + draw(st.text(_ALPHABET, min_size=1, max_size=6))
        return (first, second), second
    if relation == "overlaps":  # abcd and bcde: together abcde
        cut = draw(st.integers(1, len(first) - 1))
        tail, _ = draw(_canary_text(MIN_SECRET_CHARS - (len(first) - cut)))
        return (first, first[cut:] + tail), first + tail
    if relation == "inside" and len(first) > MIN_SECRET_CHARS:  # a part of the first, with its canary
        start = draw(st.integers(0, min(canary, len(first) - MIN_SECRET_CHARS)))
        end = draw(st.integers(max(canary + 1, start + MIN_SECRET_CHARS), len(first)))
        return (first, first[start:end]), first
    second, _ = draw(_canary_text(MIN_SECRET_CHARS))
    return (first, second), first + second


@st.composite
def cases(draw: st.DrawFn) -> Case:
    secrets, together = draw(_secrets())
    pieces = [*secrets, together]
    embedded = draw(
        st.lists(st.tuples(_FILLER, st.sampled_from(pieces), st.sampled_from(sorted(FORMS))), min_size=1, max_size=6)
    )
    text = "".join(filler + FORMS[form](piece) for filler, piece, form in embedded) + draw(_FILLER)
    return Case(secrets=secrets, text=text)


def leaks(output: str, secrets: Iterable[str]) -> list[tuple[str, str]]:
    """The (secret, form) pairs whose text appears in ``output``."""
    return [(secret, name) for secret in secrets for name, form in FORMS.items() if form(secret) in output]


def strings_in(value: object) -> Iterator[str]:
    """Every string in a JSON-like value, keys included (what a reader of the stored value sees)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield from strings_in(key)
            yield from strings_in(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from strings_in(item)


@contextmanager
def captured_log(target: logging.Logger | None = None) -> Iterator[io.StringIO]:
    """What ``target`` (the root logger by default) writes, tracebacks included, as a handler writes it."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(name)s %(message)s"))
    target = target or logging.getLogger()
    target.addHandler(handler)
    try:
        yield stream
    finally:
        target.removeHandler(handler)
