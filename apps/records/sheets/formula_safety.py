"""Active text: values a spreadsheet would evaluate instead of showing.

Values supplied as data never become formulas. The XLSX and Google Sheets
writers ask :func:`is_active_text` about each text cell, headings included,
and the Google Sheets writer stores :func:`protect_text` of it. The CSV
writer stores :func:`protect_csv_text` (below), which applies the same rule
at every place inside the text where a CSV reader could start a cell.

The rule, exactly:

1. Skip the leading characters that a spreadsheet ignores or that a reader
   cannot see: whitespace (tab, CR, LF, NBSP, every Unicode space and line or
   paragraph separator) and every code point of the Unicode "other" categories
   (C0 and C1 controls including NUL, format characters such as zero-width
   spaces, bidi marks and the BOM, private-use, surrogate and unassigned code
   points). Skipping these is deliberately generous: hiding a trigger behind
   invisible characters must not hide it from us.
2. The first remaining character decides. Text is active when it is a formula
   trigger: ``= + - @``, ``|`` and ``%``, or any character that Unicode
   compatibility normalisation (NFKC) turns into one: the fullwidth forms
   U+FF1D, U+FF0B, U+FF0D, U+FF20, U+FF5C and U+FF05 (which East Asian input
   methods produce; Excel accepts the first four as the ASCII operators),
   small, superscript and subscript forms, U+2A75 and U+2A76. ``|`` (the DDE
   operator) and ``%`` are on the list as in the CSV-injection guards in wide
   use (defusedcsv protects both); ordinary data rarely starts with either
   (``50%`` starts with a digit), so the apostrophe costs little. The
   fullwidth forms follow the rule "whatever NFKC folds into a trigger"
   rather than a guess about which program accepts which. DDE payloads
   (``=cmd|' /C calc'!A0``, ``@SUM(1+1)*cmd|…``) are active by this rule: they
   start with a trigger.
3. One exception, so that amounts stay untouched: a hyphen-minus followed by a
   plain number and nothing else — ``-12``, ``-12.50``, ``-12,50``,
   ``-1.234,56``, ``-1,234.56``, ``-.5`` — or by nothing at all (the lone
   ``-`` placeholder for "no value"). A spreadsheet reads these as the number
   (or the dash) itself: no function, reference or link can hide in digits and
   separators. Anything more is active: ``- 12`` (a space after the sign),
   ``-12 €``, ``-1e5``, ``--12``, ``-12.50\\n=…``.

Deliberate consequences:

* A leading ``+`` is never exempt. ``+39 06 1234567`` is a phone number, and a
  spreadsheet would evaluate it as a formula (the spaces are its intersection
  operator) and show an error instead of the number; ``+39`` would lose its
  plus. Both are protected.
* E-mail addresses start with a letter or digit, so ``mario@example.org`` is
  never active. An address that starts with a trigger is protected like any
  other text: ``=cmd|'/Ccalc'!A0@example.org`` is a syntactically valid
  address (RFC 5322 allows ``= | ' !`` in the local part) and a DDE payload.
* Plain numbers (``12``, ``12.50``, ``1.234,56``, ``50%``) and ordinary text
  start with a digit or a letter and are never active; ``% sconto`` is.

In a CSV file (:func:`protect_csv_text`)
----------------------------------------

A CSV file is often opened with another separator than the one it was
written with: Excel uses the list separator of its locale — the semicolon in
Italian, German and French — and other programs offer the tab and ``|``.
``Fornitore;=1+1`` is one harmless field of a comma-separated file, and two
fields, the second a live formula, for a reader splitting on semicolons.
Quoting every field (the CSV writer does) keeps such a reader from splitting
the first field of a line only; after that its quoting is out of step with
the file's. So the CSV rule looks at every place where a reader could start
a cell:

* the start of the value, a cell that holds the whole value (the reader
  that splits at the writer's delimiter sees exactly the value);
* every character after a separator in :data:`CSV_SEPARATORS` (``, ; tab |``)
  or a line break in :data:`CSV_LINE_BREAKS` — a cell that ends at the next
  separator of the same kind, CR or LF, or runs on past the end of the value
  into its closing quote and the next fields.

At each such place, skip what rule 1 skips and double quotes too (a reader
may take them as quoting and drop them). The text is active there when the
next character is a trigger, after any apostrophes; the hyphen-minus of rule
3 stays untouched only when no quote was skipped and the plain number ends
the cell inside the value (``a;-12;b``, not ``a;-12``, whose cell runs on).
Each such trigger gets one apostrophe right before it: ``Fornitore;=1+1``
becomes ``Fornitore;'=1+1``, `` =1+1`` becomes `` '=1+1``. The apostrophe
goes before the trigger rather than at the start of the cell so that one
apostrophe serves every reading (``a;\\t=1`` is a cell ``\\t=1`` to a
semicolon reader and ``=1`` to a tab reader), and it is added even when
apostrophes already stand before the trigger (``'=1+1`` becomes ``''=1+1``):
that is what makes :func:`restore_csv_text`, which takes one apostrophe away
before each such trigger, the exact reverse of :func:`protect_csv_text` for
every text. A numeric cell is never changed: a negative number that a
wrong-separator reader sees running on into the next fields is followed by a
double quote, and a number followed by a string is not a formula.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections.abc import Iterator
from typing import Final

PROTECTIVE_PREFIX: Final = "'"

# Every code point whose NFKC form starts with = + - @ | or % (the test suite
# checks this list against the whole Unicode range, so it cannot drift).
FORMULA_TRIGGERS: Final = frozenset(
    "=+-@|%"
    "\u207a\u207c"  # superscript plus, equals
    "\u208a\u208c"  # subscript plus, equals
    "\u2a75\u2a76"  # two and three consecutive equals signs
    "\ufb29"  # Hebrew alternative plus sign
    "\ufe62\ufe63\ufe66\ufe6a\ufe6b"  # small plus, hyphen-minus, equals, percent, commercial at
    "\uff05\uff0b\uff0d\uff1d\uff20\uff5c"  # fullwidth percent, plus, hyphen-minus, equals, at, vertical line
)

# What may follow the hyphen-minus of an untouched negative amount: nothing
# (the lone dash), or a plain number with Italian or English grouping.
_NEGATIVE_AMOUNT_TAIL: Final = re.compile(
    r"""
    (?:
        [0-9]{1,3}(?:\.[0-9]{3})+(?:,[0-9]+)?    # 1.234.567,89
      | [0-9]{1,3}(?:,[0-9]{3})+(?:\.[0-9]+)?    # 1,234,567.89
      | [0-9]+(?:[.,][0-9]+)?                    # 12 / 12.50 / 12,50
      | [.,][0-9]+                               # .5 / ,5
    )?
    """,
    re.VERBOSE,
)


def _is_ignorable(char: str) -> bool:
    # Categories C* (Cc, Cf, Cs, Co, Cn) and Z* (Zs, Zl, Zp), plus whitespace
    # that Unicode files elsewhere (the C0 separators \x1c-\x1f are Cc anyway).
    return char.isspace() or unicodedata.category(char)[0] in "CZ"


def is_active_text(value: str) -> bool:
    """True when a spreadsheet would evaluate ``value`` instead of showing it.

    See the module docstring for the exact rule. Total: never raises for any
    ``str``, including lone surrogates and control characters.
    """
    for index, char in enumerate(value):
        if char in FORMULA_TRIGGERS:
            if char == "-":
                return _NEGATIVE_AMOUNT_TAIL.fullmatch(value, index + 1) is None
            return True
        if char.isalnum() or not _is_ignorable(char):
            return False
    return False


def protect_text(value: str) -> str:
    """``value`` with a leading apostrophe when it is active text, else unchanged.

    The apostrophe is the spreadsheet convention for "this is text". Typed into
    a cell it is hidden, but in a CSV file or a RAW Google Sheets write it is
    part of the stored value and may be visible. Protected text is never active
    again, so protecting twice adds nothing.
    """
    if is_active_text(value):
        return PROTECTIVE_PREFIX + value
    return value


# --- CSV ---------------------------------------------------------------------------

# The field separators spreadsheet programs commonly offer for CSV files: the
# comma, the semicolon (Excel's list separator in Italian, German and French),
# the tab and the vertical bar.
CSV_SEPARATORS: Final = (",", ";", "\t", "|")
# Every character some reader takes as the end of a line (those of
# str.splitlines): each may start a cell. Only CR and LF surely end one: a
# reader that does not break lines at the others runs the cell on.
CSV_LINE_BREAKS: Final = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
_SURE_LINE_BREAKS: Final = "\n\r"

_ANY_TRIGGER: Final = re.compile("[" + re.escape("".join(sorted(FORMULA_TRIGGERS))) + "]")
_ANY_BOUNDARY: Final = re.compile("[" + re.escape("".join(CSV_SEPARATORS) + CSV_LINE_BREAKS) + "]")
# For each separator: where a cell may start (after the match), where it surely ends.
_CELL_BOUNDARIES: Final = tuple(
    (
        re.compile("[" + re.escape(separator + CSV_LINE_BREAKS) + "]"),
        re.compile("[" + re.escape(separator + _SURE_LINE_BREAKS) + "]"),
    )
    for separator in CSV_SEPARATORS
)


def _csv_cells(value: str) -> Iterator[tuple[int, int, bool]]:
    """``(start, end, closed)`` of every cell a CSV reader could see begin inside ``value``.

    The value itself is one; so is the text after each separator or line
    break, up to the next separator of the same kind, CR or LF (``closed``),
    or to the end of the value, where the reader's cell runs on.
    """
    yield 0, len(value), True
    for may_start, surely_ends in _CELL_BOUNDARIES:
        ends = [match.start() for match in surely_ends.finditer(value)]
        for match in may_start.finditer(value):
            start = match.end()
            following = bisect.bisect_left(ends, start)
            if following < len(ends):
                yield start, ends[following], True
            else:
                yield start, len(value), False


def _active_trigger(value: str, start: int, end: int, closed: bool) -> int | None:
    """Where the trigger is that makes the cell ``value[start:end]`` active, if one does."""
    index = start
    quoted = False
    while index < end and (value[index] == '"' or _is_ignorable(value[index])):
        quoted = quoted or value[index] == '"'
        index += 1
    while index < end and value[index] == PROTECTIVE_PREFIX:
        index += 1
    if index == end or value[index] not in FORMULA_TRIGGERS:
        return None
    if value[index] == "-" and closed and not quoted and _NEGATIVE_AMOUNT_TAIL.fullmatch(value, index + 1, end):
        return None
    return index


def _csv_triggers(value: str) -> list[int]:
    """Every trigger of ``value`` that some CSV reading would see start a cell, in order."""
    if _ANY_TRIGGER.search(value) is None:
        return []
    if _ANY_BOUNDARY.search(value) is None:  # the common case: one cell, the value itself
        index = _active_trigger(value, 0, len(value), True)
        return [] if index is None else [index]
    found = {_active_trigger(value, start, end, closed) for start, end, closed in _csv_cells(value)}
    return sorted(index for index in found if index is not None)


def protect_csv_text(value: str) -> str:
    """``value`` with an apostrophe before every trigger that could start a CSV cell.

    See "In a CSV file" in the module docstring: the start of the value and
    every place after a separator of :data:`CSV_SEPARATORS` or a line break
    are guarded, so no reading of a file with any of those separators sees a
    cell start with a trigger (a plain negative amount apart). Text without
    such a place is returned as it is. :func:`restore_csv_text` reverses it
    exactly.
    """
    triggers = _csv_triggers(value)
    if not triggers:
        return value
    cuts = zip([0, *triggers], [*triggers, len(value)], strict=True)
    return PROTECTIVE_PREFIX.join(value[start:end] for start, end in cuts)


def restore_csv_text(written: str) -> str:
    """The text that :func:`protect_csv_text` turned into ``written``.

    Takes away the apostrophe right before each guarded trigger (the last of
    the apostrophes standing there). ``restore_csv_text(protect_csv_text(t))
    == t`` for every text ``t``.
    """
    marks = [index - 1 for index in _csv_triggers(written) if index and written[index - 1] == PROTECTIVE_PREFIX]
    if not marks:
        return written
    kept = zip([-1, *marks], [*marks, len(written)], strict=True)
    return "".join(written[mark + 1 : end] for mark, end in kept)
