"""Collecting records and documents across a website's pages.

What is sought (scope), the bounded exploration and its walk, page arrival,
reading and recognition, the frontier and revisits, routes, the budget,
findings, completeness, delivery, downloaded documents, the audit, and the
``collect_site_records`` / ``collect_site_documents`` executors.

Layer: above ``handoff``; it does not import ``signin``.
"""
