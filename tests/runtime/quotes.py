"""Three realistic PDF quotes for the spec's example, built by hand (no PDF-writing dependency).

``write_quotes(folder)`` writes ``quote1.pdf`` … ``quote3.pdf``: Italian and
English, different layouts and amount formats, as offices receive them.

* ``quote1.pdf`` (Italian): letterhead, a "Fornitore:" label, a line-item
  table (cells separated by runs of spaces) and a VAT breakdown whose total is
  "Totale: € 1.640,90".
* ``quote2.pdf`` (English): the "Supplier" label on its own line with the
  name below, a ``|``-separated table with one row, "Subtotal", "VAT" and
  "Total (VAT incl.)  EUR 1,439.60".
* ``quote3.pdf`` (Italian, laid out with positioned text as word processors
  do, so pypdf joins the cells with single spaces): no supplier label at all —
  the letterhead "Gamma Forniture S.p.A." names it — "Prezzo unitario:
  125,00 €" and "Prezzo totale EUR 1.250,00".

The PDF writer places each line as its own text object; a line given as a
tuple of ``(x, text)`` cells places each cell at its own horizontal position.
pypdf extracts the text like any other PDF's.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

Cell = tuple[int, str]
Line = str | tuple[Cell, ...]

LEFT_MARGIN = 56
TOP = 780
LINE_HEIGHT = 16


@dataclass(frozen=True)
class Quote:
    file_name: str
    supplier: str
    total: Decimal
    currency: str
    lines: tuple[Line, ...]


QUOTE_1 = Quote(
    file_name="quote1.pdf",
    supplier="Alfa Ufficio S.r.l.",
    total=Decimal("1640.90"),
    currency="EUR",
    lines=(
        "Alfa Ufficio S.r.l.",
        "Via dei Mille 12, 20121 Milano - P.IVA 01234567890",
        "PREVENTIVO N. 2026/118",
        "Data: 12/03/2026",
        "Spett.le Metnos S.p.A.",
        "Ufficio Acquisti",
        "Fornitore: Alfa Ufficio S.r.l.",
        "Oggetto: fornitura sedute operative",
        "Descrizione    Quantità    Prezzo unitario    Importo",
        "Sedia ergonomica mod. Ergo    10    120,00    1.200,00",
        "Poggiapiedi regolabile    10    14,50    145,00",
        "Imponibile: € 1.345,00",
        "IVA 22%: € 295,90",
        "Totale: € 1.640,90",
        "Validità offerta: 30 giorni. Pagamento: bonifico a 30 giorni data fattura.",
    ),
)

QUOTE_2 = Quote(
    file_name="quote2.pdf",
    supplier="Beta Office Supplies Ltd",
    total=Decimal("1439.60"),
    currency="EUR",
    lines=(
        "QUOTATION",
        "Beta Office Supplies Ltd",
        "12 Kings Road, London SW3 4RP - VAT GB123456789",
        "Quote no. Q-2026-044        Date: 14 March 2026",
        "Customer: Metnos S.p.A., Purchasing",
        "Supplier",
        "Beta Office Supplies Ltd",
        "| Item | Qty | Unit price | Total price |",
        "|---|---|---|---|",
        "| Ergonomic chair ErgoPro | 10 | 118.00 | 1,180.00 |",
        "Subtotal    1,180.00",
        "VAT (22%)    259.60",
        "Total (VAT incl.)    EUR 1,439.60",
        "Valid until 15 April 2026. Delivery within 10 working days.",
    ),
)

QUOTE_3 = Quote(
    file_name="quote3.pdf",
    supplier="Gamma Forniture S.p.A.",
    total=Decimal("1250.00"),
    currency="EUR",
    lines=(
        "Gamma Forniture S.p.A.",
        "Offerta commerciale n. 77 del 10/03/2026",
        "Alla cortese attenzione di: Ufficio Acquisti, Metnos S.p.A.",
        ((LEFT_MARGIN, "Articolo:"), (200, "Sedia ergonomica Comfort Plus")),
        ((LEFT_MARGIN, "Quantità:"), (200, "10")),
        ((LEFT_MARGIN, "Prezzo unitario:"), (200, "125,00 €")),
        ((LEFT_MARGIN, "Prezzo totale"), (200, "EUR"), (240, "1.250,00")),
        "Consegna: entro 15 giorni lavorativi.",
    ),
)

QUOTES: tuple[Quote, ...] = (QUOTE_1, QUOTE_2, QUOTE_3)


def _escape(text: str) -> bytes:
    encoded = text.encode("cp1252")  # WinAnsiEncoding: €, accented letters
    return encoded.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")


def _content_stream(lines: tuple[Line, ...]) -> bytes:
    parts: list[bytes] = []
    for number, line in enumerate(lines):
        y = TOP - number * LINE_HEIGHT
        cells: tuple[Cell, ...] = ((LEFT_MARGIN, line),) if isinstance(line, str) else line
        for x, text in cells:
            parts.append(b"BT /F1 10 Tf %d %d Td (%s) Tj ET" % (x, y, _escape(text)))
    return b"\n".join(parts)


def pdf_with_lines(*pages: tuple[Line, ...]) -> bytes:
    """A valid PDF 1.4 file whose pages show ``pages`` (an empty tuple is a page without text)."""
    page_ids = [4 + 2 * index for index in range(len(pages))]
    objects: list[bytes] = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(b"%d 0 R" % pid for pid in page_ids), len(pages)),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    ]
    for page_id, lines in zip(page_ids, pages, strict=True):
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] "
            b"/Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>" % (page_id + 1)
        )
        stream = _content_stream(lines)
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref_at = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref_at)
    return bytes(out)


def quote_pdf(quote: Quote) -> bytes:
    return pdf_with_lines(quote.lines)


def scanned_pdf() -> bytes:
    """A PDF whose only page carries no text, as a scan without OCR."""
    return pdf_with_lines(())


def write_quotes(folder: Path, quotes: tuple[Quote, ...] = QUOTES) -> list[Path]:
    """Write ``quotes`` into ``folder`` (created if missing); return their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for quote in quotes:
        path = folder / quote.file_name
        path.write_bytes(quote_pdf(quote))
        paths.append(path)
    return paths
