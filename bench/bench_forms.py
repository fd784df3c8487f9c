"""Benchmark the model-free proposer: ``propose_from_forms`` over 200 declared request forms.

Run: ``cd /work/main && .venv/bin/python bench/bench_forms.py``

Target (issue 4, "Performance"): template matching takes under 5 ms per
request with 200 declared forms (a local intent matcher does 1-5 ms here).
Both the median and the p95 over the request set are held to it.

The catalog: the 8 built-in request forms (``apps.runtime.executors.request_forms``,
on stand-in executors with the built-in names) plus 192 generated ones — 24
kinds of things (reminders, invoices, playlists, ...) x 2 executors (create
one, find or export them) x 2 English and 2 Italian templates each — using
everything the template syntax offers: optional words ``[a|b]``, required
alternatives ``(a|b)``, typed slots (text, folder, count, fields, filename,
documents), apostrophes and optional trailing phrases with their own slots.

The request set (fixed seed): 100 requests rendered from the forms
themselves (random alternatives, realistic slot values, sometimes with
"please"/"per favore" and final punctuation), each of which must be proposed
by the executor it was rendered from; and 100 that match no form — small
talk, near misses (a verb or an object no form knows), and pasted paragraphs
of 200-900 characters. ``propose_from_forms`` tries every form on every
request (it must, to detect ambiguity), so both kinds cost about the same.
Each request is timed on its own; its figure is the median of several passes.

Baseline, in the same run over the same requests: the request normalised
once (the proposer's own ``_prepare``: trailing punctuation, "please", "per
favore"), then the 200 forms' regular expressions, compiled beforehand, each
tried once with ``fullmatch`` in a plain loop — the least any matcher of these
templates does. The ratio is the proposer's cost per form on top of that.

One more figure is printed for information (not part of the target): the
longest request a turn accepts (4,000 characters) shaped to make the
built-in forms backtrack.
"""

from __future__ import annotations

import os
import random
import re
import statistics
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from _setup import percentile, verdict

from apps.runtime.executor import Catalog, ExecutionContext, StepResult, build_catalog
from apps.runtime.executors.request_forms import REQUEST_FORMS
from apps.runtime.manifests import ArgSpec, Manifest, RequestForm, ResultShape
from apps.runtime.paths.forms import (
    AmbiguousRequest,
    FormMatch,
    _prepare,
    catalog_forms,
    compile_template,
    propose_from_forms,
)

TARGET_SECONDS = 5e-3
FORMS = 200
SEED = 20260916
PASSES = 5
MATCHING, NON_MATCHING = 100, 100
MAX_REQUEST_CHARS = 4000  # apps.runtime.turns.MAX_REQUEST_CHARS, without importing Django

