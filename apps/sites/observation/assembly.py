"""Turning the page script's per-frame answers into one validated Snapshot.

Indices in each frame's answer are local to that frame; here they become
indices into the snapshot. A frame hosted by a panel of its parent (an
iframe inside a dialog, or a fixed iframe that is itself the panel) gives
that panel its controls and text. Controls that stay indistinguishable
across frames (two sibling frames at the same path) are marked ambiguous.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import cast

from apps.sites.observation.limits import ObservationLimits
from apps.sites.observation.snapshot import (
    BlockerKind,
    Control,
    Field,
    Form,
    FormKind,
    FrameInfo,
    FramePath,
    ObservationFailed,
    PageAnswer,
    Panel,
    PanelKind,
    Snapshot,
)

PANEL_KINDS = frozenset({"dialog", "alertdialog", "overlay"})
FORM_KINDS = frozenset({"form", "group"})
BLOCKER_KINDS = frozenset({"veil", "layer", "frame"})


@dataclass
class FrameRead:
    """One frame's answer, with the answer about its ``<iframe>`` element in the parent."""

    path: FramePath
    raw: PageAnswer
    host: PageAnswer | None

    @property
    def document(self) -> str:
        return self.raw.text("timeOrigin", 64)


@dataclass
class _PanelDraft:
    raw: PageAnswer
    frame_path: FramePath
    texts: list[str]
    truncated: bool
    hosted: list[FramePath] = field(default_factory=list)


def _index(value: object) -> int | None:
    if value is None:
        return None
    if type(value) is not int or value < 0:
        raise ObservationFailed("nonsense")
    return value


# The page script sends each control as a row of these columns (see observe.js):
# role, name, text, section, row, fingerprint (these five as numbers into the
# frame's table of strings), href, flags (1 enabled, 2 in the window,
# 4 ambiguous, 8 current), expanded, checked, panel, form.
CONTROL_COLUMNS = 13
_STRING_COLUMNS = 5
_ENABLED, _IN_VIEWPORT, _AMBIGUOUS, _CURRENT = 1, 2, 4, 8


def _control(
    data: object,
    strings: list[str],
    path: FramePath,
    document: str,
    limits: ObservationLimits,
    base: tuple[int, int, int, int],
) -> Control:
    """One control row; ``base`` is (panel base, panel count, form base, form count) of its frame."""
    if type(data) is not list or len(data) != CONTROL_COLUMNS:
        raise ObservationFailed("nonsense")
    role, name, text, section, row, fingerprint, href, flags, expanded, checked, panel, form, description = data
    # Thousands per page: one combined type check.
    size = len(strings)
    if not (
        type(role) is str
        and type(name) is int
        and 0 <= name < size
        and type(text) is int
        and 0 <= text < size
        and type(section) is int
        and 0 <= section < size
        and type(row) is int
        and 0 <= row < size
        and type(fingerprint) is int
        and type(description) is int
        and 0 <= description < size
        and 0 <= fingerprint < size
        and type(href) is str
        and type(flags) is int
    ):
        raise ObservationFailed("nonsense")
    panel_base, panels, form_base, forms = base
    return Control(
        frame_path=path,
        document=document,
        role=role[:40],
        name=strings[name][: limits.name_text],
        text=strings[text][: limits.control_text],
        section=strings[section][: limits.section_text],
        row=strings[row][: limits.row_text],
        fingerprint=strings[fingerprint][:40],
        description=strings[description][: limits.name_text],
        href=href[: limits.href_text],
        enabled=bool(flags & _ENABLED),
        expanded=expanded if type(expanded) is bool else None,
        checked=checked if type(checked) is bool else None,
        current=bool(flags & _CURRENT),
        in_viewport=bool(flags & _IN_VIEWPORT),
        ambiguous=bool(flags & _AMBIGUOUS),
        panel=_local(_index(panel), panel_base, panels),
        form=_local(_index(form), form_base, forms),
    )


