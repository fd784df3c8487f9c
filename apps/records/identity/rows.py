"""``merge_rows``: rows of different sources that show the same identifier become one.

``merge_rows(sources, *, identifier_fields=(), wanted_fields=()) -> MergeResult``
merges rows of different sources that show the same identifier and reports
possible duplicates; the result types are in :mod:`apps.records.identity.results`.

Codes and identifiers
---------------------
Codes are read from every text cell (see :mod:`apps.records.identity.codes`
for the exact tokenisation): tokens holding letters *and* digits such as
``INV-20-005``, ``A1234``, ``2026F000123``, at least ``MIN_CODE_CHARACTERS``
of them. Dates, periods, amounts and quantities never count, whether written
with separators (``15/09/2026``, ``1.234,56``, ``€ 12,50``) or with month
names, currencies or units (``15-set-2026``, ``Q3-2026``, ``12.50EUR``,
``350kWh``). Codes compare ignoring case; separators are kept, so
``INV-20-005`` and ``INV-200-05`` are two codes. ``identifier_fields`` names
fields (compared ignoring case and spaces) whose digit-only numbers count as
codes too, for instance the keys that
:func:`apps.records.vocabulary.classify_label` calls ``identifier_number``.

A code is an *identifier* of a row when no other row of the same source shows
it: a code on every row of a page (the supply identifier on every bill)
identifies nothing there. Two rows *share* an identifier when each is the
only row of its own source showing that code.

Two rows are *known different* when one field shows, on each, an identifier
the other row does not show at all, as two invoices with different numbers
do even when both show the same supply identifier. Known-different rows are
never merged; they are reported as possible duplicates only through equal
values that show no code (see below).

Rules of ``merge_rows``
-----------------------
* Every source is a distinct read, even of the same page; source ids must be
  unique (``ValueError`` otherwise). Rows of one source never merge with each
  other.
* Rows of different sources merge only when they share an identifier, are
  not known different, no common field shows different codes (``INV-1`` /
  ``NC-7``), they do not each show an identifier the other lacks, and more of
  their common non-empty fields agree than contradict.
  Values compare ignoring case and spacing; numbers and amounts by value;
  dates by value (``date`` objects and all-numeric day-first or ISO text).
* A merged group holds copies of one code: every member shows the same
  identifier and agrees with every other member, so ``A~B`` by code X and
  ``B~C`` by code Y never join ``A`` and ``C``; a row without a code never
  merges, so it cannot bridge two invoices.
* A row that agrees, through one identifier, with two rows that are
  different items (a row showing only the supply identifier, beside two
  invoices showing it with different numbers) joins neither: it could be a
  copy of either, and choosing would follow row order. It stays separate
  and is reported as a possible duplicate of both.
* Rows of truncated sources never merge.
* A merged row keeps the values of its most complete member (the one showing
  more of the ``wanted_fields``, then more non-empty fields; ties go to the
  smallest source id) exactly as read, nothing blended in from the others;
  its note names the identifier and the sources.
* Possible duplicates, kept separate (the spec: "rows of different sources
  with at least two equal fields and no shared identifier, or with a shared
  identifier but more contradicting than agreeing fields"):

  - rows sharing an identifier that did not merge and are not known
    different (contradictions, no field in common, different codes in a
    field, other identifiers, a truncated view, a member already merged
    under another code, or a row that could belong to either of two
    different items);
  - rows of different sources with at least two equal fields and no shared
    identifier;
  - rows a common field shows different codes on (``INV-20-005`` /
    ``INV-200-05``), known different or not, when at least two fields that
    show no code are equal, each through a value shared by at most
    ``MAX_ROWS_PER_SHARED_VALUE`` rows (the same amount and date): maybe one
    item read with a misread code, or issued twice. Equal codes (a supply
    identifier on the bills of one supply) and widely shared values (a
    status) do not count for them.

  A value found on every row of a source with two or more rows is not an
  equal field for that source, as a code on every row identifies nothing (a
  supplier's name, a status shared by a whole page). Each pair of output
  rows is reported once.
* The result does not depend on the order of the sources: every decision is
  taken in source-id order; only the listing follows the reading order.

Cost
----
``merge_rows`` is linear in the number of cells (100,000 rows from 50 sources
are benchmarked by ``bench/bench_merge.py``): rows are indexed by code and
by field value, never compared all against all. It leaves garbage
collection on (switching it off would switch it off for every thread of the
process) and keeps the collector's share small by allocating few containers,
mostly tuples it soon stops tracking.

Bounds
------
Seeking possible duplicates indexes every field value and compares rows
within a value shared by at most ``MAX_ROWS_PER_SHARED_VALUE`` rows (not
counting rows where the value is on every row of their source), so the cost
stays linear. A value shared more widely (a status, a busy issue date) still
counts when two rows are compared through another value, but rows that agree
only on such values are not sought; those values are listed in
``common_values`` and ``message()`` says so. For rows showing different
codes, a widely shared value does not count at all: their pairs are counted
through the bounded values alone. Merging itself has no bound:
an identifier groups at most one row per source.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from itertools import compress, islice, repeat
from types import MappingProxyType
from typing import NamedTuple

from apps.records.identity.codes import Code, conflicting_codes, display, normalise_text
from apps.records.identity.results import (
    MAX_ROWS_PER_SHARED_VALUE,
    CommonValue,
    MergedRow,
    MergeResult,
    PossibleDuplicate,
    rows_read_once,
    sources_by_id,
)
from apps.records.identity.table import RowTable
from apps.records.rows import Source


class _Verdict(NamedTuple):
    compatible: bool
    score: int  # agreeing minus contradicting common fields, when compatible
    reason: str  # why not, when not
    different_items: bool = False  # not compatible because they show different codes


def _evaluate(table: RowTable, a: int, b: int, code: str) -> _Verdict:
    """Whether rows ``a`` and ``b`` (different sources, sharing identifier ``code``) are copies of one item."""
    for r in (a, b):
        if table.truncated(r):
            return _Verdict(
                False, 0, f"same identifier {table.shown(a, code)}, but {table.source_id(r)} is a truncated view"
            )
    if table.codes_conflict(a, b):
        conflict = conflicting_codes(table.field_codes(a), table.field_codes(b))
        if conflict is not None:
            key, code_a, code_b = conflict
            return _Verdict(
                False,
                0,
                f"same identifier {table.shown(a, code)}, but {table.key_shown[key]} shows different codes "
                f"({code_a} / {code_b})",
                different_items=True,
            )
    codes_a, codes_b = table.codes(a), table.codes(b)
    only_a = [c for c in table.identifiers(a) if c not in codes_b]
    only_b = [c for c in table.identifiers(b) if c not in codes_a] if only_a else []
    if only_a and only_b:
        return _Verdict(
            False,
            0,
            f"same identifier {table.shown(a, code)}, but they also show different identifiers "
            f"{table.shown(a, min(only_a))} and {table.shown(b, min(only_b))}",
            different_items=True,
        )
    items_a, items_b = table.items(a), table.items(b)
    common = 0
    differing: list[str] = []
    for key, value in items_a.items():
        if key in items_b:
            common += 1
            if value != items_b[key]:
                differing.append(key)
    agree = common - len(differing)
    if agree > len(differing):
        return _Verdict(True, agree - len(differing), "")
    if not common:  # the identifier stands in fields of different names: nothing to weigh
        return _Verdict(False, 0, f"same identifier {table.shown(a, code)}, but no field in common to compare")
    differing.sort()
    return _Verdict(
        False,
        0,
        f"same identifier {table.shown(a, code)}, but {len(differing)} of {common} common fields differ "
        f"({table.fields(differing)})",
    )


def _shows_another_identifier(
    table: RowTable, r: int, cell: tuple[Code, ...], code: str, other: dict[str, str]
) -> bool:
    """Whether ``cell`` of row ``r`` shows an identifier of ``r`` other than ``code`` that ``other`` lacks."""
    return any(c != code and c not in other and table.is_identifier(c, r) for c, _ in cell)


def _known_different(table: RowTable, code: str, a: int, b: int) -> bool:
    """Whether one field shows, on each row, an identifier (not ``code``) the other row does not show at all."""
    if table.private_fields(a) & table.private_fields(b):
        return True
    cells_b: dict[str, tuple[Code, ...]] | None = None
    for nk, cell_a in table.code_cells(a):
        if len(cell_a) == 1 and cell_a[0][0] == code:
            continue  # the shared identifier alone, the usual cell
        if cells_b is None:
            cells_b = dict(table.code_cells(b))
        cell_b = cells_b.get(nk)
        if (
            cell_b is not None
            and _shows_another_identifier(table, a, cell_a, code, table.codes(b))
            and _shows_another_identifier(table, b, cell_b, code, table.codes(a))
        ):
            return True
    return False


def _undecided_pairs(table: RowTable, code: str, rows: Sequence[int]) -> list[tuple[int, int]]:
    """Pairs of ``rows`` (all showing identifier ``code``) that are not known to be different items.

    Two rows are known different when one field shows, on each of them, an
    identifier the other row does not show anywhere (two invoice numbers
    beside one supply identifier). Such pairs are never merged or reported,
    and are not even formed: a big group (a supply identifier read once on
    each of fifty pages) only yields the pairs whose identifier-bearing
    fields differ, plus the pairs where one row shows another's identifier.
    """
    if len(rows) == 2:  # the usual group: one item read on two pages
        return [] if _known_different(table, code, *rows) else [(rows[0], rows[1])]
    # Rows showing other identifiers in a common field are known different
    # unless one shows the other's code: classes by such fields skip those
    # pairs at once, and citations are paired below.
    # One pass over the rows' codes finds both: the fields showing another
    # identifier of the row, and the identifiers other rows show too.
    code_rows, single_in_source, code_cells = table.code_rows, table.single_in_source, table.code_cells
    classes: dict[frozenset[str], list[int]] = {}
    citations: list[tuple[int, str]] = []
    for r in rows:
        fields: list[str] = []
        for nk, cell in code_cells(r):
            for c, _ in cell:
                if c == code:
                    continue
                single = single_in_source.get(c)
                if single is not None and r not in single:
                    continue  # another row of its source shows it too: no identifier of this row
                if not fields or fields[-1] != nk:
                    fields.append(nk)
                if type(code_rows[c]) is not int:
                    citations.append((r, c))
        classes.setdefault(frozenset(fields), []).append(r)
    pairs: set[tuple[int, int]] = set()
    signatures = list(classes)
    for x, first in enumerate(signatures):
        for second in signatures[x:]:
            if first & second:
                continue
            for a in classes[first]:
                pairs.update((min(a, b), max(a, b)) for b in classes[second] if b != a)
    # A row citing another member's code may be a copy (or a credit note citing the invoice).
    members = set(rows)
    for a, c in citations:
        bucket: tuple[int, ...] = code_rows[c]  # type: ignore[assignment]
        if len(bucket) <= len(rows):
            pairs.update((min(a, b), max(a, b)) for b in bucket if b != a and b in members)
        else:  # a widely shown code: look through the group instead
            pairs.update((min(a, b), max(a, b)) for b in rows if b != a and c in table.codes(b))
    return sorted(pair for pair in pairs if not _known_different(table, code, *pair))


_VerdictMap = dict[tuple[int, int], tuple[str, _Verdict]]


class _Groups(NamedTuple):
    """What the identifiers decide: merged groups, verdicts, and the rows no group could claim alone."""

    groups: list[tuple[str, list[int]]]  # (identifier, rows)
    verdicts: _VerdictMap  # every undecided pair sharing an identifier
    ambiguous: dict[int, str]  # row -> the identifier different items show with it


def _ambiguous_members(
    clique: list[int], compatible: dict[int, set[int]], undecided: set[tuple[int, int]], verdicts: _VerdictMap
) -> list[int]:
    """Members of ``clique`` that agree as well with a row outside it that is a different item from a member.

    Such a member (a row showing only the supply identifier, beside two
    invoices that show it with different numbers) could be a copy of
    either item: taking it into this group would decide by row order.
    """
    inside = set(clique)

    def different(x: int, m: int) -> bool:
        pair = (min(x, m), max(x, m))
        return pair not in undecided or verdicts[pair][1].different_items  # known different, or different codes

    outside = {x for r in clique for x in compatible[r] if x not in inside}
    rival = {x for x in outside if any(different(x, m) for m in clique)}
    return [r for r in clique if not rival.isdisjoint(compatible[r])]


def _groups(table: RowTable) -> _Groups:
    """Merged groups, the verdict on every undecided pair sharing an identifier, and the ambiguous rows."""
    verdicts: _VerdictMap = {}
    ambiguous: dict[int, str] = {}
    proposals: list[tuple[int, int, str, list[int]]] = []
    for code in sorted(c for c, rows in table.members.items() if len(rows) > 1):
        undecided = _undecided_pairs(table, code, table.members[code])
        if len(undecided) == 1:  # the usual group: one item read on two pages
            pair = undecided[0]
            if pair not in verdicts:
                verdicts[pair] = (code, _evaluate(table, *pair, code))
            verdict = verdicts[pair][1]
            if verdict.compatible:
                proposals.append((-2, -verdict.score, code, list(pair)))
            continue
        compatible: dict[int, set[int]] = {}
        for a, b in undecided:
            if (a, b) not in verdicts:
                verdicts[(a, b)] = (code, _evaluate(table, a, b, code))
            if verdicts[(a, b)][1].compatible:
                compatible.setdefault(a, set()).add(b)
                compatible.setdefault(b, set()).add(a)
        # Greedy clique, best-connected first: every member agrees with every
        # other, so no row joins only through a third one.
        clique: list[int] = []
        for r in sorted(compatible, key=lambda r: (-len(compatible[r]), -len(table.items(r)), r)):
            if all(m in compatible[r] for m in clique):
                clique.append(r)
        # A row that agrees with two different items is a copy of neither for sure: it stays apart.
        for r in _ambiguous_members(clique, compatible, set(undecided), verdicts):
            clique.remove(r)
            ambiguous.setdefault(r, code)
        if len(clique) > 1:
            clique.sort()
            score = sum(verdicts[(a, b)][1].score for x, a in enumerate(clique) for b in clique[x + 1 :])
            proposals.append((-len(clique), -score, code, clique))
    # A row may show two identifiers; the larger, better-agreeing group wins
    # and the other keeps its remaining rows (a subset of a clique is one).
    proposals.sort()
    taken: set[int] = set()
    groups: list[tuple[str, list[int]]] = []
    for _, _, code, clique in proposals:
        free = [r for r in clique if r not in taken]
        if len(free) > 1:
            groups.append((code, free))
            taken.update(free)
    return _Groups(groups, verdicts, ambiguous)


class _ValuePairs(NamedTuple):
    """Pairs found through shared field values, each in ascending order, sorted."""

    pairs: list[tuple[int, int]]  # no field shows them different codes
    different_codes: list[tuple[int, int]]  # a field shows different codes, yet two distinguishing values are equal


def _equal_value_pairs(table: RowTable, output_of: Sequence[int], common_values: list[CommonValue]) -> _ValuePairs:
    """Pairs of rows sharing a distinguishing field value that may be one item.

    Only rows of different sources and of different output rows are paired.
    Values found on every row of their source are left out; a value on more
    than ``MAX_ROWS_PER_SHARED_VALUE`` other rows is appended to
    ``common_values`` instead of being expanded into pairs, which keeps the
    pairs linear in the number of cells.

    Rows a common field shows different codes on (two invoice numbers) are
    counted apart, through values that show no code: they are kept when two
    such distinguishing values are equal (the same amount and date). A
    shared supply identifier, a code, says they are of one supply, not that
    they may be one item.
    """
    n = len(table.raw)
    pairs: set[int] = set()
    counted: Counter[int] = Counter()
    dated: set[int] = set()  # pairs with an equal date (counted once)
    source_of, codes_conflict, private_fields = table.source_of, table.codes_conflict, table.private_fields

    def candidate(a: int, b: int) -> bool:
        return source_of[a] != source_of[b] and output_of[a] != output_of[b]

    for nk, buckets in table.by_value.items():
        constant_rows = table.constant_rows.get(nk, {})
        for comp, bucket in compress(buckets.items(), map(isinstance, buckets.values(), repeat(tuple))):
            hidden = constant_rows.get(comp, 0)
            live = len(bucket) - hidden  # type: ignore[arg-type]
            if live > MAX_ROWS_PER_SHARED_VALUE:
                common_values.append(CommonValue(table.key_shown[nk], display(comp), live))
                continue
            if live < 2:
                continue
            rows: Sequence[int] = bucket  # type: ignore[assignment]
            if hidden:
                rows = [r for r in rows if table.constants[source_of[r]].get(nk) != comp]
            if not table.shows_code(rows[0], nk):  # an amount, a date: rows with different codes count too
                # Dates count once however many agree: a due date follows from its issue date.
                is_date = isinstance(comp, dt.date)
                for x, a in enumerate(rows):
                    private_a = private_fields(a)
                    for b in rows[x + 1 :]:
                        if candidate(a, b):
                            if private_a & private_fields(b) or codes_conflict(a, b):
                                if is_date:
                                    dated.add(a * n + b)
                                else:
                                    counted[a * n + b] += 1
                            else:
                                pairs.add(a * n + b)
                continue
            if len(rows) == 2:  # the usual bucket, without the classes below
                a, b = rows
                if candidate(a, b) and not codes_conflict(a, b):
                    pairs.add(a * n + b)
                continue
            # Rows with a private code in a common field (two invoice numbers
            # under one supply identifier) conflict: skip those pairs at once.
            classes: dict[frozenset[str], list[int]] = {}
            for r in rows:
                classes.setdefault(private_fields(r), []).append(r)
            signatures = list(classes)
            for x, first in enumerate(signatures):
                for second in signatures[x:]:
                    if first & second:
                        continue
                    for a in classes[first]:
                        pairs.update(
                            min(a, b) * n + max(a, b)
                            for b in classes[second]
                            if b != a and candidate(a, b) and not codes_conflict(a, b)
                        )
    return _ValuePairs(
        [divmod(p, n) for p in sorted(pairs)],
        [divmod(p, n) for p in sorted(p for p in set(counted) | dated if counted[p] + (p in dated) > 1)],
    )


def _equal_fields(table: RowTable, a: int, b: int, *, without_codes: bool = False) -> list[str]:
    """Keys on which ``a`` and ``b`` agree, leaving out values found on every row of either source.

    ``without_codes`` leaves out the values showing codes too: for rows that
    show different codes (two invoices), a shared supply identifier says
    they are of one supply, not that they may be one item.
    """
    items_a, items_b = table.items(a), table.items(b)
    constants_a, constants_b = table.constants[table.source_of[a]], table.constants[table.source_of[b]]
    equal = [
        k for k, v in items_a.items() if items_b.get(k) == v and constants_a.get(k) != v and constants_b.get(k) != v
    ]
    if without_codes:
        coded_a, coded_b = table.coded_keys(a), table.coded_keys(b)
        equal = [k for k in equal if k not in coded_a and k not in coded_b]
    equal.sort()
    return equal


def merge_rows(
    sources: Sequence[Source],
    *,
    identifier_fields: Collection[str] = (),
    wanted_fields: Sequence[Collection[str]] = (),
) -> MergeResult:
    """Merge rows of different sources that show the same identifier; report possible duplicates.

    Contract (rules in the module docstring): every input row appears
    in exactly one output row's ``origins``; a merged row carries the values
    of its most complete observation unchanged and a note naming the
    identifier and the sources; nothing merges without a shared identifier
    and a majority of agreeing common fields; the output does not depend on
    the order of ``sources`` except for the listing order, which follows it.
    ``identifier_fields`` names fields whose digit-only numbers count as
    codes. ``wanted_fields`` are the fields the request asked for (each a set
    of alternative names): "most complete" then means showing more of them
    first, and more fields only after that, so a row with the amount asked
    for is kept over a longer row without it. Raises ``ValueError`` when two
    sources share an id.
    """
    by_id = sources_by_id(sources)
    wanted = tuple(frozenset(normalise_text(name) for name in group) for group in wanted_fields)
    return _merge(sources, by_id, frozenset(normalise_text(k) for k in identifier_fields), wanted)


def _merge(
    sources: Sequence[Source],
    by_id: dict[str, Source],
    identifier_keys: frozenset[str],
    wanted: tuple[frozenset[str], ...] = (),
) -> MergeResult:
    ordered = sorted(sources, key=lambda s: s.id)
    # The index is freed when the decisions are taken, before the rows read
    # once are built: the garbage collector then walks a smaller heap while
    # the output, the bulk of what a merge allocates, grows.
    decided = _decide(RowTable(ordered, identifier_keys), wanted)
    return MergeResult(
        rows=_in_reading_order(sources, decided.placed, decided.merged),
        possible_duplicates=decided.duplicates,
        merged_count=len(decided.merged),
        input_count=decided.input_count,
        source_count=len(sources),
        common_values=decided.common_values,
        observations=MappingProxyType(by_id),
    )


class _Decided(NamedTuple):
    """What the index decided, for the output rows to be built without it."""

    merged: list[MergedRow]  # one per group
    placed: dict[str, list[tuple[int, int]]]  # source id -> (row index, group) of its grouped rows
    duplicates: tuple[PossibleDuplicate, ...]
    common_values: tuple[CommonValue, ...]
    input_count: int


def _decide(table: RowTable, wanted: tuple[frozenset[str], ...]) -> _Decided:
    """The merged groups, with their rows built, and the possible duplicates."""
    groups, verdicts, ambiguous = _groups(table)

    # The output row each row ends in: its own number, or the row count plus its group.
    total = len(table.raw)
    output_of = list(range(total))
    for g, (_, rows) in enumerate(groups):
        for r in rows:
            output_of[r] = total + g

    duplicates: list[PossibleDuplicate] = []
    reported: set[tuple[int, int]] = set()

    def report(a: int, b: int, reason: str) -> None:
        pair = (min(output_of[a], output_of[b]), max(output_of[a], output_of[b]))
        if pair not in reported:
            reported.add(pair)
            duplicates.append(PossibleDuplicate(table.origin(a), table.origin(b), reason))

    for (a, b), (code, verdict) in sorted(verdicts.items()):
        if output_of[a] == output_of[b]:
            continue  # merged together
        if not verdict.compatible:
            report(a, b, verdict.reason)
            continue
        # Compatible yet apart: a member went to a group of another code, or the
        # group of this code holds a row that one of the two contradicts.
        shown = table.shown(a, code)
        elsewhere = [
            (r, groups[output_of[r] - total][0])
            for r in (a, b)
            if output_of[r] >= total and groups[output_of[r] - total][0] != code
        ]
        lone = [r for r in (a, b) if ambiguous.get(r) == code]
        if lone:
            reason = (
                f"same identifier {shown}, which different items show too; nothing else tells which of them "
                f"the row of {table.source_id(lone[0])} is"
            )
        elif elsewhere:
            r, other = elsewhere[0]
            reason = f"same identifier {shown}, but one of them is merged by identifier {table.shown(r, other)}"
        else:
            reason = f"same identifier {shown}, but it disagrees with another row merged under that identifier"
        report(a, b, reason)

    common_values: list[CommonValue] = []
    value_pairs = _equal_value_pairs(table, output_of, common_values)
    for a, b in value_pairs.pairs:
        identifiers_b = table.identifiers(b)
        if identifiers_b and any(c in identifiers_b for c in table.identifiers(a)):
            continue  # a shared identifier was judged above
        equal = _equal_fields(table, a, b)
        if len(equal) > 1:
            report(a, b, f"{len(equal)} equal fields ({table.fields(equal)}) and no shared identifier")
    for a, b in value_pairs.different_codes:
        if (a, b) in verdicts:
            continue  # judged by their shared identifier above
        # Different codes (INV-20-005 / INV-200-05), yet the same amount and date: maybe one item read twice.
        conflict = conflicting_codes(table.field_codes(a), table.field_codes(b))
        if conflict is not None:
            key, code_a, code_b = conflict
            equal = _equal_fields(table, a, b, without_codes=True)
            report(
                a,
                b,
                f"{len(equal)} equal fields ({table.fields(equal)}), but {table.key_shown[key]} shows "
                f"different codes ({code_a} / {code_b})",
            )

    placed: dict[str, list[tuple[int, int]]] = {}
    for g, (_, rows) in enumerate(groups):
        for r in rows:
            source_id, index = table.origin(r)
            placed.setdefault(source_id, []).append((index, g))
    return _Decided(
        merged=[_merged_row(table, code, rows, wanted) for code, rows in groups],
        placed=placed,
        duplicates=tuple(duplicates),
        common_values=tuple(sorted(common_values, key=lambda v: (-v.rows, v.field, v.value))),
        input_count=total,
    )


def _in_reading_order(
    sources: Sequence[Source], placed: dict[str, list[tuple[int, int]]], merged: Sequence[MergedRow]
) -> tuple[MergedRow, ...]:
    """Output rows in the order the sources were given; a merged row sits where its first observation was read."""
    emitted = [False] * len(merged)
    output: list[MergedRow] = []
    for source in sources:
        placements = sorted(placed.get(source.id, ()))
        once = iter(_read_once(source, [index for index, _ in placements]))
        start = 0
        for index, g in placements:
            if index > start:
                output.extend(islice(once, index - start))
            if not emitted[g]:
                emitted[g] = True
                output.append(merged[g])
            start = index + 1
        output.extend(once)
    return tuple(output)


def _read_once(source: Source, grouped: Sequence[int]) -> list[MergedRow]:
    """The rows of ``source`` not in ``grouped`` (ascending indices), in order, as rows that stand for themselves."""
    rows = source.rows
    if grouped:
        kept = [True] * len(rows)
        for index in grouped:
            kept[index] = False
        indices: Iterable[int] = list(compress(range(len(rows)), kept))
        values = list(map(dict, map(rows.__getitem__, indices)))
    else:
        indices = range(len(rows))
        values = list(map(dict, rows))
    return rows_read_once(values, zip(zip(repeat(source.id), indices)))  # ((source id, index),) for each row


def _merged_row(table: RowTable, code: str, rows: list[int], wanted: tuple[frozenset[str], ...]) -> MergedRow:
    """The most complete row of the group, unchanged, with a note naming the identifier and the sources."""

    def completeness(r: int) -> tuple[int, int, int]:
        items = table.items(r)
        return (-sum(1 for names in wanted if not names.isdisjoint(items)), -len(items), r)

    kept = min(rows, key=completeness)
    source_ids = [table.source_id(r) for r in rows]
    note = (
        f"Merged: same identifier {table.shown(kept, code)} read in sources "
        f"{_listing(source_ids)}; values kept as read in {source_ids[rows.index(kept)]}"
    )
    origins = (table.origin(kept), *(table.origin(r) for r in rows if r != kept))
    return MergedRow(dict(table.raw[kept]), origins, note)


def _listing(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
