"""Pages of the REST lists: ``?limit=&offset=``, with a maximum page size.

A ``limit`` above ``MAX_PAGE_SIZE`` is lowered to it; a limit that is not a
positive whole number gives the default page (``PAGE_SIZE``); an offset past
the end gives an empty page. None of them is an error, and none reaches the
database as a number it cannot hold.
"""

from __future__ import annotations

from rest_framework.pagination import LimitOffsetPagination

from apps.core.limits import MAX_PAGE_SIZE


class BoundedLimitOffsetPagination(LimitOffsetPagination):
    max_limit = MAX_PAGE_SIZE
