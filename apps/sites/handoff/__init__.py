"""Handoff panels: the owner drives a browser session for a moment.

The panel rows and the owner's commands, the server that runs beside the
session, and the portal views of a panel (page, image, status, commands).

Layer: above ``acting``; below ``signin`` and ``collection``.
"""
