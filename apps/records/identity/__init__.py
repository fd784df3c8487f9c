"""Row identity and merging: when rows read on different pages are the same item.

Deterministic, no model, standard library only. ``codes`` reads the codes
and the comparable value of a cell; ``results`` holds the result types and
the one bound; ``table`` is the index ``rows`` decides on; ``rows`` merges
rows of different sources that show the same identifier (``merge_rows``) and
``links`` completes list rows with the detail views they were seen to open
(``merge_list_and_detail``). Each module states its rules; callers import
the module that defines a name.
"""
