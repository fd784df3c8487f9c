"""What an extraction is asked for and what it gives back, with its bounds.

Contract:

* :func:`field_specs` checks the requested field names — a non-empty list of
  at most :data:`MAX_FIELDS` distinct, non-empty names of at most
  :data:`MAX_FIELD_NAME_CHARS` characters, none of them one of
  :data:`RESERVED_KEYS` — and classifies each with the shared vocabulary
  (:func:`apps.records.vocabulary.classify_label`); anything else raises
  :class:`InvalidFields`.
* A :class:`FieldValue` is one value found for one field with where it came
  from; a :class:`DocumentExtraction` is what one document gave: the values,
  why fields are empty (``problems``) and the choices made (``notices``).

The bounds every part of the extraction shares are named here, in one place.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from apps.records.vocabulary import FieldKind, classify_label, normalise_label

# Kinds whose values are money: a total, a net amount, a tax.
AMOUNT_KINDS: Final[frozenset[FieldKind]] = frozenset({"amount", "net_amount", "tax_amount"})
# Fields one extraction may ask for.
MAX_FIELDS: Final = 30
# A requested field name longer than this is not a field name.
MAX_FIELD_NAME_CHARS: Final = 60
# A text value longer than this is prose, not a field's value.
MAX_VALUE_CHARS: Final = 200
# A label is short: at most this many characters and words.
MAX_LABEL_CHARS: Final = 60
MAX_LABEL_WORDS: Final = 8
# A label alone on its line (its value on the next line) has at most this many words (numbers aside).
MAX_BARE_LABEL_WORDS: Final = 5
# A label read without a colon may have at most this many words outside the lexicon's phrases.
MAX_UNCOVERED_WORDS: Final = 1
# Non-empty lines at the top of a document where a letterhead is looked for.
LETTERHEAD_LINES: Final = 6
# Candidates named in one notice.
MAX_CANDIDATES_SHOWN: Final = 4
# Item keys the executors use for themselves; a requested field may not take them.
RESERVED_KEYS: Final = frozenset({"address", "evidence"})

Method = Literal[
    "label_value", "next_line", "label_prefix", "table", "in_text", "letterhead", "dateline", "document_date", "model"
]
ValueType = Literal["amount", "date", "text"]
Scope = Literal["document", "line_item"]
MatchKind = Literal["name", "kind", "generic"]


class InvalidFields(ValueError):
    """The requested fields cannot be extracted (empty, too many, repeated, reserved names)."""


@dataclass(frozen=True)
class FieldSpec:
    """A requested field: its name as given, normalised, and its vocabulary kind."""

    name: str
    normalised: str
    kind: FieldKind | None

    @property
    def is_amount(self) -> bool:
        """An amount field: a total, a net or a tax amount (values are decimals with their currency)."""
        return self.kind in AMOUNT_KINDS

    @property
    def is_date(self) -> bool:
        """A date field (values are ISO days, ``YYYY-MM-DD``)."""
        return self.kind in ("issue_date", "due_date", "date")


def field_specs(fields: object) -> tuple[FieldSpec, ...]:
    """Check the requested field names and classify them; :class:`InvalidFields` when unusable."""
    if isinstance(fields, str | bytes) or not isinstance(fields, Sequence):
        raise InvalidFields("fields must be a list of field names")
    if not fields:
        raise InvalidFields("no field was requested")
    if len(fields) > MAX_FIELDS:
        raise InvalidFields(f"at most {MAX_FIELDS} fields can be extracted at once")
    specs: list[FieldSpec] = []
    seen: dict[str, str] = {}
    for raw in fields:
        if not isinstance(raw, str) or not raw.strip():
            raise InvalidFields("every field name must be non-empty text")
        name = raw.strip()
        if len(name) > MAX_FIELD_NAME_CHARS:
            raise InvalidFields(f"field name {name[:20]!r}… is longer than {MAX_FIELD_NAME_CHARS} characters")
        if name.casefold() in RESERVED_KEYS:
            raise InvalidFields(f"{name!r} is reserved for the source document; name the field differently")
        normalised = normalise_label(name)
        if not normalised:
            raise InvalidFields(f"field name {name!r} has no letters or digits")
        if normalised in seen:
            raise InvalidFields(f"fields {seen[normalised]!r} and {name!r} are the same field")
        seen[normalised] = name
        specs.append(FieldSpec(name=name, normalised=normalised, kind=classify_label(name)))
    return tuple(specs)


@dataclass(frozen=True)
class FieldValue:
    """One value found for one field, with where it came from.

    ``value`` is the text to pass on: plain decimal text for amounts
    ("1640.90"), an ISO day for dates ("2026-02-03"), the document's text otherwise. ``label`` is the document's
    label (``None`` for a letterhead); ``line`` the 1-based line of the value;
    ``text`` the value as the document writes it.
    """

    field: str
    value: str
    type: ValueType
    currency: str | None
    label: str | None
    method: Method
    line: int | None
    text: str

    def evidence(self) -> dict[str, Any]:
        """A JSON-ready record of where the value came from (kept in the entry's ``evidence``)."""
        data: dict[str, Any] = {"type": self.type, "method": self.method, "label": self.label, "line": self.line}
        data["text"] = self.text
        if self.type == "amount":
            data["currency"] = self.currency
        return data


@dataclass(frozen=True)
class DocumentExtraction:
    """What one document gave: ``values`` found, ``problems`` (why a field is empty, when
    there is more to say than "not found") and ``notices`` (choices made among labels)."""

    values: Mapping[str, FieldValue]
    problems: Mapping[str, str] = field(default_factory=dict)
    notices: tuple[str, ...] = ()

    def missing(self, specs: Sequence[FieldSpec]) -> tuple[str, ...]:
        return tuple(spec.name for spec in specs if spec.name not in self.values)
