"""Extraction of requested fields from a document's text: the deterministic rules
(lines, label/value pairs, choosing a value) and the extraction tier behind
them.
"""
