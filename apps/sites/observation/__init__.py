"""Reading a live page without changing it.

The page script (``observe.js`` and its helpers) and the typed, frozen
snapshot it is assembled into, waits until a page can be read, bounded page
calls, the recognition of a request to verify humanity, and the updatable
lexicons the browser work reads.

Layer: above ``browser``; below ``acting`` and everything that acts.
"""
