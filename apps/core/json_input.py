"""Strict JSON: the one reader of JSON from outside, with typed refusals, and the REST API's parser.

Every JSON document Metnos reads from outside — a REST body
(:class:`StrictJSONParser`), a portal view that takes JSON
(:func:`apps.core.request_body.json_body`, used by the handoff panel's
commands) and a plan file (``metnos plan``) — goes through
:func:`json_loads_strict`. It raises :class:`JsonRefused`, with a stable code
and a plain message, for:

* text that is not valid UTF-8, or that holds a lone surrogate or a NUL
  character, which no database column stores faithfully (``json_invalid_text``);
* nesting deeper than ``MAX_JSON_DEPTH`` arrays and objects (``json_too_deep``);
* ``NaN`` and ``Infinity`` (``json_not_a_number``), integers beyond
  ``±MAX_JSON_INTEGER`` and numbers too large for a double
  (``json_number_out_of_range``);
* anything else that is not JSON (``parse_error``).

This module imports no view of DRF: the parser is loaded while DRF defines
its views.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from typing import Any, NoReturn

from django.core.exceptions import RequestDataTooBig
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from apps.core.limits import (
    MAX_JSON_DEPTH,
    MAX_JSON_INTEGER,
    MAX_JSON_INTEGER_DIGITS,
    request_body_limit,
    request_too_large_message,
)
from apps.core.storable import holds_unstorable


class JsonRefused(ValueError):
    """A JSON document Metnos will not read; ``code`` is stable, ``message`` is for people."""

    def __init__(self, code: str, message: str, *, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


class _OutOfRange(Exception):
    pass


class _NotANumber(Exception):
    pass


def _parse_int(text: str) -> int:
    if len(text) > MAX_JSON_INTEGER_DIGITS:
        raise _OutOfRange  # refused unread: converting a long literal costs time
    value = int(text)
    if not -MAX_JSON_INTEGER <= value <= MAX_JSON_INTEGER:
        raise _OutOfRange
    return value


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e999 reads as infinity
        raise _OutOfRange
    return value


def _parse_constant(name: str) -> NoReturn:
    raise _NotANumber


_DECODER = json.JSONDecoder(parse_int=_parse_int, parse_float=_parse_float, parse_constant=_parse_constant)
# Text no column keeps as it was given: NUL (refused by PostgreSQL) and surrogates without their pair.

_TOO_DEEP = f"The JSON nests deeper than {MAX_JSON_DEPTH} levels of arrays and objects."
_BAD_UNICODE = "The JSON holds text that is not valid Unicode (a lone surrogate) or a NUL character."


def json_loads_strict(data: bytes | bytearray | str, *, encoding: str = "utf-8") -> Any:
    """The JSON value of ``data``, or :class:`JsonRefused` naming what is wrong with it."""
    if isinstance(data, bytes | bytearray):
        try:
            text = bytes(data).decode(encoding)
        except (UnicodeDecodeError, LookupError):
            raise JsonRefused("json_invalid_text", f"The text is not valid {encoding}.") from None
    else:
        text = data
    if holds_unstorable(text):  # raw ones; escaped ones (\u0000, \ud800) are looked for after decoding
        raise JsonRefused("json_invalid_text", _BAD_UNICODE)
    try:
        value = _DECODER.decode(text)
    except RecursionError:
        raise JsonRefused("json_too_deep", _TOO_DEEP) from None
    except _OutOfRange:
        raise JsonRefused(
            "json_number_out_of_range",
            f"A number in the JSON is out of range: integers go from -{MAX_JSON_INTEGER} to {MAX_JSON_INTEGER} "
            "and other numbers must fit a double.",
        ) from None
    except _NotANumber:
        raise JsonRefused("json_not_a_number", "NaN and Infinity are not JSON numbers.") from None
    except json.JSONDecodeError as error:
        raise JsonRefused(
            "parse_error", f"The JSON is not valid: {error.msg} (line {error.lineno}, column {error.colno})."
        ) from None
    except ValueError:  # an integer literal Python will not read
        raise JsonRefused("parse_error", "The JSON is not valid.") from None
    # Only documents that could break a rule are walked: enough brackets to nest too deep, or \u escapes.
    deep = text.count("[") + text.count("{") > MAX_JSON_DEPTH
    escaped = "\\u" in text
    if deep or escaped:
        _check_tree(value, deep=deep, escaped=escaped)
    return value


def _check_tree(value: Any, *, deep: bool, escaped: bool) -> None:
    """Depth and text of a decoded document, without recursion (the document may be deep)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if type(node) is str:
            if escaped and holds_unstorable(node):
                raise JsonRefused("json_invalid_text", _BAD_UNICODE)
            continue
        if type(node) is dict:
            children: Any = node.values()
            if escaped and any(holds_unstorable(key) for key in node):
                raise JsonRefused("json_invalid_text", _BAD_UNICODE)
        elif type(node) is list:
            children = node
        else:
            continue
        if deep and depth > MAX_JSON_DEPTH:
            raise JsonRefused("json_too_deep", _TOO_DEEP)
        walked = _CONTAINERS_AND_TEXT if escaped else _CONTAINERS
        stack.extend((child, depth + 1) for child in children if type(child) in walked)


_CONTAINERS = (dict, list)
_CONTAINERS_AND_TEXT = (dict, list, str)


def _read_bounded(read: Callable[[int], bytes]) -> bytes:
    limit = request_body_limit()
    data = read(-1) if limit is None else read(limit + 1)
    if limit is not None and len(data) > limit:
        raise RequestDataTooBig(request_too_large_message())
    return data


class StrictJSONParser(JSONParser):
    """DRF's JSON parser, reading through :func:`json_loads_strict`: a refusal is a typed 400 (``ParseError``)."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Mapping[str, Any] | None = None) -> Any:
        encoding = str((parser_context or {}).get("encoding") or "utf-8")
        # DRF hands JSON parsers the body Django read, within the limit; a stream from elsewhere is bounded here.
        data = _read_bounded(stream.read)
        try:
            return json_loads_strict(data, encoding=encoding)
        except JsonRefused as refused:
            raise ParseError(detail=refused.message, code=refused.code) from None
