"""Diagnostics of failed browser actions: phase, exception type and closed-set signals.

A record says *where* an action failed (``preparation``, ``dispatch``,
``subsequent`` work, ``cleanup``, ``recording``), the exception's type name,
and signals from a closed set matched in the exception's text. The text
itself, selectors, addresses and page data are never kept: a signal is a
fixed word, and matching may also hit quoted page text, so a signal does not
establish a cause.

Diagnostics change nothing: recording never raises and no caller reads a
record to decide an outcome, a retry or a limit. Records go to the
``metnos.sites.diagnostics`` logger as one structured line (through the
secret-redacting log filters) and stay on the trail for the caller's audit.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Literal, get_args

logger = logging.getLogger("metnos.sites.diagnostics")

Phase = Literal["preparation", "dispatch", "subsequent", "cleanup", "recording"]
Action = Literal["click", "cookies", "overlay", "observe", "obstruction_copy", "other"]
Signal = Literal[
    "timeout",
    "target_closed",
    "navigated",
    "detached",
    "not_visible",
    "not_enabled",
    "intercepted",
    "not_stable",
    "network",
    "crashed",
    "evaluation",
    "file_system",
]
PHASES: frozenset[str] = frozenset(get_args(Phase))
ACTIONS: frozenset[str] = frozenset(get_args(Action))
SIGNALS: frozenset[str] = frozenset(get_args(Signal))

# Fixed markers in the exception's text (lower-cased) and the signal each implies.
_MARKERS: tuple[tuple[str, Signal], ...] = (
    ("timeout", "timeout"),
    ("timed out", "timeout"),
    ("target closed", "target_closed"),
    ("has been closed", "target_closed"),
    ("context was destroyed", "navigated"),
    ("navigat", "navigated"),
    ("detached", "detached"),
    ("not visible", "not_visible"),
    ("not attached", "detached"),
    ("not enabled", "not_enabled"),
    ("disabled", "not_enabled"),
    ("intercepts pointer events", "intercepted"),
    ("not stable", "not_stable"),
    ("net::", "network"),
    ("crash", "crashed"),
    ("evaluat", "evaluation"),
    ("permission denied", "file_system"),
    ("no space left", "file_system"),
)
_TYPE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,79}")
# Closed click reasons that are signals too.
_REASON_SIGNALS: dict[str, Signal] = {"timeout": "timeout"}


@dataclass(frozen=True)
class ActionDiagnostic:
    """One failed browser action, without messages, selectors or page data."""

    action: Action
    phase: Phase
    error_type: str
    signals: tuple[Signal, ...]

    def line(self) -> str:
        signals = ",".join(self.signals) or "none"
        return (
            f"browser action failed action={self.action} phase={self.phase}"
            f" error_type={self.error_type} signals={signals}"
        )


def _type_name(error: BaseException | str) -> str:
    name = error if isinstance(error, str) else type(error).__name__
    return name if _TYPE_NAME.fullmatch(name) else "unnamed"


def signals_of(error: BaseException) -> tuple[Signal, ...]:
    """The closed-set signals whose markers occur in the error's text; the text is then dropped."""
    try:
        text = str(error).lower()
    except Exception:  # noqa: BLE001 — a broken __str__ gives no signal, never a failure
        return ()
    found: list[Signal] = []
    for marker, signal in _MARKERS:
        if marker in text and signal not in found:
            found.append(signal)
    return tuple(found)


def diagnose(action: Action, phase: Phase, error: BaseException) -> ActionDiagnostic:
    return ActionDiagnostic(
        action if action in ACTIONS else "other",
        phase if phase in PHASES else "subsequent",
        _type_name(error),
        signals_of(error),
    )


def diagnose_click(action: Action, phase: Phase, error_type: str, reason: str) -> ActionDiagnostic:
    """A record from a click outcome, which already holds only a type name and a closed reason."""
    signal = _REASON_SIGNALS.get(reason)
    return ActionDiagnostic(action, phase, _type_name(error_type or "unnamed"), (signal,) if signal else ())


@dataclass
class DiagnosticTrail:
    """The diagnostics of one procedure: each recorded once, logged, and kept for the caller's audit."""

    action: Action
    phase: Phase = "preparation"
    records: list[ActionDiagnostic] = field(default_factory=list)
    _seen: set[int] = field(default_factory=set, repr=False)

    def record(self, diagnostic: ActionDiagnostic) -> None:
        """Keep and log ``diagnostic``; never raises, whatever the logging does."""
        try:
            self.records.append(diagnostic)
            logger.warning("%s", diagnostic.line())
        except Exception:  # noqa: BLE001, S110 — diagnostics must never change what the caller does
            pass

    def failed(self, error: BaseException) -> None:
        """Record ``error`` as a failure of the current phase, once however many blocks it leaves."""
        if id(error) in self._seen:
            return
        self._seen.add(id(error))
        self.record(diagnose(self.action, self.phase, error))

    @contextmanager
    def during(self, phase: Phase) -> Iterator[None]:
        """Run a block as ``phase``; an exception escaping it is recorded, then raised unchanged."""
        previous, self.phase = self.phase, phase
        try:
            yield
        except Exception as error:
            self.failed(error)
            raise
        finally:
            self.phase = previous

    def snapshot(self) -> tuple[ActionDiagnostic, ...]:
        return tuple(self.records)
