"""Secrets never leave a turn: the one redactor, and the secrets a turn has met.

Every sink goes through :func:`redact_text` (a text) or :func:`redact_value`
(a JSON-like value, keys included): log records, step records, consent
proposals, live events, the turn's answer and model request bodies.

**The turn's secrets.** The invocation boundary opens :func:`secrets_redacted`
with the values it knows (the planner does too, for its requests); a value
first known inside the block (the vault's mandate resolving a credential, a
code the user typed, a sign-in) is added with :func:`secret_register`. Within
the block, every log record and every model request body is redacted of them;
leaving it restores the previous set. :func:`active_secrets` reads the set.

**Forms.** A secret is found raw and in each family of forms a value takes
in text, whichever of its characters the encoder chose to encode:

* URL-encoded: ``%XX`` of its UTF-8 bytes in either case, ``+`` for a space
  (``quote`` with any ``safe``, ``quote_plus``, ``encodeURIComponent``);
* backslash-escaped, as JSON and Python reprs write it: ``\\"``, ``\\\\``,
  ``\\/``, ``\\'``, ``\\n`` and the other short escapes, ``\\uXXXX`` in either
  case (surrogate pairs above the BMP), ``\\UXXXXXXXX`` and ``\\xXX``;
* HTML-escaped: ``&amp;``, ``&lt;``, ``&gt;``, ``&quot;``, ``&apos;`` and
  numeric references (decimal or hex, either case) to any character, so both
  ``html.escape(quote=True)`` (``&#x27;``) and older ``&#39;`` are covered.

Forms nested in one another (JSON of an HTML-escaped value) are not.

**Overlaps.** Every occurrence of every secret is found, overlapping ones
included; the spans are merged and each merged span becomes one
:data:`REDACTED`, so no part of a secret survives next to another that was
replaced (``abcd`` and ``bcde`` in ``xabcdex`` give ``x[redacted]x``). A
secret could also be formed by the marker and the text beside it (``ed]x``
after ``[redacted]x``), so a redacted text is redacted again until no secret
appears; if that does not settle within a few passes, the whole text is
withheld. A secret that is itself part of the marker (``dact``) appears only
as the marker.

**Short secrets.** A secret shorter than :data:`MIN_SECRET_CHARS` is replaced
only where it stands alone, not inside a word: redacting every ``42`` would
shred the text and protect nothing, while a three-digit code on its own
(``code: 123``) is still withheld.
"""

from __future__ import annotations

import contextvars
import functools
import logging
import re
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, Final

REDACTED: Final = "[redacted]"
MIN_SECRET_CHARS: Final = 4
# A text is redacted again at most this often when a marker and its
# neighbours form a secret; past it the whole text is withheld.
_MAX_PASSES: Final = 4

_active_secrets: contextvars.ContextVar[tuple[str, ...]] = contextvars.ContextVar("metnos_secrets", default=())


# --- The turn's secrets -----------------------------------------------------------


@contextmanager
def secrets_redacted(secrets: Iterable[str]) -> Iterator[None]:
    """Within this block, these values are redacted from log records and model requests.

    Nested blocks accumulate; leaving a block restores the set it started with.
    """
    values = tuple(secret for secret in secrets if secret)
    token = _active_secrets.set((*_active_secrets.get(), *values))
    try:
        yield
    finally:
        _active_secrets.reset(token)


def secret_register(value: str) -> None:
    """Redact ``value`` too, until the enclosing :func:`secrets_redacted` block ends.

    For a value first known during a step (the vault's mandate resolving a
    credential, a code the user typed): leaving the block restores the
    previous set.
    """
    if value and value not in _active_secrets.get():
        _active_secrets.set((*_active_secrets.get(), value))


def active_secrets() -> tuple[str, ...]:
    """The values registered in the enclosing :func:`secrets_redacted` blocks."""
    return _active_secrets.get()


# --- The redactor ----------------------------------------------------------------

_SHORT_ESCAPES: Final = {
    '"': '\\"', "\\": "\\\\", "/": "\\/", "'": "\\'",
    "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t",
}  # fmt: skip
_NAMED_ENTITIES: Final = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;"}


