"""``merge_rows``: rows of different sources that show the same identifier become one.

The rules are stated in :mod:`apps.records.identity`. Cost is linear in the
number of cells: rows are indexed by identifier and by field value, pairs are
only formed inside an identifier (at most one row per source) or inside a
field value shared by at most ``MAX_ROWS_PER_SHARED_VALUE`` rows.
"""

from __future__ import annotations

import gc
from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from types import MappingProxyType

from apps.records.identity_codes import conflicting_codes, display, normalise_text
from apps.records.identity_results import (
    MAX_ROWS_PER_SHARED_VALUE,
    CommonValue,
    MergedRow,
    MergeResult,
    PossibleDuplicate,
    sources_by_id,
)
from apps.records.identity_table import RowTable
from apps.records.rows import Source


@dataclass(frozen=True)
class _Verdict:
    compatible: bool
    score: int  # agreeing minus contradicting common fields, when compatible
    reason: str  # why not, when not


def _evaluate(table: RowTable, a: int, b: int, code: str) -> _Verdict:
    """Whether rows ``a`` and ``b`` (different sources, sharing identifier ``code``) are copies of one item."""
    shown = table.shown(a, code)
    for r in (a, b):
        if table.truncated(r):
            return _Verdict(False, 0, f"same identifier {shown}, but {table.source_id(r)} is a truncated view")
    conflict = conflicting_codes(table.field_codes(a), table.field_codes(b)) if table.codes_conflict(a, b) else None
    if conflict is not None:
        key, code_a, code_b = conflict
        return _Verdict(
            False, 0, f"same identifier {shown}, but {table.key_shown[key]} shows different codes ({code_a} / {code_b})"
        )
    only_a = sorted(c for c in table.identifiers(a) if c not in table.codes(b))
    only_b = sorted(c for c in table.identifiers(b) if c not in table.codes(a))
    if only_a and only_b:
        return _Verdict(
            False,
            0,
            f"same identifier {shown}, but they also show different identifiers "
            f"{table.shown(a, only_a[0])} and {table.shown(b, only_b[0])}",
        )
    items_a, items_b = table.items(a), table.items(b)
    common = items_a.keys() & items_b.keys()
    differing = sorted(k for k in common if items_a[k] != items_b[k])
    agree = len(common) - len(differing)
    if agree > len(differing):
        return _Verdict(True, agree - len(differing), "")
    return _Verdict(
        False,
        0,
        f"same identifier {shown}, but {len(differing)} of {len(common)} common fields differ "
        f"({table.fields(differing)})",
    )


def _undecided_pairs(table: RowTable, code: str, rows: Sequence[int]) -> list[tuple[int, int]]:
    """Pairs of ``rows`` (all showing identifier ``code``) that are not known to be different items.

    Two rows are known different when one field shows, on each of them, an
    identifier the other row does not show anywhere (two invoice numbers
    beside one supply identifier). Such pairs are never merged or reported,
    and are not even formed: a big group (a supply identifier read once on
    each of fifty pages) only yields the pairs whose identifier-bearing
    fields differ, plus the pairs where one row shows another's identifier.
    """

    def known_different(a: int, b: int) -> bool:
        if table.private_fields(a) & table.private_fields(b):
            return True
        cells_b = dict(table.code_cells(b))
        if not cells_b:
            return False
        codes_a, codes_b = table.codes(a), table.codes(b)
        for nk, cell_a in table.code_cells(a):
            cell_b = cells_b.get(nk)
            if (
                cell_b is not None
                and any(c != code and c not in codes_b and table.is_identifier(c, a) for c, _ in cell_a)
                and any(c != code and c not in codes_a and table.is_identifier(c, b) for c, _ in cell_b)
            ):
                return True
        return False

    if len(rows) == 2:  # the usual group: one item read on two pages
        return [] if known_different(*rows) else [(rows[0], rows[1])]
    # Rows showing other identifiers in a common field are known different
    # unless one shows the other's code: classes by such fields skip those
    # pairs at once, and citations are paired below.
    classes: dict[frozenset[str], list[int]] = {}
    for r in rows:
        signature = frozenset(
            nk for nk, cell in table.code_cells(r) if any(c != code and table.is_identifier(c, r) for c, _ in cell)
        )
        classes.setdefault(signature, []).append(r)
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
    for a in rows:
        for _, cell in table.code_cells(a):
            for c, _ in cell:
                bucket = table.code_rows[c]
                if c == code or isinstance(bucket, int) or not table.is_identifier(c, a):
                    continue
                if len(bucket) <= len(rows):
                    pairs.update((min(a, b), max(a, b)) for b in bucket if b != a and b in members)
                else:  # a widely shown code: look through the group instead
                    pairs.update((min(a, b), max(a, b)) for b in rows if b != a and c in table.codes(b))
    return sorted(pair for pair in pairs if not known_different(*pair))


