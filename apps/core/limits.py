"""Bounds on what a request may carry: its body, the JSON in it, a page of a list.

One place for the platform's bounds, cited by the code that enforces them and
by the tests (docs/architecture.md, "What a request may carry").
"""

from __future__ import annotations

from typing import Final

from django.conf import settings

# Nesting of arrays and objects in a JSON body. The deepest document Metnos
# itself reads is a plan (a few levels plus MAX_VALUE_DEPTH inside an argument).
MAX_JSON_DEPTH: Final = 64
# Integers in a JSON body: the range of a 64-bit database integer. Larger ones
# cannot be an id, a count or a size, and SQLite cannot even compare them.
MAX_JSON_INTEGER: Final = 2**63 - 1
# Digits of an integer literal read at all (sign included); longer ones are refused unread.
MAX_JSON_INTEGER_DIGITS: Final = len(str(-MAX_JSON_INTEGER))

# A page of a list endpoint: ``?limit=`` above this is lowered to it.
MAX_PAGE_SIZE: Final = 200


def request_body_limit() -> int | None:
    """The most bytes a request body may have: Django's ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (2.5 MiB by default).

    ``None`` when an operator set no limit. Files sent as ``multipart/form-data``
    are not counted, as in Django.
    """
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    return None if limit is None else int(limit)


def request_too_large_message() -> str:
    limit = request_body_limit()
    if limit is None:
        return "The request is larger than Metnos accepts."
    return f"The request is larger than Metnos accepts (at most {limit / (1024 * 1024):.1f} MB, {limit} bytes)."
