"""What a page shows, as frozen typed data: controls, forms, panels and text.

A :class:`Snapshot` is bounded and deterministic: the same page gives the
same snapshot. It never holds field values, editable text, hidden content or
active code (the page script in ``observe.js`` does not read them). Controls
carry the features that identify them again before a click
(:class:`ControlIdentity`); controls that those features cannot tell apart are
marked ``ambiguous`` and are never chosen by position.

:func:`apps.sites.observation.reader.observe` builds snapshots from a live
page; this module only defines and validates them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Literal, TypeVar, cast

from apps.sites.observation.limits import CONTROL_GROUP_SIZE

FramePath = tuple[str, ...]
PanelKind = Literal["dialog", "alertdialog", "overlay"]
BlockerKind = Literal["veil", "layer", "frame"]
FormKind = Literal["form", "group"]
Answer = TypeVar("Answer")


class ObservationFailed(Exception):
    """The page could not be read; ``reason`` is from a closed set, never page data."""

    REASONS = frozenset({"changed", "navigating", "timeout", "unreadable", "nonsense"})

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason if reason in self.REASONS else "unreadable"


class PageReads:
    """What procedures read of the page about one observation (a form's prose, its challenge
    widgets), kept by the observation they asked about.

    Asked again about the same observation, a procedure gets the answer it got before;
    a fresh observation starts with none. The answers live and die with the snapshot or
    form that holds them, which, like its page, is used by one thread. They are not one of
    its fields: they take no part in comparing or serialising observations.
    """

    __slots__ = ("_answers",)

    def __init__(self) -> None:
        self._answers: dict[str, object] = {}

    def get(self, kind: str) -> object | None:
        """The answer read as ``kind``, if it was read."""
        return self._answers.get(kind)

    def once(self, kind: str, read: Callable[[], Answer]) -> Answer:
        """The answer read as ``kind``: ``read()`` the first time, the same answer after."""
        if kind not in self._answers:
            self._answers[kind] = read()
        return cast(Answer, self._answers[kind])


@dataclass(frozen=True)
class ControlIdentity:
    """What must match, and match exactly one element, for a control to be found again."""

    frame_path: FramePath
    role: str
    name: str
    text: str
    section: str
    row: str
    fingerprint: str


@dataclass(frozen=True)
class Control(ControlIdentity):
    """A visible control that a click can reach now, with the features that identify it.

    ``row`` is the visible text of the control's own row (table row, list item,
    repeated card); ``fingerprint`` digests its ancestor chain (tags, roles and
    types, never positions or ids). ``document`` names the document it was seen
    in, so a click can refuse a page that has been replaced since.
    """

    document: str
    href: str
    enabled: bool
    expanded: bool | None
    in_viewport: bool
    ambiguous: bool
    panel: int | None
    form: int | None
    # On or off for a checkbox, radio or switch (native or by role, aria-checked);
    # None for any other control and for a mixed one. Not part of the identity: it changes with a click.
    checked: bool | None = None
    # Stands for what is shown now (aria-selected or aria-current): the selected tab, the current
    # page or period. Not part of the identity either.
    current: bool = False
    # What the control says of itself beyond its name (its title, when that is not its name). Not part
    # of the identity.
    description: str = ""

    @property
    def identity(self) -> ControlIdentity:
        return ControlIdentity(
            self.frame_path, self.role, self.name, self.text, self.section, self.row, self.fingerprint
        )

    @property
    def label(self) -> str:
        """How the control presents itself: its accessible name, else its text."""
        return self.name or self.text


@dataclass(frozen=True)
class Field:
    """A form field as seen, never its value."""

    type: str
    label: str
    name: str
    autocomplete: str
    input_mode: str
    placeholder: str
    required: bool
    visible: bool
    editable: bool
    max_length: int | None
    # A <select>'s option labels and the one shown now: the page's words, never what anyone typed.
    options: tuple[str, ...] = ()
    chosen: str = ""


@dataclass(frozen=True)
class Form:
    """A ``<form>``, or a ``group`` of fields outside any form that share a button."""

    key: str
    kind: FormKind
    frame_path: FramePath
    document: str
    name: str
    section: str
    method: str
    action: str
    panel: int | None
    visible: bool
    fields: tuple[Field, ...]
    fields_omitted: int
    controls: tuple[int, ...]  # indices into Snapshot.controls

    @cached_property
    def reads(self) -> PageReads:
        """What was read of the page about this form (its prose)."""
        return PageReads()


@dataclass(frozen=True)
class Panel:
    """A dialog or a large fixed layer, with its static public text and its controls.

    ``text`` is what the panel shows (text in forms and in elements without a
    box of their own included; field values and editable text excluded), plus
    the text of frames it hosts. ``controls`` and ``forms`` index the snapshot.
    """

    key: str
    kind: PanelKind
    role: str
    frame_path: FramePath
    name: str
    text: str
    text_truncated: bool
    image_alts: tuple[str, ...]
    modal: bool
    viewport_fraction: float
    hosted_frames: tuple[FramePath, ...]
    controls: tuple[int, ...]
    forms: tuple[int, ...]


@dataclass(frozen=True)
class FrameInfo:
    path: FramePath
    url: str
    title: str
    document: str
    controls_omitted: int
    text_truncated: bool


@dataclass(frozen=True)
class ControlGroup:
    """Consecutive controls of a long page, examined together."""

    number: int
    of: int
    controls: tuple[Control, ...]


@dataclass(frozen=True)
class Snapshot:
    url: str
    title: str
    frames: tuple[FrameInfo, ...]
    controls: tuple[Control, ...]
    forms: tuple[Form, ...]
    panels: tuple[Panel, ...]
    text: str
    text_truncated: bool
    controls_omitted: int
    controls_obscured: int
    forms_omitted: int
    panels_omitted: int
    frames_omitted: int
    frames_hidden: int
    frames_unreadable: int
    veiled: bool
    blocker: BlockerKind | None = None

    @cached_property
    def reads(self) -> PageReads:
        """What was read of the page about this observation (its challenge widgets)."""
        return PageReads()

    @property
    def truncated(self) -> bool:
        return bool(self.controls_omitted or self.forms_omitted or self.panels_omitted or self.frames_omitted)

    def groups(self, size: int = CONTROL_GROUP_SIZE) -> tuple[ControlGroup, ...]:
        """Every control, in groups of ``size``, so a long page hides none of them."""
        if size < 1:
            raise ValueError("a group holds at least one control")
        chunks = [self.controls[start : start + size] for start in range(0, len(self.controls), size)]
        return tuple(ControlGroup(number, len(chunks), chunk) for number, chunk in enumerate(chunks, start=1))

    def matching(self, **features: object) -> tuple[Control, ...]:
        """Controls whose named features all equal the given values (``role="link", name="Bills"``)."""
        return tuple(
            control
            for control in self.controls
            if all(getattr(control, name) == value for name, value in features.items())
        )

    def with_identity(self, identity: ControlIdentity) -> tuple[Control, ...]:
        """Controls of this snapshot with an identity seen before (on returning to a page)."""
        return tuple(control for control in self.controls if control.identity == identity)

    def panel_controls(self, panel: Panel) -> tuple[Control, ...]:
        return tuple(self.controls[index] for index in panel.controls)


# --- Reading the page script's answer, trusting nothing -----------------------


class PageAnswer:
    """Typed access to one JSON object from the page; anything malformed is ``nonsense``."""

    def __init__(self, raw: object) -> None:
        if not isinstance(raw, Mapping):
            raise ObservationFailed("nonsense")
        self.raw = raw

    def text(self, key: str, limit: int) -> str:
        value = self.raw.get(key, "")
        if not isinstance(value, str):
            raise ObservationFailed("nonsense")
        return value[:limit]

    def flag(self, key: str) -> bool:
        value = self.raw.get(key, False)
        if not isinstance(value, bool):
            raise ObservationFailed("nonsense")
        return value

    def count(self, key: str) -> int:
        value = self.raw.get(key, 0)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ObservationFailed("nonsense")
        return value

    def optional_index(self, key: str) -> int | None:
        value = self.raw.get(key)
        return None if value is None else self.count(key)

    def number(self, key: str) -> float:
        value = self.raw.get(key, 0)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ObservationFailed("nonsense")
        return float(value)

    def items(self, key: str, limit: int) -> list[PageAnswer]:
        value = self.raw.get(key, [])
        if not isinstance(value, list):
            raise ObservationFailed("nonsense")
        return [PageAnswer(item) for item in value[:limit]]

    def rows(self, key: str, limit: int) -> list[object]:
        """A list of raw rows, checked by the caller."""
        value = self.raw.get(key, [])
        if not isinstance(value, list):
            raise ObservationFailed("nonsense")
        return value[:limit]

    def texts(self, key: str, limit: int, length: int) -> tuple[str, ...]:
        value = self.raw.get(key, [])
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise ObservationFailed("nonsense")
        return tuple(item[:length] for item in value[:limit])

    def indices(self, key: str) -> tuple[int, ...]:
        value = self.raw.get(key, [])
        if not isinstance(value, list) or not all(type(item) is int for item in value):
            raise ObservationFailed("nonsense")
        return tuple(value)

    def choice(self, key: str, allowed: frozenset[str]) -> str:
        value = self.raw.get(key)
        if value not in allowed:
            raise ObservationFailed("nonsense")
        return str(value)

    def optional(self, key: str) -> PageAnswer | None:
        value = self.raw.get(key)
        return None if value is None else PageAnswer(value)