def _field(raw: PageAnswer, limits: ObservationLimits) -> Field:
    max_length = raw.optional_index("maxLength")
    return Field(
        type=raw.text("type", 40),
        label=raw.text("label", limits.name_text),
        name=raw.text("name", limits.name_text),
        autocomplete=raw.text("autocomplete", 80),
        input_mode=raw.text("inputMode", 40),
        placeholder=raw.text("placeholder", limits.name_text),
        required=raw.flag("required"),
        visible=raw.flag("visible"),
        editable=raw.flag("editable"),
        max_length=max_length,
        options=raw.texts("options", limits.max_options, limits.name_text),
        chosen=raw.text("chosen", limits.name_text),
    )


def _global(index: int, base: int, size: int) -> int:
    """A frame-local index as a snapshot index; out-of-range answers are nonsense."""
    if index >= size:
        raise ObservationFailed("nonsense")
    return base + index


def _local(index: int | None, base: int, size: int) -> int | None:
    return None if index is None else _global(index, base, size)


class _Assembly:
    def __init__(self, limits: ObservationLimits) -> None:
        self.limits = limits
        self.controls: list[Control] = []
        self.forms: list[Form] = []
        self.panels: list[_PanelDraft] = []
        self.panel_keys: dict[tuple[FramePath, str], list[int]] = {}
        self.texts: list[str] = []
        self.frames: list[FrameInfo] = []
        self.omitted = Counter[str]()

    def host_panel(self, read: FrameRead) -> int | None:
        """The parent's panel holding this frame's ``<iframe>``, when exactly one matches."""
        if read.host is None or read.host.raw.get("panelKey") is None:
            return None
        candidates = self.panel_keys.get((read.path[:-1], read.host.text("panelKey", 1000)), [])
        return candidates[0] if len(candidates) == 1 else None

    def add(self, read: FrameRead) -> None:
        raw, limits = read.raw, self.limits
        panel_base, control_base, form_base = len(self.panels), len(self.controls), len(self.forms)
        panels = raw.items("panels", limits.max_panels)
        controls = raw.rows("controls", limits.max_controls)
        forms = raw.items("forms", limits.max_forms)
        # Each control refers to at most five distinct strings; each column cuts its own to length.
        longest = max(limits.name_text, limits.control_text, limits.section_text, limits.row_text, 40)
        strings = list(raw.texts("strings", _STRING_COLUMNS * len(controls), longest))
        hosted_by = self.host_panel(read)
        reachable_host = read.host is None or read.host.flag("reachable")
        for raw_panel in panels:
            raw_panel.choice("kind", PANEL_KINDS)
            key = raw_panel.text("key", 1000)
            self.panel_keys.setdefault((read.path, key), []).append(len(self.panels))
            text = raw_panel.text("text", limits.panel_text)
            truncated = raw_panel.flag("textTruncated")
            self.panels.append(_PanelDraft(raw_panel, read.path, [text] if text else [], truncated))
        if hosted_by is not None:
            host = self.panels[hosted_by]
            host.hosted.append(read.path)
            own_text = raw.text("text", limits.panel_text)
            if own_text:
                host.texts.append(own_text)
        if reachable_host:
            document, base = read.document, (panel_base, len(panels), form_base, len(forms))
            for row in controls:
                control = _control(row, strings, read.path, document, limits, base)
                if control.panel is None and hosted_by is not None:
                    control = replace(control, panel=hosted_by)
                self.controls.append(control)
        for form in forms:
            panel = _local(form.optional_index("panel"), panel_base, len(panels))
            fields = tuple(_field(item, limits) for item in form.items("fields", limits.max_fields))
            indices = form.indices("controls") if reachable_host else ()
            self.forms.append(
                Form(
                    key=form.text("key", 1000),
                    kind=cast(FormKind, form.choice("kind", FORM_KINDS)),
                    frame_path=read.path,
                    document=read.document,
                    name=form.text("name", limits.name_text),
                    section=form.text("section", limits.section_text),
                    method=form.text("method", 10),
                    action=form.text("action", limits.href_text),
                    panel=panel if panel is not None else hosted_by,
                    visible=form.flag("visible"),
                    fields=fields,
                    fields_omitted=max(0, form.count("fieldsTotal") - len(fields)),
                    controls=tuple(_global(index, control_base, len(controls)) for index in indices),
                )
            )
        self.omitted["controls"] += max(0, raw.count("controlsTotal") - len(controls)) if reachable_host else 0
        self.omitted["obscured"] += raw.count("controlsObscured") + (0 if reachable_host else len(controls))
        self.omitted["forms"] += max(0, raw.count("formsTotal") - len(forms))
        self.omitted["panels"] += max(0, raw.count("panelsTotal") - len(panels))
        text = raw.text("text", limits.page_text)
        if text and hosted_by is None:
            self.texts.append(text)
        self.frames.append(
            FrameInfo(
                path=read.path,
                url=raw.text("url", limits.href_text),
                title=raw.text("title", limits.name_text),
                document=raw.text("timeOrigin", 64),
                controls_omitted=max(0, raw.count("controlsTotal") - len(controls)),
                text_truncated=raw.flag("textTruncated"),
            )
        )

    def panel(self, index: int, draft: _PanelDraft) -> Panel:
        raw, limits = draft.raw, self.limits
        text = "\n".join(draft.texts)
        return Panel(
            key=raw.text("key", 1000),
            kind=cast(PanelKind, raw.choice("kind", PANEL_KINDS)),
            role=raw.text("role", 40),
            frame_path=draft.frame_path,
            name=raw.text("name", limits.name_text),
            text=text[: limits.panel_text],
            text_truncated=draft.truncated or len(text) > limits.panel_text,
            image_alts=raw.texts("imageAlts", limits.panel_images, limits.name_text),
            modal=raw.flag("modal"),
            viewport_fraction=min(1.0, max(0.0, raw.number("fraction"))),
            hosted_frames=tuple(draft.hosted),
            controls=tuple(position for position, control in enumerate(self.controls) if control.panel == index),
            forms=tuple(position for position, form in enumerate(self.forms) if form.panel == index),
        )