def _hex(value: int, width: int) -> str:
    """A pattern for ``value`` in hex digits of either case (a class per letter)."""
    return "".join(f"[{digit}{digit.upper()}]" if digit.isalpha() else digit for digit in f"{value:0{width}x}")


# The forms of one character in each family of forms. Within a family, at
# most one form of a character can match at a given place (they differ in
# their first characters, or in the one after the backslash): matching stays
# linear, never a backtracking search over ways to read the text.


def _url_forms(char: str) -> list[str]:
    forms = ["".join(f"%{_hex(byte, 2)}" for byte in char.encode("utf-8", "surrogatepass"))]
    if char == " ":
        forms.append(r"\+")
    if char != "%":  # always encoded: raw, it would begin the other forms
        forms.append(re.escape(char))
    return forms


def _escaped_forms(char: str) -> list[str]:
    code = ord(char)
    if code > 0xFFFF:  # JSON writes a surrogate pair
        high, low = divmod(code - 0x10000, 0x400)
        forms = [rf"\\u{_hex(0xD800 + high, 4)}\\u{_hex(0xDC00 + low, 4)}"]
    else:
        forms = [rf"\\u{_hex(code, 4)}"]
    forms.append(rf"\\U{_hex(code, 8)}")
    if code < 0x100:
        forms.append(rf"\\x{_hex(code, 2)}")
    if char in _SHORT_ESCAPES:
        forms.append(re.escape(_SHORT_ESCAPES[char]))
    if char != "\\":  # always escaped: raw, it would begin the other forms
        forms.append(re.escape(char))
    return forms


def _html_forms(char: str) -> list[str]:
    code = ord(char)
    forms = [rf"&#0*{code};", rf"&#[xX]0*{_hex(code, 1)};"]
    if char in _NAMED_ENTITIES:
        forms.append(re.escape(_NAMED_ENTITIES[char]))
    if char != "&":  # always escaped: raw, it would begin the other forms
        forms.append(re.escape(char))
    return forms


_FAMILIES: Final = (_url_forms, _escaped_forms, _html_forms)


@functools.lru_cache(maxsize=64)
def _secret_patterns(secret: str) -> tuple[re.Pattern[str], ...]:
    """One pattern for the raw secret and one for each family of its forms.

    Kept for the last few secrets seen (as ``re`` keeps its compiled
    patterns): a turn's secrets are redacted from every record it writes,
    and building the patterns costs more than using them.
    """
    sources = [re.escape(secret)]
    for forms in _FAMILIES:
        sources.append("".join(f"(?:{'|'.join(forms(char))})" for char in secret))
    if len(secret) < MIN_SECRET_CHARS:  # alone: no letter or digit on either side
        sources = [rf"(?<![^\W_]){source}(?![^\W_])" for source in sources]
    return tuple(re.compile(source) for source in dict.fromkeys(sources))


def _patterns(secrets: Iterable[str] | None) -> tuple[re.Pattern[str], ...]:
    values = active_secrets() if secrets is None else secrets
    return tuple(pattern for secret in sorted({s for s in values if s}) for pattern in _secret_patterns(secret))


def _spans(text: str, patterns: Iterable[re.Pattern[str]]) -> list[tuple[int, int]]:
    """Every occurrence of every pattern (overlapping ones too), merged where they overlap or touch."""
    found: list[tuple[int, int]] = []
    for pattern in patterns:
        match = pattern.search(text)
        while match is not None:
            found.append(match.span())
            match = pattern.search(text, match.start() + 1)
    merged: list[tuple[int, int]] = []
    for start, end in sorted(found):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def _replace(text: str, spans: list[tuple[int, int]]) -> str:
    parts, kept_from = [], 0
    for start, end in spans:
        parts += [text[kept_from:start], REDACTED]
        kept_from = end
    parts.append(text[kept_from:])
    return "".join(parts)


def _redact(text: str, patterns: tuple[re.Pattern[str], ...]) -> str:
    spans = _spans(text, patterns)
    if not spans:
        return text
    redacted = _replace(text, spans)
    # The marker and its neighbours may spell a secret; a secret inside the marker cannot be helped.
    outside_marker = [pattern for pattern in patterns if not pattern.search(REDACTED)]
    for _ in range(_MAX_PASSES):
        spans = _spans(redacted, outside_marker)
        if not spans:
            return redacted
        redacted = _replace(redacted, spans)
    return REDACTED


