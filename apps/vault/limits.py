"""The vault's bounds, in one place so tests cite the same names."""

from __future__ import annotations

from typing import Final

MAX_LABEL_CHARS: Final = 120
MAX_USERNAME_CHARS: Final = 254
# A password or passphrase; longer input is not a credential someone types.
MAX_SECRET_CHARS: Final = 1024
MAX_ORIGINS: Final = 20
MAX_ORIGIN_CHARS: Final = 300
# RFC 6238 defaults, which sign-in pages expect unless they say otherwise.
TOTP_DIGITS: Final = 6
TOTP_PERIOD_SECONDS: Final = 30
MAX_TOTP_SEED_CHARS: Final = 128
