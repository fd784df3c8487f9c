"""How complete a collection is, told honestly.

A stated total ("Showing 1-3 of 9", "1-2 di 3") is evidence only about the
list that states it: it is compared with the rows read from that list's own
pages, never with rows an archive, a summary or another list added. The
pages of one list share a *list address*: their address with the page
numbers taken out (``all-2.html``, ``?page=2``, ``/page/2``; a year is not
a page number), and the rows an in-place expansion added were read at the
same address. The findings keep the largest total a page stated and the
pages that stated it: the total counts as met only when the rows of their
list address number exactly that total.

Anything found but not read (a next page, an archive, an item's detail), a
bound met or an interruption leaves completeness unverified, and the notice
names it. Without a stated total completeness is unverified too, and the
notice names where the search ended. Checking the rows written later never
proves that every item was collected.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlencode, urlsplit

from apps.records.identity.rows import merge_rows
from apps.records.rows import Source
from apps.sites.collection.budget import CollectionBudget, LimitName
from apps.sites.collection.findings import LIMIT_REASONS, Findings
from apps.sites.collection.scope import CollectionPlan

IDENTIFIER_FIELDS = ("identifier_number",)
# How many unread routes or items the completeness notice names (the others are counted).
MAX_UNREAD_NAMED = 3
STOP_WORDS = {
    "navigation_refused": "a page outside the authorized website was refused",
    "navigation_failed": "the website did not answer",
    "session_ended": "the browser session ended",
    "challenge": "the website asks to verify that you are human",
    "page_blocked": "the page needs your decision first",
    "unreadable": "a page could not be read",
    "no_route": "the page's signals named no route and no model is configured to choose one",
    "route_choice_failed": "the model asked to choose a route gave no usable decision",
    "recognition_failed": "the Frontier model asked to recognise the records a page shows gave no usable "
    "decision, and no other model was asked",
}
WRITTEN_ROWS_PROVE_NOTHING = "Checking the rows written later will not show whether any item is missing."

_YEAR = re.compile(r"(?:19|20)\d{2}")
_NUMBER = re.compile(r"\d+")
_PAGED_PATH = re.compile(r"(?:/(?:page|pagina|pag|p))?/\d{1,3}/?$", re.IGNORECASE)
_QUOTED = re.compile(r"(['\"])(.+?)\1")


@dataclass(frozen=True)
class Completeness:
    """What the collection can say about having read everything; ``notice`` is empty when there is nothing to say.

    ``total_short`` is True when the website states a total that no list read
    bears out: items are known to be missing or unattributed.
    """

    notice: str
    total_short: bool


def list_address(page: str) -> str:
    """The list a page belongs to: its address without page numbers (a year is kept: it is another list)."""
    try:
        parts = urlsplit(page)
    except ValueError:
        return page
    path = _PAGED_PATH.sub("", parts.path).rstrip("/")
    head, _, last = path.rpartition("/")
    last = _NUMBER.sub(lambda match: match.group(0) if _YEAR.fullmatch(match.group(0)) else "#", last)
    query = [
        (key, value)
        for key, value in parse_qsl(parts.query, keep_blank_values=True)
        if not value.isdigit() or _YEAR.fullmatch(value)
    ]
    return f"{parts.netloc.lower()}{head}/{last}?{urlencode(sorted(query))}"


def rows_per_list(sources: Sequence[Source]) -> dict[str, int]:
    """How many items each list's own pages showed (rows merged within the list only)."""
    lists: dict[str, list[Source]] = {}
    for source in sources:
        lists.setdefault(list_address(source.page), []).append(source)
    return {
        address: len(merge_rows(group, identifier_fields=IDENTIFIER_FIELDS).rows) for address, group in lists.items()
    }


def collection_completeness(
    findings: Findings, plan: CollectionPlan, budget: CollectionBudget, sources: Sequence[Source]
) -> Completeness:
    """The completeness notice for ``findings`` (``sources``: list reads completed by their linked details)."""
    total = findings.expected_total
    per_list = rows_per_list(sources)
    # The total counts for the list whose pages stated it; only without that record, for any list.
    stating = {list_address(page) for page in findings.total_pages}
    candidates = [count for address, count in per_list.items() if address in stating] if stating else per_list.values()
    total_met = total is not None and total in candidates
    reasons = _interruptions(findings, budget)
    unread = _unread_sentence(findings.left_unread)
    if unread:
        reasons.append(unread)
    if total is not None and not total_met:
        most = max(per_list.values(), default=0)
        reasons.append(
            f"the website states {total} items, but no list read shows that many (at most {most} from the "
            "pages of one list)."
        )
    stated = ""
    if total is None:
        stated = " The website states no total."
    elif total_met:
        stated = f" The website states {total} items and one list's pages show all of them."
    if not reasons:
        if total_met:
            return Completeness(f"The website states {total} items and all of them were read.", False)
        if not plan.complete:
            return Completeness("", False)
        reasons.append(_where_the_search_ended(findings, sources))
        stated = ""
    first, *others = reasons
    others_text = "".join(f" Also, {reason}" for reason in others)
    notice = f"Completeness is unverified: {first}{others_text}{stated} {WRITTEN_ROWS_PROVE_NOTHING}"
    return Completeness(notice, total is not None and not total_met)


def _interruptions(findings: Findings, budget: CollectionBudget) -> list[str]:
    stop = findings.stop
    if stop is not None and stop.reason in LIMIT_REASONS:
        limit: LimitName = "actions" if stop.reason == "actions" else "active_time"
        return [f"the collection stopped at {budget.describe(limit)}."]
    if stop is not None:
        return [f"the collection was interrupted because {STOP_WORDS[stop.reason]}."]
    if "levels" in findings.limits_met:
        return [f"some routes lay beyond {budget.describe('levels')}."]
    return []


def _unread_sentence(left_unread: Sequence[str]) -> str:
    """Names what was found but not read (a next page, an archive, a detail), from the exploration's sentences."""
    if not left_unread:
        return ""
    names = []
    for sentence in left_unread[:MAX_UNREAD_NAMED]:
        quoted = _QUOTED.search(sentence)
        names.append(repr(quoted.group(2)) if quoted else "a control")
    more = len(left_unread) - len(names)
    named = ", ".join(names) + (f" and {more} more" if more else "")
    return f"{len(left_unread)} route(s) or item(s) found were not read ({named})."


def _where_the_search_ended(findings: Findings, sources: Sequence[Source]) -> str:
    """No total, nothing unread, no bound: the observed limit is the last list page read."""
    last = next((source.page for source in reversed(sources) if source.page), "")
    try:
        parts = urlsplit(last)
        shown = parts.path + (f"?{parts.query}" if parts.query else "")
    except ValueError:
        shown = last
    where = f" (the last list page read was {shown})" if shown else ""
    return (
        "the website states no total; the search ended because the pages read offered no further list page, "
        f"expansion or archive{where}, after {findings.pages_read} page(s) read."
    )
