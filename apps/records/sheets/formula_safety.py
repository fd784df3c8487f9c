"""Active text: values a spreadsheet would evaluate instead of showing.

Values supplied as data never become formulas. Every sheet writer (XLSX, CSV,
Google Sheets) asks :func:`is_active_text` about each text cell, headings
included, and CSV and Google Sheets writers store :func:`protect_text` of it.

The rule, exactly:

1. Skip the leading characters that a spreadsheet ignores or that a reader
   cannot see: whitespace (tab, CR, LF, NBSP, every Unicode space and line or
   paragraph separator) and every code point of the Unicode "other" categories
   (C0 and C1 controls including NUL, format characters such as zero-width
   spaces, bidi marks and the BOM, private-use, surrogate and unassigned code
   points). Skipping these is deliberately generous: hiding a trigger behind
   invisible characters must not hide it from us.
2. The first remaining character decides. Text is active when it is a formula
   trigger: ``= + - @`` or any character that Unicode compatibility
   normalisation (NFKC) turns into one: the fullwidth forms U+FF1D, U+FF0B,
   U+FF0D, U+FF20 (which East Asian input methods produce and Excel accepts),
   small, superscript and subscript forms, U+2A75 and U+2A76. DDE payloads (``=cmd|' /C calc'!A0``,
   ``@SUM(1+1)*cmd|…``) are active by this rule: they start with a trigger.
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
* Plain numbers (``12``, ``12.50``, ``1.234,56``) and ordinary text start with
  a digit or a letter and are never active.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

PROTECTIVE_PREFIX: Final = "'"

# Every code point whose NFKC form starts with = + - or @ (the test suite
# checks this list against the whole Unicode range, so it cannot drift).
FORMULA_TRIGGERS: Final = frozenset(
    "=+-@"
    "\u207a\u207c"  # superscript plus, equals
    "\u208a\u208c"  # subscript plus, equals
    "\u2a75\u2a76"  # two and three consecutive equals signs
    "\ufb29"  # Hebrew alternative plus sign
    "\ufe62\ufe63\ufe66\ufe6b"  # small plus, hyphen-minus, equals, commercial at
    "\uff0b\uff0d\uff1d\uff20"  # fullwidth plus, hyphen-minus, equals, commercial at
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
