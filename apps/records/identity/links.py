"""``merge_list_and_detail``: a list row completed by the detail view it was seen to open.

Links are :class:`~apps.records.identity.results.ObservedLink` values; codes
are read as :mod:`apps.records.identity.codes` reads them.

Rules of ``merge_list_and_detail``
----------------------------------
Only an unambiguous observed link merges: the list row has exactly one link,
the detail source is linked from no other row and holds exactly one row,
neither view is truncated, and no common field shows different codes. The
merged row takes the detail values and adds the list fields the detail lacks
or leaves empty; list values that differ from the detail are quoted in the
note. Matching dates, amounts or codes without a link merge nothing. Rows not
merged are kept as read (list rows first, then the detail rows), and every
link that did not merge is reported with its reason.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from types import MappingProxyType

from apps.records.identity.codes import comparable, conflicting_codes, display, field_codes, normalise_text
from apps.records.identity.results import MergedRow, MergeResult, ObservedLink, UnmergedLink, sources_by_id
from apps.records.rows import CellValue, Source


def merge_list_and_detail(
    list_source: Source,
    detail_sources: Sequence[Source],
    links: Sequence[ObservedLink],
    *,
    identifier_fields: Collection[str] = (),
) -> MergeResult:
    """Complete list rows with the detail views reached from them through unambiguous observed links.

    Contract: a list row merges with a detail view only when it has exactly one
    observed link, the detail source is linked from no other row and holds
    exactly one row, neither view is truncated and no common field shows
    different codes. The merged row starts from the detail values and adds
    the list fields the detail lacks or leaves empty; differing list values
    are quoted in the note. Every other row is kept as read (list rows first,
    then the rows of the detail sources, in the order given), each unmerged
    link is reported in ``unmerged_links``, and every original row stays
    reachable through ``MergeResult.observation``. Dates, amounts and codes
    never merge anything without a link. Raises ``ValueError`` for duplicate
    source ids or a link to an unknown row or detail source.
    """
    by_id = sources_by_id([list_source, *detail_sources])
    identifier_keys = frozenset(normalise_text(k) for k in identifier_fields)
    observed = sorted({(link.row_index, link.detail_source_id) for link in links})
    details_of: dict[int, list[str]] = {}
    rows_linking: dict[str, list[int]] = {}
    for row_index, detail_id in observed:
        if not 0 <= row_index < len(list_source.rows):
            raise ValueError(f"link from row {row_index}, but {list_source.id} has {len(list_source.rows)} rows")
        if detail_id not in by_id or detail_id == list_source.id:
            raise ValueError(f"link to {detail_id!r}, which is not one of the detail sources")
        details_of.setdefault(row_index, []).append(detail_id)
        rows_linking.setdefault(detail_id, []).append(row_index)

    unmerged: list[UnmergedLink] = []
    merged_details: set[str] = set()
    output: list[MergedRow] = []
    for row_index, list_row in enumerate(list_source.rows):
        linked = details_of.get(row_index, [])
        problems = {
            detail_id: _link_problem(
                list_source, row_index, by_id[detail_id], details_of, rows_linking, identifier_keys
            )
            for detail_id in linked
        }
        if len(linked) == 1 and problems[linked[0]] is None:
            output.append(_combine(list_source, row_index, by_id[linked[0]]))
            merged_details.add(linked[0])
            continue
        unmerged.extend(UnmergedLink(row_index, d, problems[d] or "ambiguous link") for d in linked)
        output.append(MergedRow(dict(list_row), ((list_source.id, row_index),)))
    merged_count = len(merged_details)
    for detail in detail_sources:
        if detail.id not in merged_details:
            output.extend(MergedRow(dict(row), ((detail.id, i),)) for i, row in enumerate(detail.rows))
    return MergeResult(
        rows=tuple(output),
        possible_duplicates=(),
        merged_count=merged_count,
        input_count=sum(len(source.rows) for source in by_id.values()),
        source_count=len(by_id),
        unmerged_links=tuple(unmerged),
        basis="link",
        observations=MappingProxyType(by_id),
    )


def _link_problem(
    list_source: Source,
    row_index: int,
    detail: Source,
    details_of: Mapping[int, Sequence[str]],
    rows_linking: Mapping[str, Sequence[int]],
    identifier_keys: frozenset[str],
) -> str | None:
    """Why the link from ``row_index`` to ``detail`` cannot merge, or ``None`` when it is unambiguous."""
    if len(details_of[row_index]) > 1:
        return "ambiguous link: the list row leads to several detail views"
    if len(rows_linking[detail.id]) > 1:
        return "ambiguous link: several list rows lead to the same detail view"
    if list_source.truncated:
        return "the list view is truncated"
    if detail.truncated:
        return "the detail view is truncated"
    if len(detail.rows) != 1:
        return f"the detail view holds {len(detail.rows)} rows, not one"
    list_row = list_source.rows[row_index]
    conflict = conflicting_codes(field_codes(list_row, identifier_keys), field_codes(detail.rows[0], identifier_keys))
    if conflict is not None:
        key, code_list, code_detail = conflict
        shown = next((k for k in list_row if normalise_text(k) == key), key)
        return f"the views show different codes in {shown} ({code_list} / {code_detail})"
    return None


def _combine(list_source: Source, row_index: int, detail: Source) -> MergedRow:
    """Detail values first, then list fields the detail lacks; differing list values go in the note."""
    list_row, detail_row = list_source.rows[row_index], detail.rows[0]
    values: dict[str, CellValue] = dict(detail_row)
    detail_keys = {normalise_text(k): k for k in detail_row}
    differing: list[str] = []
    for key, value in list_row.items():
        list_value = comparable(value)
        if list_value is None:
            continue
        detail_key = detail_keys.get(normalise_text(key))
        if detail_key is None:
            values[key] = value  # found only in the list
            continue
        detail_value = comparable(detail_row[detail_key])
        if detail_value is None:
            values[detail_key] = value  # the detail left it empty: the list's reading is the only one
        elif detail_value != list_value:
            differing.append(f"{key} {display(value)}")
    note = f"Merged: row {row_index + 1} of {list_source.id} with its detail view {detail.id} (observed link)"
    if differing:
        note += f"; detail values kept, the list showed {', '.join(differing)}"
    return MergedRow(values, ((detail.id, 0), (list_source.id, row_index)), note)