def redact_text(text: str, secrets: Iterable[str] | None = None) -> str:
    """``text`` with every form of each secret replaced by :data:`REDACTED` (see the module docstring).

    Without ``secrets``, the active ones (:func:`active_secrets`).
    """
    return _redact(text, _patterns(secrets))


def redact_value(value: Any, secrets: Iterable[str] | None = None) -> Any:
    """``value`` with every string nested in it (mapping keys included) redacted like :func:`redact_text`.

    Mappings become dicts and tuples lists (the value is JSON-like); other
    values are returned as they are.
    """
    patterns = _patterns(secrets)
    return _redact_nested(value, patterns) if patterns else value


def _redact_nested(value: Any, patterns: tuple[re.Pattern[str], ...]) -> Any:
    if isinstance(value, str):
        return _redact(value, patterns)
    if isinstance(value, Mapping):
        return {_redact_nested(key, patterns): _redact_nested(item, patterns) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_redact_nested(item, patterns) for item in value]
    return value


# --- Log records ------------------------------------------------------------------


def _database_error(error: BaseException) -> bool:
    """A database driver's or Django's database error: its text can quote the values it refused."""
    from django.db import Error as DjangoDatabaseError  # core's own import of Django, kept lazy for the logger

    return isinstance(error, DjangoDatabaseError) or hasattr(error, "sqlstate") or hasattr(error, "pgcode")


def error_kind(error: BaseException) -> str:
    """What of ``error`` may be logged: its type and, for a database error, its SQLSTATE — never its text."""
    cause = error.__cause__
    code = getattr(error, "sqlstate", None) or getattr(cause, "sqlstate", None) or getattr(cause, "pgcode", None)
    return type(error).__name__ + (f" (SQLSTATE {code})" if code else "")


def _withhold_database_errors(record: logging.LogRecord) -> None:
    """A database error in a record is told by its kind only (:func:`error_kind`), with or without a traceback."""
    error = record.exc_info[1] if record.exc_info else None
    if error is not None and _database_error(error):
        record.msg = f"{record.msg} [{error_kind(error)}: text withheld]"
        record.exc_info, record.exc_text = None, None
    if isinstance(record.args, tuple) and any(isinstance(arg, BaseException) for arg in record.args):
        record.args = tuple(
            error_kind(arg) if isinstance(arg, BaseException) and _database_error(arg) else arg for arg in record.args
        )


def _redact_record(record: logging.LogRecord, secrets: tuple[str, ...]) -> None:
    patterns = _patterns(secrets)
    message = record.getMessage()
    cleaned = _redact(message, patterns)
    if cleaned != message:
        record.msg, record.args = cleaned, None
    if record.exc_info and record.exc_info[1] is not None:
        error_text = str(record.exc_info[1])
        if _redact(error_text, patterns) != error_text:
            # The exception's text carries the secret: keep only its type.
            record.msg = f"{record.msg} [{type(record.exc_info[1]).__name__}: text withheld]"
            record.exc_info = None
            record.exc_text = None


def install_record_factory() -> None:
    """Redact active secrets as each log record is created, before any handler sees it."""
    previous = logging.getLogRecordFactory()
    if getattr(previous, "metnos_redacting", False):
        return

    def factory(*args: object, **kwargs: object) -> logging.LogRecord:
        record = previous(*args, **kwargs)
        _withhold_database_errors(record)
        secrets = _active_secrets.get()
        if secrets:
            _redact_record(record, secrets)
        return record

    factory.metnos_redacting = True  # type: ignore[attr-defined]
    logging.setLogRecordFactory(factory)


class RedactSecretsFilter(logging.Filter):
    """Rewrites a record's message (with its arguments) when it contains an active secret."""

    def filter(self, record: logging.LogRecord) -> bool:
        secrets = _active_secrets.get()
        if secrets:
            _redact_record(record, secrets)
        return True
