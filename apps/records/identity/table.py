"""The index ``merge_rows`` decides on: every cell read once, rows numbered in source-id order.

Internal to :mod:`apps.records.identity.rows`. Building it is the only pass
over every cell, so it is written for speed: cells are first grouped by their
raw value (a ``str`` hashes once and is cached), column by column when the
rows of a page share their keys; only then is each distinct value read
(:func:`~apps.records.identity.codes.read_texts`) and its rows filed under
its comparable value. Per-row readings (the comparable value of each field,
the codes of each field) are built lazily, only for the rows a decision looks
at, and kept in lists indexed by row number.

The merge runs with automatic garbage collection on, so the index allocates
few containers, and ones the collector soon stops tracking: tuples of
numbers and text rather than lists, a dictionary of texts to plain values,
one frozenset for each set of fields rather than one per row.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from itertools import compress, count, repeat
from operator import is_, itemgetter, ne
from typing import cast

from apps.records.identity.codes import (
    Code,
    Comparable,
    FieldCodes,
    comparable,
    identifier_field_codes,
    normalise_text,
    read_texts,
)
from apps.records.rows import Row, Source

Bucket = int | tuple[int, ...]
"""The rows holding one value: a single row number, or several in ascending order.

Tuples, not lists: the garbage collector stops tracking a tuple of numbers,
while it would walk a list again at every collection of the oldest generation.
"""

_Filing = int | list[int]
"""A bucket while the rows of a value are filed into it."""

CodeCell = tuple[str, tuple[Code, ...]]
"""A cell showing codes: ``(normalised key, codes)``."""

_NO_FIELDS: frozenset[str] = frozenset()
_ABSENT = object()


def _file_under(
    target: dict[Comparable, Bucket], comps: list[Comparable | None], buckets: list[Bucket]
) -> list[Comparable]:
    """File each bucket under its comparable value (none for an empty cell); return the values met twice.

    Buckets meeting under one value ("12,50 €" and ``Decimal("12.5")``) are
    joined into one, in no particular order. The work is done on whole
    lists; Python steps only through the values met twice.
    """
    last = dict(zip(comps, count()))  # value -> position of its last bucket
    empty = sum(map(is_, comps, repeat(None))) if last.pop(None, _ABSENT) is not _ABSENT else 0
    met_before = set(last).intersection(target) if target else set()
    if len(last) + empty == len(comps):  # no value met twice
        met_twice: set[Comparable | None] = set()
    else:
        met_twice = set(compress(comps, map(ne, map(last.get, comps), count())))  # values with a later bucket
        met_twice.discard(None)
    if not met_before and not met_twice:  # the usual column: every value new and met once
        target.update(zip(comps, buckets, strict=True))
        target.pop(None, None)
        return []
    parts: dict[Comparable, list[Bucket]] = {comp: [target[comp]] for comp in met_before}
    met_twice |= met_before
    for comp, bucket in compress(zip(comps, buckets, strict=True), map(met_twice.__contains__, comps)):
        parts.setdefault(comp, []).append(bucket)
    target.update(zip(comps, buckets, strict=True))
    target.pop(None, None)
    for comp, held in parts.items():
        target[comp] = tuple(r for bucket in held for r in rows_of(bucket))
    return list(parts)


def _with_identifier_codes(found: tuple[Code, ...], held: Hashable) -> tuple[Code, ...]:
    """The codes of a cell of a declared identifier field: its digit-only numbers count too."""
    value = held if type(held) is str else held[1]  # type: ignore[index]
    return tuple({**dict(found), **dict(identifier_field_codes(value))}.items())


class _Unhashable:
    """Marks the text stand-in of a cell whose value cannot be hashed."""


def _joined(a: Bucket, b: Bucket) -> tuple[int, ...]:
    return (*rows_of(a), *rows_of(b))


def rows_of(bucket: Bucket) -> Sequence[int]:
    """The row numbers of a bucket, as a sequence."""
    return (bucket,) if type(bucket) is int else bucket  # type: ignore[return-value]


# --- grouping cells by raw value -------------------------------------------------


def _held(value: object) -> Hashable:
    # Text is the common case and hashes once; other values carry their type
    # so that True, 1 and 1.0 stay apart until they are read.
    return value if type(value) is str else (type(value), value)


def _file(by_raw: dict[Hashable, _Filing], held: Hashable, r: int) -> None:
    try:
        bucket = by_raw.get(held)
    except TypeError:
        held = (_Unhashable, str(held[1]))  # type: ignore[index]
        bucket = by_raw.get(held)
    if bucket is None:
        by_raw[held] = r
    elif type(bucket) is int:
        by_raw[held] = [bucket, r]
    else:
        bucket.append(r)  # type: ignore[union-attr]


def _columns(rows: Sequence[Row]) -> list[tuple[str, Sequence[object]]] | None:
    """The cells of rows that are dictionaries with the same keys, column by column; ``None`` otherwise.

    The rows of a page usually share their keys, and a column is filed in
    one tight loop.
    """
    if not rows or set(map(type, rows)) != {dict}:
        return None
    keys = tuple(rows[0])
    if len(keys) < 2 or set(map(len, rows)) != {len(keys)}:
        return None
    try:  # a column at a time: no tuple per row
        return [(key, list(map(itemgetter(key), rows))) for key in keys]
    except KeyError:  # as many keys, not the same ones
        return None


def _file_column(by_raw: dict[Hashable, _Filing], column: Sequence[object], start: int) -> None:
    """File the cells of one column; row numbers count from ``start``."""
    if set(map(type, column)) != {str}:
        for r, value in enumerate(column, start):
            _file(by_raw, _held(value), r)
        return
    get = by_raw.get
    for r, text in enumerate(column, start):
        bucket = get(text)
        if bucket is None:
            by_raw[text] = r
        elif type(bucket) is int:
            by_raw[text] = [bucket, r]
        else:
            bucket.append(r)  # type: ignore[union-attr]


def _file_rows(cells: dict[str, dict[Hashable, _Filing]], rows: Sequence[Row], start: int) -> None:
    """File the cells of rows of any shape, row by row."""
    for r, row in enumerate(rows, start):
        for key, value in row.items():
            by_raw = cells.get(key)
            if by_raw is None:
                by_raw = cells[key] = {}
            _file(by_raw, _held(value), r)


class RowTable:
    """Every row of every source, numbered in source-id order, with what identity needs.

    Row numbers follow the sources sorted by id, so decisions taken in
    row-number order do not depend on the order the sources were given in.
    """

    def __init__(self, ordered: Sequence[Source], identifier_keys: frozenset[str]) -> None:
        self.sources = ordered
        self.identifier_keys = identifier_keys
        self.first: list[int] = []  # the row number of each source's first row, then the row count
        self.source_of: list[int] = []  # row number -> position of its source
        self.raw: list[Row] = []
        self.key_of: dict[str, str] = {}  # key as read -> normalised key
        self.key_shown: dict[str, str] = {}  # normalised key -> key as first read
        self.by_value: dict[str, dict[Comparable, Bucket]] = {}  # normalised key -> comparable value -> rows
        self.code_rows: dict[str, Bucket] = {}  # normalised code -> rows showing it
        self.members: dict[str, tuple[int, ...]] = {}  # identifier -> its rows (one per source), when two or more
        self.constants: list[dict[str, Comparable]] = []  # per source: values on every one of its rows
        self.constant_rows: dict[str, dict[Comparable, int]] = {}  # rows hidden by those constants, per value
        self._comparables: dict[str, Comparable | None] = {}  # text -> its comparable value
        # code shown twice on some page -> the rows that are the only one of their page showing it
        self.single_in_source: dict[str, set[int]] = {}
        count = sum(len(source.rows) for source in ordered)
        # row -> (field, codes) of its cells showing codes; tuples, which the
        # garbage collector stops tracking, rather than lists it walks again and again
        self._code_cells: list[tuple[CodeCell, ...]] = [()] * count
        self._private: list[frozenset[str] | None] = [None] * count
        self._identifiers: list[tuple[str, ...] | None] = [None] * count
        self._field_sets: dict[tuple[str, ...], frozenset[str]] = {}  # one frozenset for each set of fields
        self._items: list[dict[str, Comparable] | None] = [None] * count
        self._codes: list[dict[str, str] | None] = [None] * count
        self._field_codes: list[FieldCodes | None] = [None] * count
        self._analyse(self._index_cells())
        self._find_members()
        self._find_constants()

    # --- building -----------------------------------------------------------

    def _index_cells(self) -> dict[str, dict[Hashable, _Filing]]:
        """Rows grouped by key as read and by value as read: one dictionary step per cell."""
        cells: dict[str, dict[Hashable, _Filing]] = {}
        r = 0
        for position, source in enumerate(self.sources):
            rows = source.rows
            self.first.append(r)
            self.raw.extend(rows)
            self.source_of.extend(repeat(position, len(rows)))
            columns = _columns(rows)
            if columns is None:
                _file_rows(cells, rows, r)
            else:
                for key, column in columns:
                    by_raw = cells.get(key)
                    if by_raw is None:
                        by_raw = cells[key] = {}
                    _file_column(by_raw, column, r)
            r += len(rows)
        self.first.append(r)
        return cells

    def _readings(
        self, by_raw: dict[Hashable, _Filing], identifier_field: bool
    ) -> tuple[list[Comparable | None], list[tuple[Code, ...]]]:
        """The comparable value and the codes of each distinct value of one key, in order.

        The comparable values of texts are kept for :meth:`items`.
        """
        # Texts repeated under another key are rare: reading them again costs
        # less than asking, for every text, whether it was read already.
        is_text = list(map(is_, map(type, by_raw), repeat(str)))
        texts: list[str] = list(compress(by_raw, is_text))  # type: ignore[arg-type]
        comps, codes = read_texts(texts)
        self._comparables.update(zip(texts, comps, strict=True))
        if len(texts) < len(by_raw):  # typed values among the texts: they show no codes of their own
            text_comps, text_codes = iter(comps), iter(codes)
            comps = [
                next(text_comps) if text else comparable(held[1])  # type: ignore[index]
                for held, text in zip(by_raw, is_text, strict=True)
            ]
            codes = [next(text_codes) if text else () for text in is_text]
        if identifier_field:
            codes = [_with_identifier_codes(found, held) for found, held in zip(codes, by_raw, strict=True)]
        return comps, codes

    def _analyse(self, cells: dict[str, dict[Hashable, _Filing]]) -> None:
        """Read each distinct value once; file rows by comparable value and by the codes they show."""
        joined_values: list[tuple[str, Comparable]] = []
        joined_codes: set[str] = set()
        code_cells, code_rows = self._code_cells, self.code_rows
        for key, by_raw in cells.items():
            nk = self.key_of[key] = normalise_text(str(key))
            self.key_shown.setdefault(nk, str(key).strip())
            comps, shown = self._readings(by_raw, nk in self.identifier_keys)
            buckets: list[Bucket] = list(by_raw.values())  # type: ignore[arg-type]
            for i in compress(range(len(buckets)), map(isinstance, buckets, repeat(list))):
                buckets[i] = tuple(buckets[i])  # type: ignore[arg-type]
            target = self.by_value.setdefault(nk, {})
            joined = _file_under(target, comps, buckets)
            joined_values.extend(zip(repeat(nk), joined))
            for found, rows in compress(zip(shown, buckets, strict=True), shown):
                cell = (nk, found)
                if type(rows) is int:
                    code_cells[rows] += (cell,)
                else:
                    for r in rows:  # type: ignore[union-attr]
                        code_cells[r] += (cell,)
                for code, _ in found:
                    size = len(code_rows)
                    existing = code_rows.setdefault(code, rows)
                    if len(code_rows) == size:
                        code_rows[code] = _joined(existing, rows)
                        joined_codes.add(code)
        for nk, comp in joined_values:
            self.by_value[nk][comp] = tuple(sorted(set(rows_of(self.by_value[nk][comp]))))
        for code in joined_codes:
            code_rows[code] = tuple(sorted(set(rows_of(code_rows[code]))))

    def _find_members(self) -> None:
        """For each code shown on several rows, the rows that are the only one of their source showing it."""
        source_of = self.source_of
        code_rows = self.code_rows
        # Codes shown on one row in all have nothing to merge with.
        for code, bucket in compress(code_rows.items(), map(isinstance, code_rows.values(), repeat(tuple))):
            sources = list(map(source_of.__getitem__, bucket))  # type: ignore[arg-type]
            if len(set(sources)) == len(sources):
                members = bucket  # one row per source, the usual case
            else:
                shown = Counter(sources)
                members = tuple(r for r, s in zip(bucket, sources, strict=True) if shown[s] == 1)  # type: ignore[arg-type]
                self.single_in_source[code] = set(members)
            if len(members) > 1:  # type: ignore[arg-type]
                self.members[code] = members  # type: ignore[assignment]

    def _find_constants(self) -> None:
        """Values found on every row of a source with at least two rows (its bucket covers the whole source)."""
        for position in range(len(self.sources)):
            start, end = self.first[position], self.first[position + 1]
            constant: dict[str, Comparable] = {}
            if end - start > 1:
                for nk, comp in self.items(start).items():
                    bucket = self.by_value[nk][comp]
                    if type(bucket) is tuple and bisect_left(bucket, end) - bisect_left(bucket, start) == end - start:
                        constant[nk] = comp
            self.constants.append(constant)
            for nk, comp in constant.items():
                counts = self.constant_rows.setdefault(nk, {})
                counts[comp] = counts.get(comp, 0) + end - start

    # --- reading one row ------------------------------------------------------

    def source_at(self, r: int) -> int:
        """The position (in source-id order) of the source row ``r`` was read from."""
        return self.source_of[r]

    def source_id(self, r: int) -> str:
        return self.sources[self.source_of[r]].id

    def origin(self, r: int) -> tuple[str, int]:
        position = self.source_of[r]
        return (self.sources[position].id, r - self.first[position])

    def truncated(self, r: int) -> bool:
        return self.sources[self.source_of[r]].truncated

    def items(self, r: int) -> dict[str, Comparable]:
        """Normalised key -> comparable value, empty cells left out."""
        found = self._items[r]
        if found is not None:
            return found
        row, texts, key_of = self.raw[r], self._comparables, self.key_of
        if set(map(type, row.values())) == {str}:  # a row of text cells: all read already
            comps = list(map(texts.__getitem__, cast("Iterable[str]", row.values())))
        else:
            comps = [texts[value] if type(value) is str else comparable(value) for value in row.values()]
        if None not in comps:  # no empty cell, the usual row
            found = self._items[r] = dict(zip(map(key_of.__getitem__, row), comps, strict=True))
            return found
        found = self._items[r] = {}
        for key, value in row.items():
            comp = texts[value] if type(value) is str else comparable(value)
            if comp is not None:
                found[key_of[key]] = comp
        return found

    def code_cells(self, r: int) -> Sequence[CodeCell]:
        """The row's cells that show codes."""
        return self._code_cells[r]

    def shows_code(self, r: int, nk: str) -> bool:
        """Whether the field ``nk`` of row ``r`` shows a code."""
        return any(key == nk for key, _ in self._code_cells[r])

    def coded_keys(self, r: int) -> frozenset[str]:
        """The fields of row ``r`` that show codes."""
        cells = self._code_cells[r]
        if not cells:
            return _NO_FIELDS
        if len(cells) == 1:
            return frozenset((cells[0][0],))
        return frozenset(key for key, _ in cells)

    def private_fields(self, r: int) -> frozenset[str]:
        """Fields showing a code that no other row shows at all.

        Two rows with such a code in the same field are two different items
        (two invoice numbers), whatever else they share: the cheap, common
        case of being known different.
        """
        found = self._private[r]
        if found is None:
            code_rows = self.code_rows
            fields = []
            for nk, cell in self._code_cells[r]:
                for code, _ in cell:
                    if type(code_rows[code]) is int:
                        fields.append(nk)
                        break
            found = self._private[r] = self._field_set(fields)
        return found

    def codes_conflict(self, a: int, b: int) -> bool:
        """Whether a field common to both rows shows, on each, a code the other's same field lacks."""
        cells_a, cells_b = self._code_cells[a], self._code_cells[b]
        if not cells_a or not cells_b:
            return False
        for key_a, codes_a in cells_a:
            for key_b, codes_b in cells_b:
                if key_a != key_b:
                    continue
                if len(codes_a) == 1 and len(codes_b) == 1:  # the usual cell: one code each
                    if codes_a[0][0] != codes_b[0][0]:
                        return True
                    continue
                set_a, set_b = {c for c, _ in codes_a}, {c for c, _ in codes_b}
                if not (set_a <= set_b or set_b <= set_a):
                    return True
        return False

    def codes(self, r: int) -> dict[str, str]:
        """Every code the row shows: normalised -> as observed."""
        found = self._codes[r]
        if found is None:
            found = self._codes[r] = {}
            for _, cell in self.code_cells(r):
                found.update(cell)
        return found

    def field_codes(self, r: int) -> FieldCodes:
        """The codes of each field of the row."""
        found = self._field_codes[r]
        if found is None:
            found = self._field_codes[r] = {}
            for nk, cell in self.code_cells(r):
                found.setdefault(nk, {}).update(cell)
        return found

    def is_identifier(self, code: str, r: int) -> bool:
        """Whether row ``r``, which shows ``code``, is the only row of its source showing it."""
        single = self.single_in_source.get(code)
        return single is None or r in single

    def _field_set(self, fields: list[str]) -> frozenset[str]:
        """``frozenset(fields)``, shared by the rows with the same fields: one set rather than one per row."""
        if not fields:
            return _NO_FIELDS
        key = tuple(fields)
        found = self._field_sets.get(key)
        if found is None:
            found = self._field_sets[key] = frozenset(fields)
        return found

    def identifiers(self, r: int) -> tuple[str, ...]:
        """The codes no other row of the row's source shows."""
        found = self._identifiers[r]
        if found is None:
            single_in_source, codes = self.single_in_source, self.codes(r)
            if single_in_source.keys().isdisjoint(codes):  # the usual row: no code shown twice on its page
                found = tuple(codes)
            else:
                found = tuple(c for c in codes if c not in single_in_source or r in single_in_source[c])
            self._identifiers[r] = found
        return found

    def shown(self, r: int, code: str) -> str:
        return self.codes(r).get(code, code)

    def fields(self, keys: Sequence[str]) -> str:
        """Field names for a reason, at most four."""
        return ", ".join(self.key_shown[k] for k in keys[:4]) + (", …" if len(keys) > 4 else "")
