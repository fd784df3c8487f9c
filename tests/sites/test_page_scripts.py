"""JavaScript that runs in pages lives in ``.js`` files beside the module that injects it.

Modules read their scripts through one helper,
:func:`apps.sites.observation.scripts.script_beside`. These tests scan the
Python sources of ``apps/`` for string literals that read as page code, and
check that every ``.js`` file (and every named script in it) is read by a
module beside it.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from apps.sites.observation.scripts import script_beside

APPS = Path(__file__).resolve().parents[2] / "apps"
# What page code looks like: an arrow function (its parameters in parentheses, or one name and a
# body that reads as code), a function with a body, a member of the page's document or window.
PAGE_CODE = (
    re.compile(r"\([^()]*\)\s*=>|\b[A-Za-z_$][\w$]*\s*=>\s*(?:[{(\[]|[\w$]+\s*[.(\[])"),
    re.compile(r"\bfunction\b\s*[\w$]*\s*\([^()]*\)\s*\{"),
    re.compile(r"\b(?:document|window)\.(?:[a-z]+[A-Z][\w$]*|body|title|URL|baseURI|cookie|location|head|forms)\b"),
)


def page_code_in(source: str) -> list[int]:
    """Lines of ``source`` where a string literal (f-string parts and joined literals included) reads as page code."""
    return sorted(
        node.lineno
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and any(pattern.search(node.value) for pattern in PAGE_CODE)
    )


def _sources() -> list[Path]:
    return sorted(APPS.rglob("*.py"))


def test_no_python_string_holds_page_code() -> None:
    found = {
        str(path.relative_to(APPS.parent)): lines
        for path in _sources()
        if (lines := page_code_in(path.read_text(encoding="utf-8")))
    }
    assert found == {}, f"page JavaScript in Python strings (move it to a .js file beside the module): {found}"


@pytest.mark.parametrize(
    "source",
    [
        'SCRIPT = "() => document.title"',
        "SCRIPT = '(el) => el.checked'",
        "SCRIPT = 'el => el.checked'",
        "SCRIPT = 'document.body.innerText'",
        'SCRIPT = """(field) => {\n  field.focus();\n  return true;\n}"""',
        'SCRIPT = "function (a) { return a; }"',
        'SCRIPT = "function read(request) {\\n}"',
        "SCRIPT = 'window.scrollTo(0, 0)'",
        'SCRIPT = ("({ counter }) => { counter.stop();"\n          " return { ok: true }; }")',
        'SCRIPT = f"() => window.scrollBy(0, {PIXELS})"',
    ],
)
def test_the_scan_catches_page_code(source: str) -> None:
    assert page_code_in(source) == [1]


@pytest.mark.parametrize(
    "source",
    [
        '"""The document. Then the window."""',
        'LABEL = "a function of the page (its frames)"',
        'MESSAGE = "greater => better"',
        'NAME = "document.pdf"',
        "RULE = 'x >= 2'",
    ],
)
def test_the_scan_leaves_prose_alone(source: str) -> None:
    assert page_code_in(source) == []


def _scripts_read() -> dict[Path, set[str | None]]:
    """Each script file that a module reads through ``script_beside(__file__, name[, part])``, with the parts read."""
    read: dict[Path, set[str | None]] = {}
    for path in _sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "script_beside"):
                continue
            arguments = [argument.value if isinstance(argument, ast.Constant) else None for argument in node.args]
            assert isinstance(node.args[0], ast.Name) and node.args[0].id == "__file__", f"{path}:{node.lineno}"
            assert len(arguments) in (2, 3) and isinstance(arguments[1], str), f"{path}:{node.lineno}"
            part = arguments[2] if len(arguments) == 3 else None
            assert part is None or isinstance(part, str), f"{path}:{node.lineno}"
            read.setdefault(path.parent / arguments[1], set()).add(part)
    return read


def test_every_page_script_is_read_by_a_module_beside_it() -> None:
    read = _scripts_read()
    files = set((APPS / "sites").rglob("*.js"))
    assert files, "no page scripts found"
    assert sorted(map(str, files - set(read))) == [], "script files no module reads"
    assert sorted(map(str, set(read) - files)) == [], "modules read script files that are not there"
    for path, parts in read.items():
        text = path.read_text(encoding="utf-8")
        named = set(re.findall(r"^// --- ([a-z][a-z0-9_]*) ---$", text, flags=re.MULTILINE))
        assert parts == (named or {None}), f"{path.name}: read {parts}, holds {named or 'one script'}"


def test_a_script_is_sent_without_its_opening_comments(tmp_path: Path) -> None:
    (tmp_path / "one.js").write_text("// What it is.\n//\n(el) => {\n  // why\n  return el.checked;\n}\n")
    (tmp_path / "parts.js").write_text(
        "// The file.\n\n// --- first ---\n// What it does.\n() => 1\n\n// --- second ---\n(a) => a\n"
    )
    module = str(tmp_path / "module.py")
    assert script_beside(module, "one.js") == "(el) => {\n  // why\n  return el.checked;\n}"
    assert script_beside(module, "parts.js", "first") == "() => 1"
    assert script_beside(module, "parts.js", "second") == "(a) => a"
    with pytest.raises(LookupError):
        script_beside(module, "parts.js")
    with pytest.raises(LookupError):
        script_beside(module, "parts.js", "third")
    with pytest.raises(LookupError):
        script_beside(module, "one.js", "first")