def _groups(table: RowTable) -> tuple[list[tuple[str, list[int]]], dict[tuple[int, int], tuple[str, _Verdict]]]:
    """Merged groups ``(identifier, rows)`` and the verdict on every undecided pair sharing an identifier."""
    verdicts: dict[tuple[int, int], tuple[str, _Verdict]] = {}
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
    return groups, verdicts


def _equal_value_pairs(table: RowTable, common_values: list[CommonValue]) -> list[tuple[int, int]]:
    """Pairs of rows of different sources sharing a distinguishing field value, in ascending order.

    Values found on every row of their source are left out; a value on more
    than ``MAX_ROWS_PER_SHARED_VALUE`` other rows is appended to
    ``common_values`` instead of being expanded into pairs.
    """
    n = len(table.raw)
    pairs: set[int] = set()
    source_of = table.source_of
    for nk, buckets in table.by_value.items():
        constant_rows = table.constant_rows.get(nk, {})
        for comp, bucket in buckets.items():
            if isinstance(bucket, int):
                continue
            hidden = constant_rows.get(comp, 0)
            live = len(bucket) - hidden
            if live > MAX_ROWS_PER_SHARED_VALUE:
                common_values.append(CommonValue(table.key_shown[nk], display(comp), live))
                continue
            if live < 2:
                continue
            rows = bucket
            if hidden:
                rows = [r for r in rows if table.constants[source_of[r]].get(nk) != comp]
            # Rows with a private code in a common field (two invoice numbers
            # under one supply identifier) are different items: skip those pairs.
            if len(rows) == 2:  # the usual bucket, without the classes below
                a, b = rows
                if source_of[a] != source_of[b] and not table.private_fields(a) & table.private_fields(b):
                    pairs.add(a * n + b)
                continue
            classes: dict[frozenset[str], list[int]] = {}
            for r in rows:
                classes.setdefault(table.private_fields(r), []).append(r)
            signatures = list(classes)
            for x, first in enumerate(signatures):
                for second in signatures[x:]:
                    if first & second:
                        continue
                    for a in classes[first]:
                        source_a = source_of[a]
                        pairs.update(
                            min(a, b) * n + max(a, b) for b in classes[second] if b != a and source_of[b] != source_a
                        )
    return [divmod(p, n) for p in sorted(pairs)]


def _equal_fields(table: RowTable, a: int, b: int) -> list[str]:
    """Keys on which ``a`` and ``b`` agree, leaving out values found on every row of either source."""
    items_a, items_b = table.items(a), table.items(b)
    constants_a, constants_b = table.constants[table.source_of[a]], table.constants[table.source_of[b]]
    return sorted(
        k for k, v in items_a.items() if items_b.get(k) == v and constants_a.get(k) != v and constants_b.get(k) != v
    )