# (executor suffix, EN singular, EN plural, IT singular, IT plural, IT gender)
THINGS = (
    ("reminder", "reminder", "reminders", "promemoria", "promemoria", "m"),
    ("note", "note", "notes", "nota", "note", "f"),
    ("event", "event", "events", "evento", "eventi", "m"),
    ("contact", "contact", "contacts", "contatto", "contatti", "m"),
    ("invoice", "invoice", "invoices", "fattura", "fatture", "f"),
    ("receipt", "receipt", "receipts", "ricevuta", "ricevute", "f"),
    ("task", "task", "tasks", "attività", "attività", "f"),
    ("document", "document", "documents", "documento", "documenti", "m"),
    ("photo_album", "photo album", "photo albums", "album fotografico", "album fotografici", "m"),
    ("playlist", "playlist", "playlists", "playlist", "playlist", "f"),
    ("alarm", "alarm", "alarms", "sveglia", "sveglie", "f"),
    ("timer", "timer", "timers", "timer", "timer", "m"),
    ("bookmark", "bookmark", "bookmarks", "segnalibro", "segnalibri", "m"),
    ("expense", "expense", "expenses", "spesa", "spese", "f"),
    ("meeting", "meeting", "meetings", "riunione", "riunioni", "f"),
    ("message", "message", "messages", "messaggio", "messaggi", "m"),
    ("shopping_list", "shopping list", "shopping lists", "lista della spesa", "liste della spesa", "f"),
    ("recipe", "recipe", "recipes", "ricetta", "ricette", "f"),
    ("subscription", "subscription", "subscriptions", "abbonamento", "abbonamenti", "m"),
    ("project", "project", "projects", "progetto", "progetti", "m"),
    ("report", "report", "reports", "rapporto", "rapporti", "m"),
    ("backup", "backup", "backups", "backup", "backup", "m"),
    ("ticket", "ticket", "tickets", "ticket", "ticket", "m"),
    ("order", "order", "orders", "ordine", "ordini", "m"),
)
SLOT_KINDS = {
    "title": "text", "when": "text", "query": "text", "folder": "folder", "count": "count",
    "fields": "fields", "filename": "filename", "what": "documents",
}  # fmt: skip
SLOT_VALUES = {
    "en": {
        "title": ("dentist appointment", "call mum", "quarterly taxes", "renew the passport", "team lunch",
                  "Q3 budget review", "pay the electricity bill", "Anna's birthday"),
        "when": ("tomorrow", "next Monday", "March", "last week", "the 3rd of May", "this morning"),
        "query": ("the roof repair", "Rossi", "VAT", "the holiday in Sardinia", "invoice 2025/114"),
        "folder": ("Purchasing", "Documents/2025", "Invoices", "Work/Clients", "Home"),
        "count": ("3", "five", "ten", "12"),
        "fields": ("prices", "dates and totals", "supplier, price and VAT", "amounts"),
        "filename": ("summary.xlsx", "totals-2025.xlsx", "export.csv"),
        "what": ("quotes", "PDF files", "invoices", "documents"),
    },
    "it": {
        "title": ("appuntamento dal dentista", "chiamare la mamma", "tasse del trimestre", "rinnovo passaporto",
                  "pranzo di squadra", "pagare la bolletta della luce", "compleanno di Anna"),
        "when": ("domani", "lunedì prossimo", "marzo", "settimana scorsa", "3 maggio", "stamattina"),
        "query": ("la riparazione del tetto", "Rossi", "IVA", "le vacanze in Sardegna", "fattura 2025/114"),
        "folder": ("Acquisti", "Documenti/2025", "Fatture", "Lavoro/Clienti", "Casa"),
        "count": ("3", "cinque", "dieci", "12"),
        "fields": ("prezzi", "date e importi", "fornitore, prezzo e IVA", "importi"),
        "filename": ("riepilogo.xlsx", "totali-2025.xlsx", "export.csv"),
        "what": ("preventivi", "PDF", "fatture", "documenti"),
    },
}  # fmt: skip
SMALL_TALK = (
    "what's the weather like tomorrow in Rome?", "che tempo fa domani a Milano?", "tell me a joke",
    "raccontami una barzelletta", "how much is 12 times 7", "quanto fa 12 per 7", "good morning!",
    "buongiorno, come stai?", "who won the match last night?", "chi ha vinto la partita ieri sera?",
    "translate 'thank you' into German", "traduci 'grazie' in tedesco", "thanks, that was helpful",
    "grazie mille, perfetto", "what can you do?", "cosa sai fare?", "summarise the news of today",
    "riassumi le notizie di oggi", "is it going to rain this weekend", "ricordami chi sei",
)  # fmt: skip
PARAGRAPH_WORDS = (
    "the", "supplier", "sent", "a", "new", "quote", "for", "roof", "repair", "and", "we", "need", "to", "compare",
    "it", "with", "last", "year's", "prices", "before", "Friday", "il", "fornitore", "ha", "mandato", "nuovo",
    "preventivo", "per", "la", "riparazione", "del", "tetto", "e", "dobbiamo", "confrontarlo", "con", "prezzi",
    "dell'anno", "scorso", "entro", "venerdì", "in", "folder", "please", "check", "invoices", "nella", "cartella",
)  # fmt: skip


