"""The index ``merge_rows`` decides on: every cell read once, rows numbered in source-id order.

Internal to :mod:`apps.records.identity_rows`. Building it is the only pass
over every cell, so it is written for speed: cells are first grouped by their
raw value (a ``str`` hashes once and is cached), and only then is each
distinct value read (:func:`~apps.records.identity_codes.analyse_text`) and
its rows filed under its comparable value. Per-row readings (the comparable
value of each field, the codes of each field) are built lazily, only for
the rows a decision looks at.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Hashable, Sequence
from itertools import repeat

from apps.records.identity_codes import (
    Code,
    Comparable,
    FieldCodes,
    analyse_text,
    comparable,
    identifier_field_codes,
    normalise_text,
)
from apps.records.rows import Row, Source

Bucket = int | list[int]
"""The rows holding one value: a single row number, or several in ascending order."""

CodeCell = tuple[str, tuple[Code, ...]]
"""A cell showing codes: ``(normalised key, codes)``."""


class _Unhashable:
    """Marks the text stand-in of a cell whose value cannot be hashed."""


def _joined(a: Bucket, b: Bucket) -> list[int]:
    return (a if isinstance(a, list) else [a]) + (b if isinstance(b, list) else [b])


def rows_of(bucket: Bucket) -> Sequence[int]:
    """The row numbers of a bucket, as a sequence."""
    return (bucket,) if isinstance(bucket, int) else bucket


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
        self.members: dict[str, list[int]] = {}  # identifier -> its rows (one per source), when two or more
        self.constants: list[dict[str, Comparable]] = []  # per source: values on every one of its rows
        self.constant_rows: dict[str, dict[Comparable, int]] = {}  # rows hidden by those constants, per value
        self._texts: dict[str, tuple[Comparable | None, tuple[Code, ...]]] = {}
        # row -> (field, codes) of its cells showing codes: one tuple, or a list of them
        self._code_cells: dict[int, CodeCell | list[CodeCell]] = {}
        self._private: dict[int, frozenset[str]] = {}
        self._identifiers: dict[int, list[str]] = {}
        self._items: dict[int, dict[str, Comparable]] = {}
        self._codes: dict[int, dict[str, str]] = {}
        self._field_codes: dict[int, FieldCodes] = {}
        self._analyse(self._index_cells())
        self._find_members()
        self._find_constants()

    # --- building -----------------------------------------------------------

    def _index_cells(self) -> dict[str, dict[Hashable, Bucket]]:
        """Rows grouped by key as read and by value as read: one dictionary step per cell."""
        cells: dict[str, dict[Hashable, Bucket]] = {}
        r = 0
        for source in self.sources:
            self.first.append(r)
            self.raw.extend(source.rows)
            self.source_of.extend(repeat(len(self.first) - 1, len(source.rows)))
            for row in source.rows:
                for key, value in row.items():
                    by_raw = cells.get(key)
                    if by_raw is None:
                        by_raw = cells[key] = {}
                    # Text is the common case and hashes once; other values carry their
                    # type so that True, 1 and 1.0 stay apart until they are read.
                    held: Hashable = value if type(value) is str else (type(value), value)
                    try:
                        bucket = by_raw.get(held)
                    except TypeError:
                        held = (_Unhashable, str(value))
                        bucket = by_raw.get(held)
                    if bucket is None:
                        by_raw[held] = r
                    elif isinstance(bucket, int):
                        by_raw[held] = [bucket, r]
                    else:
                        bucket.append(r)
                r += 1
        self.first.append(r)
        return cells

    def _analyse(self, cells: dict[str, dict[Hashable, Bucket]]) -> None:
        """Read each distinct value once; file rows by comparable value and by the codes they show."""
        # Buckets are never changed in place once shared: joining makes a new list.
        joined_values: list[tuple[str, Comparable]] = []
        joined_codes: set[str] = set()
        code_cells, code_rows, texts = self._code_cells, self.code_rows, self._texts
        for key, by_raw in cells.items():
            nk = self.key_of[key] = normalise_text(str(key))
            self.key_shown.setdefault(nk, str(key).strip())
            target = self.by_value.setdefault(nk, {})
            identifier_field = nk in self.identifier_keys
            for held, rows in by_raw.items():
                if type(held) is str:
                    value: object = held
                    analysed = texts.get(held)
                    if analysed is None:
                        analysed = texts[held] = analyse_text(held)
                    comp, found = analysed
                else:
                    value = held[1]  # type: ignore[index]
                    comp, found = comparable(value), ()
                if identifier_field:
                    found = tuple({**dict(found), **dict(identifier_field_codes(value))}.items())
                if comp is not None:
                    existing = target.get(comp)
                    if existing is None:
                        target[comp] = rows
                    else:  # "12,50 €" and Decimal("12.5") are one value
                        target[comp] = _joined(existing, rows)
                        joined_values.append((nk, comp))
                if not found:
                    continue
                cell = (nk, found)
                for r in rows_of(rows):
                    held_cells = code_cells.get(r)
                    if held_cells is None:
                        code_cells[r] = cell  # most rows show codes in one field: no list for them
                    elif isinstance(held_cells, list):
                        held_cells.append(cell)
                    else:
                        code_cells[r] = [held_cells, cell]
                for code, _ in found:
                    existing = code_rows.get(code)
                    if existing is None:
                        code_rows[code] = rows
                    else:
                        code_rows[code] = _joined(existing, rows)
                        joined_codes.add(code)
        for nk, comp in joined_values:
            self.by_value[nk][comp] = sorted(set(rows_of(self.by_value[nk][comp])))
        for code in joined_codes:
            code_rows[code] = sorted(set(rows_of(code_rows[code])))

    def _read(self, value: object) -> tuple[Comparable | None, tuple[Code, ...]]:
        if type(value) is not str:
            return comparable(value), ()
        analysed = self._texts.get(value)
        if analysed is None:
            analysed = self._texts[value] = analyse_text(value)
        return analysed

    def _find_members(self) -> None:
        """For each code shown on several rows, the rows that are the only one of their source showing it."""
        for code, bucket in self.code_rows.items():
            if isinstance(bucket, int):
                continue  # one row in all: nothing to merge with
            members = [r for r in bucket if self.is_identifier(code, r)]
            if len(members) > 1:
                self.members[code] = members

    def _find_constants(self) -> None:
        """Values found on every row of a source with at least two rows (its bucket covers the whole source)."""
        for position in range(len(self.sources)):
            start, end = self.first[position], self.first[position + 1]
            constant: dict[str, Comparable] = {}
            if end - start > 1:
                for nk, comp in self.items(start).items():
                    bucket = self.by_value[nk][comp]
                    if (
                        isinstance(bucket, list)
                        and bisect_left(bucket, end) - bisect_left(bucket, start) == end - start
                    ):
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
        return self.sources[self.source_at(r)].id

    def origin(self, r: int) -> tuple[str, int]:
        position = self.source_at(r)
        return (self.sources[position].id, r - self.first[position])

    def truncated(self, r: int) -> bool:
        return self.sources[self.source_at(r)].truncated

    def items(self, r: int) -> dict[str, Comparable]:
        """Normalised key -> comparable value, empty cells left out."""
        found = self._items.get(r)
        if found is None:
            found = self._items[r] = {}
            texts, key_of = self._texts, self.key_of
            for key, value in self.raw[r].items():
                comp = texts[value][0] if type(value) is str else comparable(value)
                if comp is not None:
                    found[key_of[key]] = comp
        return found

    def code_cells(self, r: int) -> Sequence[CodeCell]:
        """The row's cells that show codes."""
        held = self._code_cells.get(r)
        if held is None:
            return ()
        return held if isinstance(held, list) else (held,)

    def private_fields(self, r: int) -> frozenset[str]:
        """Fields showing a code that no other row shows at all.

        Two rows with such a code in the same field are two different items
        (two invoice numbers), whatever else they share: the cheap, common
        case of being known different.
        """
        found = self._private.get(r)
        if found is None:
            code_rows = self.code_rows
            found = self._private[r] = frozenset(
                nk for nk, cell in self.code_cells(r) if any(isinstance(code_rows[code], int) for code, _ in cell)
            )
        return found

    def codes_conflict(self, a: int, b: int) -> bool:
        """Whether a field common to both rows shows, on each, a code the other's same field lacks."""
        cells_a, cells_b = self.code_cells(a), self.code_cells(b)
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
        found = self._codes.get(r)
        if found is None:
            found = self._codes[r] = {}
            for _, cell in self.code_cells(r):
                found.update(cell)
        return found

    def field_codes(self, r: int) -> FieldCodes:
        """The codes of each field of the row."""
        found = self._field_codes.get(r)
        if found is None:
            found = self._field_codes[r] = {}
            for nk, cell in self.code_cells(r):
                found.setdefault(nk, {}).update(cell)
        return found

    def is_identifier(self, code: str, r: int) -> bool:
        """Whether row ``r`` is the only row of its source showing ``code``."""
        bucket = self.code_rows[code]
        if isinstance(bucket, int):
            return True
        position = self.source_of[r]
        return bisect_left(bucket, self.first[position + 1]) - bisect_left(bucket, self.first[position]) == 1

    def identifiers(self, r: int) -> list[str]:
        """The codes no other row of the row's source shows."""
        found = self._identifiers.get(r)
        if found is None:
            found = self._identifiers[r] = [c for c in self.codes(r) if self.is_identifier(c, r)]
        return found

    def shown(self, r: int, code: str) -> str:
        return self.codes(r).get(code, code)

    def fields(self, keys: Sequence[str]) -> str:
        """Field names for a reason, at most four."""
        return ", ".join(self.key_shown[k] for k in keys[:4]) + (", …" if len(keys) > 4 else "")
