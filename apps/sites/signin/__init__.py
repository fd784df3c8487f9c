"""Signing in to a website with a credential from the vault.

The procedure and its search for the way in, entries and forms, typing,
verifying what the website answered, the route model asked only when the
page's signals are exhausted, the one local CAPTCHA attempt, the sign-in's
side of a handoff, its audit, and the ``sign_in`` executor.

Layer: above ``handoff``; ``collection`` never imports it.
"""
