"""The frontier of a collection: page states, their candidate controls and their order.

A :class:`PageState` is one page as the collection reached it: its address,
its level, the in-place clicks that prepared it (a menu opened, "load more"
pressed) and the candidates still to take. Expansions of the same list and
buttons that change the page in place keep the level; other forward
navigation adds one. After an in-place change only the controls it revealed
become new candidates: the others were already examined.

Candidates are the controls a signal recognises (:mod:`apps.sites.collection.signals`),
examined in groups of ``CONTROL_GROUP_SIZE`` so a long page hides none of
them, and taken in the signals' order: the full list first, then the rows'
details and documents, then more of the same list, archives, sections and
menus. A row's detail or document is a candidate only when the control is
linked to exactly one record row of the page and that item still needs it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from apps.sites.acting.entries import continues_to_account
from apps.sites.browser.websites import AuthorizedWebsites
from apps.sites.collection.delivery import outside_request
from apps.sites.collection.reading import ReadRow, row_matches
from apps.sites.collection.revisit import identity_key, page_address
from apps.sites.collection.scope import CollectionPlan
from apps.sites.collection.signals import Signal, avoided, classify_control, period_choices
from apps.sites.observation.lexicon import fold
from apps.sites.observation.limits import CONTROL_GROUP_SIZE
from apps.sites.observation.snapshot import Control, ControlIdentity, Field, Form, Snapshot

# A page showing fewer items than this is a summary (the latest bill), not their list.
LIST_MIN_ROWS = 2


@dataclass(frozen=True)
class RowLink:
    """The record row a control belongs to: which read, which row, and the item's identifier."""

    source_id: str
    row_index: int
    identifier: str
    # Whether the row shows its own number (else ``identifier`` is its cells, which other items may share).
    numbered: bool = True


@dataclass(frozen=True)
class OptionChoice:
    """An option to choose in a period chooser: the form (by key), the field and the option's label."""

    form_key: str
    field: Field
    option: str


@dataclass
class Candidate:
    control: Control
    signal: Signal
    order: int
    row: RowLink | None = None
    prepared_again: bool = False
    # For an option of a period chooser: ``control`` stands for the chooser (it has no address).
    choice: OptionChoice | None = None

    @property
    def sort_key(self) -> tuple[int, int]:
        return (self.signal.priority, self.order)


@dataclass
class PageState:
    url: str
    level: int
    parent: PageState | None
    snapshot: Snapshot
    preparation: list[Control] = field(default_factory=list)
    pending: list[Candidate] = field(default_factory=list)
    considered: set[ControlIdentity] = field(default_factory=set)
    rows: list[tuple[str, int, ReadRow]] = field(default_factory=list)
    row_counts: Counter[tuple[tuple[str, str | None], ...]] = field(default_factory=Counter)
    unclassified: list[Control] = field(default_factory=list)
    chooser_asked: bool = False
    scrolled_out: bool = False
    # A list with its own next page or "load more" is not scrolled for more.
    has_expansions: bool = False
    # The preparation steps that chose a period in a chooser (by position), to choose again on a return.
    choices: dict[int, OptionChoice] = field(default_factory=dict)


def lists_items(rows: Iterable[Mapping[str, object]], plan: CollectionPlan) -> bool:
    """Whether ``rows`` are a list of the items asked for: two or more that show their own number and that
    their own fields do not place outside the request. A summary showing the latest bill is not the list,
    nor a notice beside the payslips, nor the latest account movements (no number) beside the documents."""
    wanted = 0
    for values in rows:
        if values.get("identifier_number") and not outside_request(values, plan):
            wanted += 1
            if wanted >= LIST_MIN_ROWS:
                return True
    return False


def chooser_on(snapshot: Snapshot, choice: OptionChoice) -> tuple[Form, Field] | None:
    """The chooser of ``choice`` as ``snapshot`` shows it (the period it shows may differ), if exactly one."""
    wanted = (choice.field.type, choice.field.name, choice.field.label, choice.field.options)
    found = [
        (form, one)
        for form in snapshot.forms
        if form.key == choice.form_key
        for one in form.fields
        if (one.type, one.name, one.label, one.options) == wanted
    ]
    return found[0] if len(found) == 1 else None


def _chooser(form: Form, index: int, field: Field, option: str) -> Control:
    """A control standing for a chooser's option in the frontier (never clicked: it is chosen)."""
    return Control(
        frame_path=form.frame_path, role="combobox", name=field.label, text=option, section=form.section, row="",
        fingerprint=form.key[:40], document=form.document, href="", enabled=True, expanded=None, in_viewport=True,
        ambiguous=False, panel=form.panel, form=index,
    )  # fmt: skip


def row_key(row: ReadRow) -> tuple[tuple[str, str | None], ...]:
    return tuple(sorted(row.values.items()))


def identifier_of(row: ReadRow) -> str:
    """The item's own number when the row shows one, else its cells (so equal rows stay equal)."""
    return row.values.get("identifier_number") or " | ".join(row.cells)


