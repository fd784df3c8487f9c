"""Records: dates with precision, field vocabulary, row identity and merging, spreadsheets.

Public API (see docs/records.md): ``rows``, ``amounts``, ``dates`` (reading,
periods), ``scope``, ``vocabulary``, ``headings``, ``identity`` (codes,
results, rows, links) and ``sheets`` (formula safety, receipts, cells, XLSX,
CSV, Google Sheets). Callers import the module that defines a name; the
packages' ``__init__`` modules hold only their docstrings.
"""
