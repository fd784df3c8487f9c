#!/usr/bin/env python
"""Django's command-line utility for Metnos."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "metnos_site.settings")
    from django.core.exceptions import ImproperlyConfigured
    from django.core.management import execute_from_command_line

    try:
        execute_from_command_line(sys.argv)
    except ImproperlyConfigured as error:
        # A configuration problem deserves one clear line, not a traceback.
        sys.stderr.write(f"metnos: configuration error: {error}\n")
        sys.exit(2)


if __name__ == "__main__":
    main()