@dataclass
class StandInExecutor:
    manifest: Manifest

    def run(self, context: ExecutionContext, args: Mapping[str, Any]) -> StepResult:
        return StepResult(outcome="empty")


def _generated_forms(index: int, thing: tuple[str, str, str, str, str, str]) -> dict[str, tuple[RequestForm, ...]]:
    # No "|" inside a group nested in another group: apps.runtime.paths.forms splits
    # a group's alternatives on every "|" and refuses "[in [the|my] {folder} folder]".
    key, en, ens, it, its, gender = thing
    a_new = "un|un nuovo|un altro" if gender == "m" else "una|una nuova|un'altra"
    the_all = "i|gli|i miei|tutti i" if gender == "m" else "le|le mie|tutte le"
    of_the = "(dei|degli)" if gender == "m" else "delle"
    named = "(chiamato|intitolato|con nome)" if gender == "m" else "(chiamata|intitolata|con nome)"
    create = (
        f"(create|add|make) [a|an|a new|another] {en} (called|named|titled) {{title}} [for {{when}}]",
        f"(remember|save|note down) [a|an] {en} (about|for|on) {{title}} [in [my] {{folder}} folder]",
        f"(crea|aggiungi|fai) [{a_new}] {it} {named} {{title}} [per {{when}}]",
        f"(salva|annota|registra) [{a_new}] {it} (su|per|riguardo a) {{title}} [nella cartella {{folder}}]",
    )
    if index % 2 == 0:
        second_en = (
            f"(search|look) [for] [my] {ens} (about|containing|matching|mentioning) {{query}} "
            "[in [my] {folder} folder]"
        )
        second_it = (
            f"(cerca|trova) [{the_all}] {its} (su|con|che contengono|riguardo a) {{query}} [nella cartella {{folder}}]"
        )
    else:
        second_en = f"export [the] {{fields}} (of|from) [my|the|all] {ens} (to|into) {{filename}}"
        second_it = f"esporta [i|le|gli] {{fields}} {of_the} {its} in {{filename}}"
    find = (
        f"(list|show|find) [me] [all] [the|my] [{{count}}] {ens} [from {{when}}]",
        second_en,
        f"(elenca|mostra|mostrami|trova) [{the_all}] [{{count}}] {its} [da {{when}}]",
        second_it,
    )
    forms: dict[str, tuple[RequestForm, ...]] = {}
    for name, templates in ((f"create_{key}", create), (f"find_{key}s", find)):
        built = []
        for number, template in enumerate(templates):
            slots = {slot: SLOT_KINDS[slot] for slot in re.findall(r"\{([a-z_]+)\}", template)}
            plan = ({"tool": name, "args": {slot: "{" + slot + "}" for slot in slots}},)
            built.append(RequestForm(language="en" if number < 2 else "it", template=template, slots=slots, plan=plan))
        forms[name] = tuple(built)
    return forms


def _manifest(name: str, forms: Sequence[RequestForm]) -> Manifest:
    slots = {slot for form in forms for slot in form.slots}
    args = {
        slot: ArgSpec("array", items="string") if SLOT_KINDS.get(slot) == "fields" else ArgSpec("string")
        for slot in sorted(slots)
    }
    return Manifest(
        name=name, purpose=f"benchmark stand-in for {name}", args=args, result=ResultShape("none"),
        request_forms=tuple(forms),
    )  # fmt: skip


def make_catalog() -> Catalog:
    declared: dict[str, tuple[RequestForm, ...]] = dict(REQUEST_FORMS)
    for index, thing in enumerate(THINGS):
        declared.update(_generated_forms(index, thing))
    executors = {name: StandInExecutor(_manifest(name, forms)) for name, forms in declared.items()}
    return build_catalog(executors)