def _mark_ambiguous_across_frames(controls: list[Control]) -> list[Control]:
    if len({(control.frame_path, control.document) for control in controls}) == len(
        {control.frame_path for control in controls}
    ):
        return controls  # every frame path names one document: nothing to compare
    counts = Counter((control.identity, control.document) for control in controls)
    seen = Counter(control.identity for control in controls)
    return [
        replace(control, ambiguous=True)
        if seen[control.identity] > counts[(control.identity, control.document)]
        else control
        for control in controls
    ]


def _blocker(assembly: _Assembly, main: PageAnswer) -> tuple[BlockerKind | None, bool]:
    blocker = main.optional("blocker")
    if blocker is None:
        return None, False
    kind = cast(BlockerKind, blocker.choice("kind", BLOCKER_KINDS))
    if kind == "veil":
        return kind, True
    panel = blocker.optional_index("panel")
    if kind == "frame" and panel is not None and panel < len(assembly.panels):
        draft = assembly.panels[panel]
        hosted_controls = any(control.panel == panel for control in assembly.controls)
        return kind, bool(draft.hosted) and not hosted_controls and not "".join(draft.texts).strip()
    return kind, False


def assemble_snapshot(
    reads: list[FrameRead], limits: ObservationLimits, *, omitted: int, hidden: int, unreadable: int
) -> Snapshot:
    """One Snapshot from the frames' answers, main frame first."""
    assembly = _Assembly(limits)
    for read in reads:
        assembly.add(read)
    main = reads[0].raw
    blocker, veiled = _blocker(assembly, main)
    controls = _mark_ambiguous_across_frames(assembly.controls)
    assembly.controls = controls
    text = "\n".join(assembly.texts)
    return Snapshot(
        url=main.text("url", limits.href_text),
        title=main.text("title", limits.name_text),
        frames=tuple(assembly.frames),
        controls=tuple(controls),
        forms=tuple(assembly.forms),
        panels=tuple(assembly.panel(index, draft) for index, draft in enumerate(assembly.panels)),
        text=text[: limits.page_text],
        text_truncated=len(text) > limits.page_text or any(frame.text_truncated for frame in assembly.frames),
        controls_omitted=assembly.omitted["controls"],
        controls_obscured=assembly.omitted["obscured"],
        forms_omitted=assembly.omitted["forms"],
        panels_omitted=assembly.omitted["panels"],
        frames_omitted=omitted,
        frames_hidden=hidden,
        frames_unreadable=unreadable,
        veiled=veiled,
        blocker=blocker,
    )
