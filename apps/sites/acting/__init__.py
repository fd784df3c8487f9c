"""Acting on an observed page, safely.

Clicking a control and settling what followed, finding a field again to fill
it, closing covering overlays through a safe exit, rejecting cookies (never
accepting), measuring an obstruction, and choosing a route among observed
controls when the page's signals do not say.

Layer: above ``observation``; below ``handoff``, ``signin`` and ``collection``.
"""
