"""Visible text of an HTML document, with the standard library's parser.

Bytes are decoded with the charset the caller declares (an HTTP header), else
a byte-order mark, else a ``<meta charset>`` near the start, else UTF-8;
undecodable bytes become U+FFFD, so invalid input never raises. Text inside
``script``, ``style``, ``noscript``, ``template``, ``svg``, ``math`` and
``iframe`` is dropped; the title is returned apart. Block-level elements and
``<br>`` start new lines (``<pre>`` keeps its own), table cells are separated
by tabs, other runs of white space become one space, and blank lines are
dropped.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass
from html.parser import HTMLParser

from apps.documents.limits import HTML_CHARSET_SNIFF_BYTES

_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9._:\-]+)""", re.IGNORECASE)
# WHATWG decodes these labels as windows-1252, a superset that never fails.
_WINDOWS_1252_LABELS = {"ascii", "us-ascii", "latin1", "latin-1", "iso-8859-1", "iso8859-1", "l1", "cp819"}

# Never shown as text. (The head is not listed: its end tag may be omitted; what
# it holds besides the title is either listed here or void.)
_HIDDEN_ELEMENTS = {"script", "style", "noscript", "template", "svg", "math", "iframe"}
_BLOCK_ELEMENTS = {
    "address", "article", "aside", "blockquote", "body", "caption", "dd", "details", "dialog", "div", "dl", "dt",
    "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hgroup",
    "hr", "html", "legend", "li", "main", "nav", "ol", "p", "pre", "section", "summary", "table", "tbody", "tfoot",
    "thead", "tr", "ul", "option",
}  # fmt: skip
_CELL_ELEMENTS = {"td", "th"}
_SPACES = re.compile(r"[ \t\r\n\f\v\u00a0]+")


@dataclass(frozen=True)
class HtmlText:
    title: str | None
    text: str
    encoding: str


def _usable_encoding(label: str | None) -> str | None:
    if not label:
        return None
    label = label.strip().strip("\"'").lower()
    if label in _WINDOWS_1252_LABELS:
        return "cp1252"
    try:
        info = codecs.lookup(label)
    except LookupError:
        return None
    # Rule out bytes-to-bytes codecs such as "base64" or "zlib".
    if not getattr(info, "_is_text_encoding", True):
        return None
    return info.name


def decode_html(data: bytes, *, declared_charset: str | None = None) -> tuple[str, str]:
    """``(text, encoding)``: the document decoded as described in the module docstring."""
    for bom, name in (
        (codecs.BOM_UTF8, "utf-8"),
        (codecs.BOM_UTF16_LE, "utf-16-le"),
        (codecs.BOM_UTF16_BE, "utf-16-be"),
    ):
        if data.startswith(bom):
            return data[len(bom) :].decode(name, errors="replace"), name
    candidates: list[str | None] = [_usable_encoding(declared_charset)]
    found = _META_CHARSET.search(data[:HTML_CHARSET_SNIFF_BYTES])
    if found:
        candidates.append(_usable_encoding(found.group(1).decode("ascii", errors="replace")))
    for encoding in candidates:
        # A page cannot declare UTF-16 in a meta tag it wrote in ASCII.
        if encoding and not encoding.startswith("utf-16") and not encoding.startswith("utf-32"):
            try:
                return data.decode(encoding, errors="replace"), encoding
            except (LookupError, UnicodeError, ValueError):
                continue
    return data.decode("utf-8", errors="replace"), "utf-8"


class _VisibleTextParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.current: list[str] = []
        self.hidden_depth = 0
        self.pre_depth = 0
        self.in_title = False
        self.title_parts: list[str] = []

    def _break(self) -> None:
        line = "".join(self.current)
        self.current = []
        self.lines.append(line)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _HIDDEN_ELEMENTS:
            self.hidden_depth += 1
            return
        if self.hidden_depth:
            return
        if tag == "title":
            self.in_title = True
            return
        if tag == "br":
            self._break()
        elif tag in _BLOCK_ELEMENTS:
            self._break()
            if tag == "pre":
                self.pre_depth += 1
        elif tag in _CELL_ELEMENTS and "".join(self.current).strip():
            self.current.append("\t")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        # <br/>, <hr/>: a self-closing tag opens nothing that will be closed later.
        if tag in _HIDDEN_ELEMENTS or tag == "title":
            return
        if not self.hidden_depth and (tag == "br" or tag in _BLOCK_ELEMENTS):
            self._break()

    def handle_endtag(self, tag: str) -> None:
        if tag in _HIDDEN_ELEMENTS:
            self.hidden_depth = max(0, self.hidden_depth - 1)
            return
        if self.hidden_depth:
            return
        if tag == "title":
            self.in_title = False
            return
        if tag in _BLOCK_ELEMENTS:
            if tag == "pre":
                self.pre_depth = max(0, self.pre_depth - 1)
            self._break()

    def handle_data(self, data: str) -> None:
        if self.in_title:
            self.title_parts.append(data)
            return
        if self.hidden_depth:
            return
        if self.pre_depth:
            lines = data.split("\n")
            for index, line in enumerate(lines):
                if index:
                    self._break()
                self.current.append(line)
        else:
            self.current.append(_SPACES.sub(" ", data))

    def result(self) -> tuple[str | None, str]:
        self._break()
        cleaned: list[str] = []
        for line in self.lines:
            cells = [" ".join(cell.split()) for cell in line.split("\t")]
            text = "\t".join(cell for cell in cells if cell)
            if text:
                cleaned.append(text)
        title = " ".join("".join(self.title_parts).split()) or None
        return title, "\n".join(cleaned)


def html_visible_text(data: bytes | str, *, declared_charset: str | None = None) -> HtmlText:
    """Title and visible text of an HTML document; never raises on malformed or undecodable input."""
    if isinstance(data, bytes):
        source, encoding = decode_html(data, declared_charset=declared_charset)
    else:
        source, encoding = data, "str"
    parser = _VisibleTextParser()
    parser.feed(source)
    parser.close()
    title, text = parser.result()
    return HtmlText(title=title, text=text, encoding=encoding)
