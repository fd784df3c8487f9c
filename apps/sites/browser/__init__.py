"""The browser itself: what every website executor stands on.

Chromium's executable and processes, the eight slots and the visible queue
before them, sessions and the watch beside each, per-owner browser data, the
network guard and the one check every request passes, the websites a session
is authorized for, browser jobs, and the diagnostics of failed actions.

Layer: the lowest of ``apps.sites``; it imports none of its sibling packages.
"""
