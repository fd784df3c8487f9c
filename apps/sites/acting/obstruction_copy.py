"""A static, inert copy of a page's HTML, without private fields or active code.

:func:`static_copy` rebuilds the serialised document element by element:

- active code goes: scripts, ``noscript``, templates, frames, objects and
  embeds, SVG animations, event-handler attributes, ``javascript:`` and other
  non-web addresses, ``srcdoc``, ``meta``/``base``/``link`` elements;
- private fields go: hidden inputs entirely; every other field keeps its
  shape but loses its value, its checked or selected state and its text
  (``value``, ``checked``, ``selected``, textarea content, editable regions);
- addresses lose their query and fragment, which may carry tokens;
- a Content-Security-Policy opens the copy, so even a browser opening it
  runs and fetches nothing.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from urllib.parse import urlsplit, urlunsplit

COPY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
HEADER = (
    '<!doctype html><meta charset="utf-8">'
    f'<meta http-equiv="Content-Security-Policy" content="{COPY_POLICY}">'
    '<meta name="robots" content="noindex">\n'
)
# Dropped with everything inside them.
DROPPED = frozenset(
    {
        "script", "noscript", "template", "iframe", "frame", "frameset", "object", "embed", "applet",
        "noembed", "noframes", "set", "animate", "animatetransform", "animatemotion", "handler", "portal",
    }
)  # fmt: skip
DROPPED_VOID = frozenset({"meta", "base", "link", "param", "source", "track"})
# Kept, but what they hold is the user's: emptied.
EMPTIED = frozenset({"textarea"})
VOID = frozenset({"area", "br", "col", "embed", "hr", "img", "input", "keygen", "wbr", *DROPPED_VOID})
URL_ATTRIBUTES = frozenset(
    {"href", "src", "action", "formaction", "poster", "background", "cite", "data", "xlink:href", "longdesc"}
)
STATE_ATTRIBUTES = frozenset({"value", "checked", "selected", "srcdoc", "srcset", "ping", "formaction", "nonce"})
_ATTRIBUTE_NAME = re.compile(r"[a-z][a-z0-9_.:-]{0,60}")
_ACTIVE_STYLE = re.compile(r"expression\s*\(|javascript:|behavior\s*:|-moz-binding", re.IGNORECASE)


def _safe_url(value: str) -> str | None:
    """A web or relative address without query or fragment; None for anything else."""
    try:
        parts = urlsplit(value.strip())
    except ValueError:
        return None
    if parts.scheme and parts.scheme.lower() not in ("http", "https"):
        return None
    return urlunsplit((parts.scheme, parts.netloc, parts.path, "", ""))


def _editable(attrs: dict[str, str | None]) -> bool:
    value = attrs.get("contenteditable")
    return "contenteditable" in attrs and (value or "").lower() != "false"


class _Copier(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = [HEADER]
        # While skipping: the tag that started it and how deep we are in it.
        self.skip_tag: str | None = None
        self.skip_depth = 0
        self.keep_shell = False
        self.raw_text = False  # inside <style>: text is CSS, not markup

    def _attributes(self, tag: str, pairs: list[tuple[str, str | None]]) -> str:
        kept: list[str] = []
        for name, value in pairs:
            if not _ATTRIBUTE_NAME.fullmatch(name) or name.startswith("on") or name in STATE_ATTRIBUTES:
                continue
            if name == "contenteditable":
                continue
            if tag == "input" and name == "value":
                continue
            text = value or ""
            if name in URL_ATTRIBUTES:
                safe = _safe_url(text)
                if safe is None:
                    continue
                text = safe
            if name == "style" and _ACTIVE_STYLE.search(text):
                continue
            kept.append(f' {name}="{html.escape(text, quote=True)}"' if value is not None else f" {name}")
        return "".join(kept)

    def _skipping(self, tag: str, opening: bool) -> bool:
        """Inside a dropped or emptied element: count its nesting, and close a kept shell at its end."""
        if self.skip_tag is None:
            return False
        if tag == self.skip_tag:
            self.skip_depth += 1 if opening else -1
            if self.skip_depth == 0:
                if self.keep_shell:
                    self.out.append(f"</{tag}>")
                self.skip_tag = None
        return True

    def _skip(self, tag: str, *, keep_shell: bool) -> None:
        self.skip_tag, self.skip_depth, self.keep_shell = tag, 1, keep_shell

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self._skipping(tag, opening=True):
            return
        if tag in DROPPED_VOID or (tag == "input" and (dict(attrs).get("type") or "").lower() == "hidden"):
            return
        if tag in DROPPED:
            self._skip(tag, keep_shell=False)
            return
        self.out.append(f"<{tag}{self._attributes(tag, attrs)}>")
        if tag in EMPTIED or (_editable(dict(attrs)) and tag not in VOID):
            self._skip(tag, keep_shell=True)
        elif tag == "style":
            self.raw_text = True

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.skip_tag is not None or tag in DROPPED or tag in DROPPED_VOID:
            return
        if tag == "input" and (dict(attrs).get("type") or "").lower() == "hidden":
            return
        self.out.append(f"<{tag}{self._attributes(tag, attrs)}>")

    def handle_endtag(self, tag: str) -> None:
        if self._skipping(tag, opening=False) or tag in VOID or tag in DROPPED:
            return
        self.raw_text = False
        self.out.append(f"</{tag}>")

    def handle_data(self, data: str) -> None:
        if self.skip_tag is not None:
            return
        if self.raw_text:
            self.out.append(data.replace("</", "<\\/"))
        else:
            self.out.append(html.escape(data, quote=False))

    # Comments, declarations and processing instructions carry no page content worth keeping.
    def handle_comment(self, data: str) -> None:
        return

    def handle_decl(self, decl: str) -> None:
        return

    def handle_pi(self, data: str) -> None:
        return

    def unknown_decl(self, data: str) -> None:
        return


def static_copy(document_html: str) -> str:
    """An inert copy of ``document_html``: no active code, no field values, no tokens in addresses."""
    copier = _Copier()
    copier.feed(document_html)
    copier.close()
    return "".join(copier.out)