# --- rendering requests from templates -----------------------------------------


def _parse(template: str, index: int = 0, stop: str = "") -> tuple[list[Any], int]:
    """Template → nodes: str, ("slot", name), ("opt"|"req", [alternative node lists])."""
    nodes: list[Any] = []
    while index < len(template) and template[index] not in stop:
        char = template[index]
        if char in "[(":
            closing = "]" if char == "[" else ")"
            alternatives = []
            while True:
                alternative, index = _parse(template, index + 1, "|" + closing)
                alternatives.append(alternative)
                if template[index] == closing:
                    break
            nodes.append(("opt" if char == "[" else "req", alternatives))
            index += 1
        elif char == "{":
            end = template.index("}", index)
            nodes.append(("slot", template[index + 1 : end]))
            index = end + 1
        else:
            nodes.append(char)
            index += 1
    return nodes, index


def _render(nodes: list[Any], rng: random.Random, fill: Callable[[str], str]) -> str:
    out = []
    for node in nodes:
        if isinstance(node, str):
            out.append(node)
        elif node[0] == "slot":
            out.append(fill(node[1]))
        elif node[0] == "req" or rng.random() < 0.5:
            out.append(_render(rng.choice(node[1]), rng, fill))
    return "".join(out)


def render_request(form: RequestForm, rng: random.Random) -> str:
    values = SLOT_VALUES[form.language]
    text = _render(_parse(form.template)[0], rng, lambda slot: rng.choice(values[slot]))
    text = re.sub(r"\s+", " ", text).strip()
    if rng.random() < 0.25:
        text = rng.choice(("please ", "can you ") if form.language == "en" else ("per favore ", "puoi ")) + text
    if rng.random() < 0.3:
        text += rng.choice((".", "!", "?"))
    return text[0].upper() + text[1:] if rng.random() < 0.5 else text


@dataclass(frozen=True)
class Request:
    text: str
    expected: str | None  # the executor whose form it was rendered from; None: no form may match


def make_requests(catalog: Catalog, seed: int = SEED) -> list[Request]:
    rng = random.Random(seed)
    forms = list(catalog_forms(catalog))
    requests = [
        Request(render_request(form, rng), name) for name, form in rng.sample(forms, k=min(MATCHING, len(forms)))
    ]
    non_matching = [Request(text, None) for text in SMALL_TALK]
    strangers = {"en": ("delete", "rename", "archive", "print"), "it": ("cancella", "rinomina", "archivia", "stampa")}
    while len(non_matching) < NON_MATCHING - 15:
        _, form = rng.choice(forms)
        text = render_request(form, rng).split(" ", 1)
        verb = rng.choice(strangers[form.language])  # a verb no form declares
        non_matching.append(Request(f"{verb} {text[-1]}", None))
    while len(non_matching) < NON_MATCHING:
        words = [rng.choice(PARAGRAPH_WORDS) for _ in range(rng.randint(40, 150))]
        non_matching.append(Request(" ".join(words).capitalize() + ".", None))
    requests.extend(non_matching)
    rng.shuffle(requests)
    return requests


# --- measuring ---------------------------------------------------------------


def _outcome(request: str, catalog: Catalog) -> FormMatch | str | None:
    try:
        return propose_from_forms(request, catalog)
    except AmbiguousRequest:
        return "ambiguous"


def _per_request_seconds(work: Callable[[str], object], texts: Sequence[str]) -> list[float]:
    for text in texts:  # warm-up: compiles and caches every template
        work(text)
    timings: list[list[float]] = [[] for _ in texts]
    for _ in range(PASSES):
        for number, text in enumerate(texts):
            began = time.perf_counter()
            work(text)
            timings[number].append(time.perf_counter() - began)
    return [statistics.median(samples) for samples in timings]


