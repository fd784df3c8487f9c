"""Measuring what covers a control, in numbers and closed-set words only.

The page script (``obstruction_measure.js``) probes nine points of the control's box with
``elementFromPoint`` (in the control's own document or shadow root) and
describes the topmost element covering it and the outermost positioned
layer around that element. :func:`clean_measurements` keeps only numbers
and words from fixed vocabularies: a page cannot put its text, ids or
classes into the record, whatever its script answers.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from apps.sites.observation.scripts import script_beside

MEASURE_JS = script_beside(__file__, "obstruction_measure.js")

# fmt: off
HTML_TAGS = frozenset(
    {
        "a", "abbr", "address", "area", "article", "aside", "audio", "b", "bdi", "bdo", "blockquote", "body", "br",
        "button", "canvas", "caption", "cite", "code", "col", "colgroup", "data", "datalist", "dd", "del", "details",
        "dfn", "dialog", "div", "dl", "dt", "em", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2",
        "h3", "h4", "h5", "h6", "header", "hgroup", "hr", "html", "i", "iframe", "img", "input", "ins", "kbd", "label",
        "legend", "li", "main", "map", "mark", "menu", "meter", "nav", "object", "ol", "optgroup", "option", "output",
        "p", "picture", "pre", "progress", "q", "s", "samp", "section", "select", "slot", "small", "span", "strong",
        "sub", "summary", "sup", "svg", "table", "tbody", "td", "textarea", "tfoot", "th", "thead", "time", "tr", "u",
        "ul", "video",
    }
)  # fmt: skip
ROLES = frozenset(
    {
        "alert", "alertdialog", "banner", "button", "checkbox", "complementary", "contentinfo", "dialog", "document",
        "figure", "form", "grid", "group", "img", "link", "list", "listitem", "main", "menu", "menubar", "navigation",
        "none", "presentation", "region", "row", "search", "status", "switch", "tab", "tablist", "tabpanel", "toolbar",
        "tooltip",
    }
)  # fmt: skip
# fmt: on
POSITIONS = frozenset({"static", "relative", "absolute", "fixed", "sticky"})
POINTER_EVENTS = frozenset({"auto", "none", "all", "visible", "painted", "fill", "stroke"})


def _number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return None
    return round(float(value), 3)


def _box(value: object) -> list[float | None]:
    items = value if isinstance(value, list) else []
    return [_number(item) for item in items[:4]] + [None] * (4 - len(items[:4]))


def _word(value: object, allowed: frozenset[str], other: str = "other") -> str:
    if value == "" or value is None:
        return ""
    return value if isinstance(value, str) and value in allowed else other


def _element(value: object) -> dict[str, object] | None:
    if not isinstance(value, Mapping):
        return None
    return {
        "tag": _word(value.get("tag"), HTML_TAGS, "custom"),
        "role": _word(value.get("role"), ROLES),
        "position": _word(value.get("position"), POSITIONS),
        "z_index": _number(value.get("zIndex")),
        "opacity": _number(value.get("opacity")),
        "pointer_events": _word(value.get("pointerEvents"), POINTER_EVENTS),
        "box": _box(value.get("box")),
        "window_share": _number(value.get("windowShare")),
        "contains_control": value.get("containsControl") is True,
    }


def clean_measurements(raw: object) -> dict[str, object]:
    """The page's answer reduced to numbers and closed-set words."""
    answer = raw if isinstance(raw, Mapping) else {}
    control = answer.get("control")
    return {
        "control_box": _box(control.get("box") if isinstance(control, Mapping) else None),
        "window": _box(answer.get("window"))[:2],
        "scroll": _box(answer.get("scroll"))[:2],
        "probes": _number(answer.get("probes")),
        "probes_covered": _number(answer.get("covered")),
        "probes_outside_window": _number(answer.get("outside")),
        "obstructer": _element(answer.get("obstructer")),
        "layer": _element(answer.get("layer")),
    }
