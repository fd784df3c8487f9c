"""The shapes collected data travels in, shared by every records module.

A *row* maps field keys to observed values. A *source* is one read of one
page (or one document): every read is a distinct source, even when the same
page is read again, and each source keeps its own id so merges can cite it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

CellValue = str | int | float | Decimal | dt.date | dt.datetime | bool | None
Row = Mapping[str, CellValue]


@dataclass(frozen=True)
class Source:
    """One read of one page or document.

    ``truncated`` marks a view known to be cut short (a partial list, a
    clipped detail page); truncated views never merge.
    """

    id: str
    rows: Sequence[Row]
    page: str = ""
    truncated: bool = False
    metadata: Mapping[str, str] = field(default_factory=dict)