def main() -> int:
    catalog = make_catalog()
    forms = list(catalog_forms(catalog))
    assert len(forms) == FORMS, len(forms)
    requests = make_requests(catalog)
    texts = [request.text for request in requests]

    right = ambiguous = wrong = refused = 0
    for request in requests:
        found = _outcome(request.text, catalog)
        if found == "ambiguous":
            ambiguous += 1
        elif request.expected is None:
            refused += found is None
            wrong += found is not None
        elif isinstance(found, FormMatch) and found.executor == request.expected:
            right += 1
        else:
            wrong += 1
            print(f"  unexpected: {request.text!r} → {getattr(found, 'executor', found)} (from {request.expected})")
    matching = sum(request.expected is not None for request in requests)

    patterns = [compile_template(form.template, tuple(sorted(form.slots.items()))) for _, form in forms]

    def baseline(text: str) -> None:
        prepared = _prepare(text)  # the proposer's own normalisation, once per request
        for pattern in patterns:
            pattern.fullmatch(prepared)

    ours = _per_request_seconds(lambda text: _outcome(text, catalog), texts)
    floor = _per_request_seconds(baseline, texts)
    long_ours = [seconds for seconds, request in zip(ours, requests, strict=True) if len(request.text) >= 200]

    median, p95 = statistics.median(ours), percentile(ours, 0.95)
    base_median, base_p95 = statistics.median(floor), percentile(floor, 0.95)
    languages = sum(form.language == "it" for _, form in forms)
    print(
        f"catalog: {len(catalog.executors)} executors, {len(forms)} request forms "
        f"({len(forms) - languages} EN, {languages} IT; 8 built-in)"
    )
    print(
        f"requests: {len(requests)} — {matching} rendered from forms (proposed by their own executor: "
        f"{right}), {len(requests) - matching} matching none (refused: {refused}, "
        f"{len(long_ours)} of 200+ chars); ambiguous: {ambiguous}, wrong: {wrong}"
    )
    print(f"per request, median of {PASSES} passes each:")
    print(
        f"  propose_from_forms             : median {median * 1e3:6.3f} ms, p95 {p95 * 1e3:6.3f} ms, "
        f"max {max(ours) * 1e3:6.3f} ms"
    )
    print(
        f"  baseline: 200 fullmatch, loop  : median {base_median * 1e3:6.3f} ms, p95 {base_p95 * 1e3:6.3f} ms, "
        f"max {max(floor) * 1e3:6.3f} ms"
    )
    print(f"  ratio propose/baseline         : median {median / base_median:.1f}x, p95 {p95 / base_p95:.1f}x")
    short_ours = [seconds for seconds, request in zip(ours, requests, strict=True) if len(request.text) < 200]
    print(
        f"  requests under 200 characters  : median {statistics.median(short_ours) * 1e3:6.3f} ms, "
        f"p95 {percentile(short_ours, 0.95) * 1e3:6.3f} ms"
    )
    if long_ours:
        print(f"  requests of 200+ characters    : median {statistics.median(long_ours) * 1e3:6.3f} ms")

    # For information: the longest accepted request, shaped to make the built-in forms backtrack.
    hostile = ("read " + "the quotes in the Purchasing folder, compare " * 100)[:MAX_REQUEST_CHARS]
    began = time.perf_counter()
    _outcome(hostile, catalog)
    hostile_seconds = time.perf_counter() - began
    print(
        f"information: one {len(hostile)}-character request repeating 'the quotes in the Purchasing folder, "
        f"compare': {hostile_seconds * 1e3:,.0f} ms"
    )

    passed = median < TARGET_SECONDS and p95 < TARGET_SECONDS
    print(
        f"target: < {TARGET_SECONDS * 1e3:.0f} ms per request with {FORMS} forms; "
        f"median {median * 1e3:.3f} ms, p95 {p95 * 1e3:.3f} ms {verdict(passed)}"
    )
    return 0 if passed and not wrong else 1


if __name__ == "__main__":
    sys.exit(main())
