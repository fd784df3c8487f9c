"""Row identity and merging: when rows read on different pages are the same item.

Deterministic, no model, standard library only. This module is the public
door; the work is done in ``identity_codes`` (reading codes and comparable
values), ``identity_table`` (the index), ``identity_rows``, ``identity_links``
and ``identity_results``.

Entry points
------------
``merge_rows(sources, *, identifier_fields=()) -> MergeResult``
    Merges rows of different sources that show the same identifier and
    reports possible duplicates.
``merge_list_and_detail(list_source, detail_sources, links, *, identifier_fields=()) -> MergeResult``
    Completes list rows with the detail views reached from them by observed
    navigation (``links``: a sequence of ``ObservedLink``).

How a cell is read (the rules below rest on these)
--------------------------------------------------
``codes_in(text) -> tuple[(normalised code, code as observed), ...]``
    The codes a text shows (see Codes and identifiers).
``comparable(value)``
    The hashable reading two cells agree on: normalised text, a number or
    amount by value (``Decimal``/``int``; ``"1.234"`` and ``"00123"`` stay
    text), a date by value; ``None`` for an empty cell.
``analyse_text(text) -> (comparable, codes)`` and ``analyse_texts(texts)``
    Both readings at once, for one text or a column of texts.

Types (frozen dataclasses)
--------------------------
``ObservedLink(row_index, detail_source_id)``
    Navigation actually observed from a list row to the detail view read as
    that source.
``MergedRow(values, origins, note)``
    One output row. ``origins`` lists every observation it stands for as
    ``(source id, row index)``, the one whose values take precedence first;
    ``note`` states the merge in words (empty for a row read once) and is what
    a spreadsheet writes in its Note column; ``merged`` is true when it
    stands for more than one observation.
``PossibleDuplicate(a, b, reason)``
    Two observations that may be the same item but were kept separate.
``UnmergedLink(row_index, detail_source_id, reason)``
    An observed link that did not merge its two views.
``CommonValue(field, value, rows)``
    A field value too widely shared to be used when seeking possible
    duplicates (see Bounds).
``MergeResult``
    ``rows`` in reading order (sources as given, rows as read; a merged row
    where its first observation was read), ``possible_duplicates``,
    ``merged_count`` (output rows standing for several observations),
    ``input_count``, ``source_count``, ``common_values``,
    ``unmerged_links``, ``observation(origin)`` returning any original row
    unchanged, and ``message()``, one chat-ready sentence such as "4 rows
    merged into 2 (same identifier on different pages); 1 possible duplicate
    kept separate".

Codes and identifiers
---------------------
Codes are read from every text cell (see :mod:`apps.records.identity_codes`
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
* A merged row keeps the values of its most complete member (most non-empty
  fields; ties go to the smallest source id) exactly as read, nothing blended
  in from the others; its note names the identifier and the sources.
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

from apps.records.identity_codes import (
    MIN_CODE_CHARACTERS,
    analyse_text,
    analyse_texts,
    codes_in,
    comparable,
    identifier_field_codes,
)
from apps.records.identity_links import merge_list_and_detail
from apps.records.identity_results import (
    MAX_ROWS_PER_SHARED_VALUE,
    CommonValue,
    MergedRow,
    MergeResult,
    ObservedLink,
    Origin,
    PossibleDuplicate,
    UnmergedLink,
)
from apps.records.identity_rows import merge_rows

__all__ = [
    "MAX_ROWS_PER_SHARED_VALUE",
    "MIN_CODE_CHARACTERS",
    "CommonValue",
    "MergeResult",
    "MergedRow",
    "ObservedLink",
    "Origin",
    "PossibleDuplicate",
    "UnmergedLink",
    "analyse_text",
    "analyse_texts",
    "codes_in",
    "comparable",
    "identifier_field_codes",
    "merge_list_and_detail",
    "merge_rows",
]
