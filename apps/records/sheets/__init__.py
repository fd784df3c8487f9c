"""Spreadsheets that never run data: XLSX, CSV and Google Sheets writers with receipts.

``formula_safety`` says which text a spreadsheet would evaluate;
``receipts`` holds what a write reports (``SheetReceipt``, ``SheetWriteError``);
``cells`` the cell rules every writer shares; ``files`` where a file may be
written and its atomic replacement; ``xlsx``, ``csv`` and ``google`` are the
writers. Callers import the module that defines a name.
"""