def merge_rows(sources: Sequence[Source], *, identifier_fields: Collection[str] = ()) -> MergeResult:
    """Merge rows of different sources that show the same identifier; report possible duplicates.

    Contract (rules in :mod:`apps.records.identity`): every input row appears
    in exactly one output row's ``origins``; a merged row carries the values
    of its most complete observation unchanged and a note naming the
    identifier and the sources; nothing merges without a shared identifier
    and a majority of agreeing common fields; the output does not depend on
    the order of ``sources`` except for the listing order, which follows it.
    ``identifier_fields`` names fields whose digit-only numbers count as
    codes. Raises ``ValueError`` when two sources share an id.
    """
    by_id = sources_by_id(sources)
    with _collector_paused():
        return _merge(sources, by_id, frozenset(normalise_text(k) for k in identifier_fields))


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause automatic cyclic garbage collection while the merge runs, then restore it.

    The merge allocates a few small containers per cell, none of them part of
    a reference cycle; with automatic collection on, the collector walks the
    growing heap over and over, which on 100,000 rows costs about as much as
    the merge itself. Reference counting still frees everything. Collection
    is switched back on only if it was on, also when the merge raises.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _merge(sources: Sequence[Source], by_id: dict[str, Source], identifier_keys: frozenset[str]) -> MergeResult:
    ordered = sorted(sources, key=lambda s: s.id)
    table = RowTable(ordered, identifier_keys)
    groups, verdicts = _groups(table)

    group_of: dict[int, int] = {}
    for g, (_, rows) in enumerate(groups):
        for r in rows:
            group_of[r] = g
    total = len(table.raw)

    def output_of(r: int) -> int:
        g = group_of.get(r)
        return total + g if g is not None else r

    duplicates: list[PossibleDuplicate] = []
    reported: set[tuple[int, int]] = set()

    def report(a: int, b: int, reason: str) -> None:
        pair = (min(output_of(a), output_of(b)), max(output_of(a), output_of(b)))
        if pair[0] != pair[1] and pair not in reported:
            reported.add(pair)
            duplicates.append(PossibleDuplicate(table.origin(a), table.origin(b), reason))

    for (a, b), (code, verdict) in sorted(verdicts.items()):
        if not verdict.compatible:
            report(a, b, verdict.reason)
            continue
        # Compatible yet apart: a member went to a group of another code, or the
        # group of this code holds a row that one of the two contradicts.
        shown = table.shown(a, code)
        elsewhere = [(r, groups[group_of[r]][0]) for r in (a, b) if r in group_of and groups[group_of[r]][0] != code]
        if elsewhere:
            r, other = elsewhere[0]
            reason = f"same identifier {shown}, but one of them is merged by identifier {table.shown(r, other)}"
        else:
            reason = f"same identifier {shown}, but it disagrees with another row merged under that identifier"
        report(a, b, reason)

    common_values: list[CommonValue] = []
    for a, b in _equal_value_pairs(table, common_values):
        if output_of(a) == output_of(b):
            continue
        # Different codes in one field (two invoice numbers, two supply points) make two items.
        if table.codes_conflict(a, b):
            continue
        identifiers_b = table.identifiers(b)
        if identifiers_b and any(c in identifiers_b for c in table.identifiers(a)):
            continue  # a shared identifier was judged above
        equal = _equal_fields(table, a, b)
        if len(equal) > 1:
            report(a, b, f"{len(equal)} equal fields ({table.fields(equal)}) and no shared identifier")

    return MergeResult(
        rows=_in_reading_order(table, sources, groups, group_of),
        possible_duplicates=tuple(duplicates),
        merged_count=len(groups),
        input_count=total,
        source_count=len(sources),
        common_values=tuple(sorted(common_values, key=lambda v: (-v.rows, v.field, v.value))),
        observations=MappingProxyType(by_id),
    )


def _in_reading_order(
    table: RowTable, sources: Sequence[Source], groups: list[tuple[str, list[int]]], group_of: dict[int, int]
) -> tuple[MergedRow, ...]:
    """Output rows in the order the sources were given; a merged row sits where its first observation was read."""
    position = {source.id: p for p, source in enumerate(table.sources)}
    emitted: set[int] = set()
    output: list[MergedRow] = []
    for source in sources:
        first = table.first[position[source.id]]
        for index, row in enumerate(source.rows):
            r = first + index
            g = group_of.get(r)
            if g is None:
                output.append(MergedRow(dict(row), ((source.id, index),)))
            elif g not in emitted:
                emitted.add(g)
                output.append(_merged_row(table, *groups[g]))
    return tuple(output)


def _merged_row(table: RowTable, code: str, rows: list[int]) -> MergedRow:
    """The most complete row of the group, unchanged, with a note naming the identifier and the sources."""
    kept = min(rows, key=lambda r: (-len(table.items(r)), r))
    note = (
        f"Merged: same identifier {table.shown(kept, code)} read in sources "
        f"{_listing([table.source_id(r) for r in rows])}; values kept as read in {table.source_id(kept)}"
    )
    origins = (table.origin(kept), *(table.origin(r) for r in rows if r != kept))
    return MergedRow(dict(table.raw[kept]), origins, note)


def _listing(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
