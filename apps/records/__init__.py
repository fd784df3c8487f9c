"""Records: dates with precision, field vocabulary, row identity and merging, spreadsheets.

Public API (see docs/records.md): ``dates``, ``periods``, ``scope``,
``vocabulary``, ``headings``, ``identity``, ``sheets``.
"""
