"""Plans: the typed plan, its reference grammar, schema checks, validation against
the catalog, the shared guards, reference resolution before invocation, and
which cached plans a request may reuse.
"""
