"""Secrets never reach logs: a logging filter that redacts the active turn's secrets.

While a step runs with resolved credentials, the boundary registers their
values with :func:`secrets_redacted`; every log record formatted in that
context has them replaced, whatever logger wrote it.
"""

from __future__ import annotations

import contextvars
import logging
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

REDACTED = "[redacted]"

_active_secrets: contextvars.ContextVar[tuple[str, ...]] = contextvars.ContextVar("metnos_secrets", default=())


@contextmanager
def secrets_redacted(secrets: Iterable[str]) -> Iterator[None]:
    values = tuple(secret for secret in secrets if secret)
    token = _active_secrets.set((*_active_secrets.get(), *values))
    try:
        yield
    finally:
        _active_secrets.reset(token)


def secret_register(value: str) -> None:
    """Redact ``value`` too, until the enclosing :func:`secrets_redacted` block ends.

    For a value first known during a step (the vault's mandate resolving a
    credential): leaving the block restores the previous set.
    """
    if value and value not in _active_secrets.get():
        _active_secrets.set((*_active_secrets.get(), value))


def redact_text(text: str, secrets: Iterable[str] | None = None) -> str:
    for secret in secrets if secrets is not None else _active_secrets.get():
        if secret:
            text = text.replace(secret, REDACTED)
    return text


def _redact_record(record: logging.LogRecord, secrets: tuple[str, ...]) -> None:
    message = record.getMessage()
    cleaned = redact_text(message, secrets)
    if cleaned != message:
        record.msg, record.args = cleaned, None
    if record.exc_info and record.exc_info[1] is not None and any(s in str(record.exc_info[1]) for s in secrets):
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