class CandidateFinder:
    """Turns the controls of a read into candidates for one collection."""

    def __init__(self, plan: CollectionPlan, websites: AuthorizedWebsites) -> None:
        self.plan = plan
        self.websites = websites
        self._order = 0
        # Periods of a chooser shown or taken already, by (field, option): each is read once in a run.
        self.periods_met: set[tuple[str, str]] = set()

    def add(self, state: PageState, snapshot: Snapshot) -> int:
        """Add the controls of ``snapshot`` not examined before in ``state``; how many became candidates."""
        added = 0
        for group in snapshot.groups(CONTROL_GROUP_SIZE):
            for control in group.controls:
                key = identity_key(control)
                if key in state.considered:
                    continue
                state.considered.add(key)
                candidate = self._candidate(state, control)
                if candidate is not None:
                    state.has_expansions = state.has_expansions or candidate.signal.kind == "expansion"
                    state.pending.append(candidate)
                    added += 1
                elif not avoided(control) and control.enabled and not control.row:
                    state.unclassified.append(control)
        added += self._period_choices(state, snapshot)
        state.pending.sort(key=lambda candidate: candidate.sort_key)
        return added

    def _period_choices(self, state: PageState, snapshot: Snapshot) -> int:
        """An option of each period chooser not met before ("Year: 2025" when 2026 is shown) is a candidate."""
        added = 0
        for index, form in enumerate(snapshot.forms):
            for chooser in form.fields:
                choices = period_choices(chooser)
                if not choices:
                    continue
                name = chooser.name or chooser.label
                self.periods_met.add((name, chooser.chosen))  # the period shown now is this page's
                for option in choices:
                    if (name, option) in self.periods_met:
                        continue
                    self.periods_met.add((name, option))
                    self._order += 1
                    stand_in = _chooser(form, index, chooser, option)
                    choice = OptionChoice(form.key, chooser, option)
                    state.pending.append(Candidate(stand_in, Signal("expansion", "period"), self._order, choice=choice))
                    state.has_expansions = True
                    added += 1
        return added

    def _candidate(self, state: PageState, control: Control) -> Candidate | None:
        # The record rows the control's row shows, looked up once: its link, or a tile that is no record.
        rows = _rows_shown(state, control)
        signal = classify_control(
            control,
            object_words=self.plan.object_words,
            container_words=self.plan.container_words,
            qualifier=self.plan.qualifier,
            tile=bool(control.row) and not rows,
        )
        if signal is None and self._enters_the_one_profile(state, control):
            signal = Signal("account")
        if signal is None:
            return None
        link = _link(rows)
        if signal.kind in ("menu", "section") and control.expanded is False and link is not None:
            # A closed disclosure that is one record's own (an accordion item's header, which may name the
            # kind of item it is: "F 26/120 · Fattura") opens that item's detail.
            signal = Signal("detail")
        if signal.kind == "container" and self.listed_items(state):
            return None  # items are shown here: a place of other kinds is for a model to weigh, if any
        if signal.kind == "account" and (state.parent is not None or self.listed_items(state)):
            # Only from the start page, before any item was seen (a home page, signed in); it is taken after
            # the page's other routes, and only while none of them found an item (explore.Explorer._useful).
            return None
        if control.href and not self.websites.allows(control.href):
            return None
        if control.href and page_address(control.href) == state.url and signal.kind != "expansion":
            return None
        self._order += 1
        if signal.kind not in ("detail", "download"):
            return Candidate(control, signal, self._order)
        if signal.kind == "download" and not self.plan.save_documents:
            return None
        if link is None:
            # Rows that read the same leave their controls ambiguous: kept, to be reported, never clicked.
            return Candidate(control, signal, self._order) if control.ambiguous else None
        if signal.kind == "detail":
            row = next(row for source, index, row in state.rows if (source, index) == (link.source_id, link.row_index))
            if not self.plan.missing_fields(dict(row.values)) or outside_request(row.values, self.plan):
                return None  # nothing to add, or an item its own fields place outside the request
        return Candidate(control, signal, self._order, row=link)

    @staticmethod
    def _enters_the_one_profile(state: PageState, control: Control) -> bool:
        """The way on of a page asking which profile to enter when it offers one ("Seleziona l'azienda":
        a single radio, then "Entra"): a person just goes on; with several, the choice is theirs."""
        forms = state.snapshot.forms
        if control.form is None or not 0 <= control.form < len(forms) or control.role != "button":
            return False
        fields = [field for field in forms[control.form].fields if field.visible]
        if len(fields) != 1 or fields[0].type != "radio":
            return False
        return continues_to_account(fold(control.label))

    def listed_items(self, state: PageState) -> bool:
        """Whether ``state`` lists the items asked for (see :func:`lists_items`)."""
        return lists_items((row.values for _, _, row in state.rows), self.plan)


def _rows_shown(state: PageState, control: Control) -> list[tuple[str, int, ReadRow]]:
    """The record rows of ``state`` whose cells the control's row shows."""
    if not control.row:
        return []
    return [(source, index, row) for source, index, row in state.rows if row_matches(row, control.row)]


def _link(rows: list[tuple[str, int, ReadRow]]) -> RowLink | None:
    """The one record row a control belongs to; None when none or several are shown by its row."""
    if len(rows) != 1:
        return None
    source, index, row = rows[0]
    return RowLink(source, index, identifier_of(row), bool(row.values.get("identifier_number")))
