"""The JavaScript that runs in pages, read from the ``.js`` files beside the modules that inject it.

A script file holds one function expression, as Playwright's ``evaluate`` takes it,
or several: each after a marker line ``// --- name ---``, up to the next marker.
The comment lines that open a script (or the file, before its first marker) say what
it is and are not sent to the page; the rest is sent exactly as written. Modules
read their scripts once, at import, through :func:`script_beside`; a test checks
that no Python string holds page code and that every ``.js`` file is read by a
module beside it.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

_MARKER = re.compile(r"^// --- ([a-z][a-z0-9_]*) ---$", re.MULTILINE)


def script_beside(module_file: str, name: str, part: str | None = None) -> str:
    """The script in the file ``name`` beside ``module_file`` (a module's ``__file__``).

    With ``part``, the script after that part's marker; without it, the file is one
    script. A missing file, part or marker raises at once (at the module's import).
    """
    scripts = _scripts(Path(module_file).resolve().parent / name)
    if part is None:
        if None not in scripts:
            raise LookupError(f"{name} holds named scripts: say which")
        return scripts[None]
    if part not in scripts:
        raise LookupError(f"{name} has no script {part!r}")
    return scripts[part]


@cache
def _scripts(path: Path) -> dict[str | None, str]:
    text = path.read_text(encoding="utf-8")
    markers = list(_MARKER.finditer(text))
    if not markers:
        return {None: _script(text)}
    names = [marker.group(1) for marker in markers]
    if len(set(names)) != len(names):
        raise LookupError(f"{path.name} names a script twice")
    ends = [marker.start() for marker in markers[1:]] + [len(text)]
    return {marker.group(1): _script(text[marker.end() : end]) for marker, end in zip(markers, ends, strict=True)}


def _script(text: str) -> str:
    """``text`` without its opening comment lines and blank lines, and without its closing newlines."""
    lines = text.split("\n")
    start = 0
    while start < len(lines) and (not lines[start].strip() or lines[start].lstrip().startswith("//")):
        start += 1
    script = "\n".join(lines[start:]).rstrip("\n")
    if not script.strip():
        raise LookupError("a script file (or part) holds no script")
    return script
