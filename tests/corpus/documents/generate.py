#!/usr/bin/env python3
"""Blind test corpus: invoice-like PDFs with a real text layer.

Run:  /work/blind/pdfvenv/bin/python generate.py
Writes pdf/*.pdf and expected.json next to this file.

Design rule: the expected answers (EXPECTED, further down) are typed by hand as
data.  The drawing specs (DOCS) are a separate set of data; the drawing code
never reads EXPECTED.  verify.py checks, independently, that every expected
value is present in each PDF's text layer in the document's own format.
"""
import json
import os
from decimal import Decimal as D, ROUND_HALF_UP

from reportlab.lib.pagesizes import A4, letter
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "pdf")
FD = "/usr/share/fonts/truetype/dejavu/"
for name, f in [("S", "DejaVuSans.ttf"), ("SB", "DejaVuSans-Bold.ttf"),
                ("M", "DejaVuSansMono.ttf"), ("MB", "DejaVuSansMono-Bold.ttf"),
                ("Se", "DejaVuSerif.ttf"), ("SeB", "DejaVuSerif-Bold.ttf"),
                ("SC", "DejaVuSansCondensed.ttf"), ("SCB", "DejaVuSansCondensed-Bold.ttf")]:
    pdfmetrics.registerFont(TTFont(name, FD + f))

NBSP, NNBSP = "\u00a0", "\u202f"

# ----------------------------------------------------------------- formatting


class Money:
    """Render a decimal string in a document's local style."""

    def __init__(self, dec, thou, pat, neg=None, indian=False):
        self.dec, self.thou, self.pat, self.indian = dec, thou, pat, indian
        self.neg = neg or pat.replace("{n}", "-{n}")

    def num(self, v):
        v = D(v).quantize(D("0.01"), ROUND_HALF_UP)
        s = f"{abs(v):.2f}"
        ip, fp = s.split(".")
        if self.indian and len(ip) > 3:
            head, tail = ip[:-3], ip[-3:]
            parts = []
            while len(head) > 2:
                parts.insert(0, head[-2:])
                head = head[:-2]
            if head:
                parts.insert(0, head)
            ip = self.thou.join(parts + [tail])
        else:
            g = []
            while len(ip) > 3:
                g.insert(0, ip[-3:])
                ip = ip[:-3]
            ip = self.thou.join([ip] + g)
        return ip + self.dec + fp, v < 0

    def bare(self, v):
        n, neg = self.num(v)
        return ("-" if neg else "") + n

    def __call__(self, v):
        n, neg = self.num(v)
        return (self.neg if neg else self.pat).format(n=n)


EUR_PRE = Money(",", ".", "€ {n}")             # € 1.234,56  (IT / NL)
EUR_NL = Money(",", ".", "€ {n}", neg="€ -{n}")
EUR_SUF = Money(",", ".", "{n} €")             # 1.234,56 €  (DE / IT)
EUR_CODE_DE = Money(",", ".", "EUR {n}")       # EUR 1.234,56
EUR_FR = Money(",", " ", "{n} €")              # 1 234,56 €
EUR_FR_NB = Money(",", NNBSP, "{n}" + NBSP + "€")  # narrow no-break spaces
EUR_CODE_FR = Money(",", " ", "EUR {n}")       # EUR 1 234,56
EUR_BE = Money(",", ".", "{n} EUR")            # 1.234,56 EUR
EUR_EN = Money(".", ",", "€{n}", neg="-€{n}")  # €1,234.56
GBP = Money(".", ",", "£{n}", neg="-£{n}")
USD = Money(".", ",", "${n}", neg="-${n}")
INR = Money(".", ",", "₹ {n}", indian=True)   # ₹ 1,25,000.00
INR_RS = Money(".", ",", "Rs. {n}", indian=True)
CHF_SUF = Money(".", "'", "{n} CHF")           # 1'234.50 CHF
CHF_PRE = Money(".", "'", "CHF {n}")

MONTHS = {
    "en": "January February March April May June July August September October November December".split(),
    "fr": "janvier février mars avril mai juin juillet août septembre octobre novembre décembre".split(),
    "it": "gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre dicembre".split(),
    "de": "Januar Februar März April Mai Juni Juli August September Oktober November Dezember".split(),
    "at": "Jänner Februar März April Mai Juni Juli August September Oktober November Dezember".split(),
    "nl": "januari februari maart april mei juni juli augustus september oktober november december".split(),
}


def ordinal(d):
    if 10 <= d % 100 <= 20:
        return f"{d}th"
    return f"{d}" + {1: "st", 2: "nd", 3: "rd"}.get(d % 10, "th")


def fdate(iso, style):
    y, m, d = (int(x) for x in iso.split("-"))
    if style == "d.m.Y": return f"{d:02d}.{m:02d}.{y}"
    if style == "d.m.y": return f"{d:02d}.{m:02d}.{y % 100:02d}"
    if style == "d/m/Y": return f"{d:02d}/{m:02d}/{y}"
    if style == "m/d/Y": return f"{m:02d}/{d:02d}/{y}"
    if style == "d-m-Y": return f"{d:02d}-{m:02d}-{y}"
    if style == "Y-m-d": return f"{y}-{m:02d}-{d:02d}"
    if style == "in": return f"{d:02d}-{MONTHS['en'][m-1][:3]}-{y}"
    if style == "en_ord": return f"{ordinal(d)} {MONTHS['en'][m-1]} {y}"
    if style == "en_long": return f"{d} {MONTHS['en'][m-1]} {y}"
    if style == "en_short": return f"{d} {MONTHS['en'][m-1][:3]} {y}"
    if style == "us_long": return f"{MONTHS['en'][m-1]} {d}, {y}"
    if style == "fr_long": return f"{'1er' if d == 1 else d} {MONTHS['fr'][m-1]} {y}"
    if style in ("de_long", "at_long"): return f"{d}. {MONTHS[style[:2]][m-1]} {y}"
    if style in ("it_long", "nl_long"): return f"{d} {MONTHS[style[:2]][m-1]} {y}"
    raise ValueError(style)


class dt:  # a date value inside a drawing spec
    def __init__(self, iso, style=None):
        self.iso, self.style = iso, style


class amt:  # an amount value inside a drawing spec
    def __init__(self, v):
        self.v = v


def val(d, v):
    if isinstance(v, dt):
        return fdate(v.iso, v.style or d["date"])
    if isinstance(v, amt):
        return d["money"](v.v)
    return v


def qtys(d, q):
    q = D(q)
    if q == q.to_integral():
        return str(int(q))
    return str(q).replace(".", d["money"].dec)


# ----------------------------------------------------------------- drawing

GREY = (0.45, 0.45, 0.45)


def txt(c, x, y, s, font="S", size=9, align="l", color=None):
    c.setFont(font, size)
    if color:
        c.setFillColorRGB(*color)
    if align == "r":
        c.drawRightString(x, y, s)
    elif align == "c":
        c.drawCentredString(x, y, s)
    else:
        c.drawString(x, y, s)
    if color:
        c.setFillColorRGB(0, 0, 0)


def wrap(c, x, y, s, width, font="S", size=9, lead=None):
    lead = lead or size * 1.35
    for ln in simpleSplit(s, font, size, width):
        txt(c, x, y, ln, font, size)
        y -= lead
    return y


def line_amount(ln):
    return (D(ln[1]) * D(ln[2])).quantize(D("0.01"), ROUND_HALF_UP)


def draw_table_header(c, d, y, W):
    cols = d["cols"]
    c.setFillColorRGB(0.88, 0.9, 0.93)
    c.rect(48, y - 4, W - 96, 15, stroke=0, fill=1)
    c.setFillColorRGB(0, 0, 0)
    f = d.get("font_b", "SB")
    txt(c, 52, y, cols[0], f, 8)
    xs = table_x(d, W)
    for lab, x in zip(cols[1:], xs):
        if lab:
            txt(c, x, y, lab, f, 8, "r")
    return y - 16


def table_x(d, W):
    R = W - 52
    if len(d["cols"]) == 5:
        return [R - 200, R - 120, R - 75, R]
    return [R - 170, R - 85, R]


def draw_rows(c, d, rows, y, W):
    f = d.get("font", "S")
    xs = table_x(d, W)
    m = d["money"]
    for ln in rows:
        if isinstance(ln, str):  # free text row (section title, note)
            txt(c, 52, y, ln, d.get("font_b", "SB"), 8.5)
            y -= 14
            continue
        desc, q, unit = ln[0], ln[1], ln[2]
        txt(c, 52, y, desc, f, 8.5)
        cells = [qtys(d, q), m.bare(unit)]
        if len(d["cols"]) == 5:
            cells.append(ln[3])
        cells.append(m.bare(line_amount(ln)))
        for s, x in zip(cells, xs):
            txt(c, x, y, s, f, 8.5, "r")
        c.setStrokeColorRGB(0.85, 0.85, 0.85)
        c.line(48, y - 4, W - 48, y - 4)
        c.setStrokeColorRGB(0, 0, 0)
        y -= 14
    return y


def draw_totals(c, d, y, W):
    rows = d["totals"]
    x0, x1 = W - 270, W - 48
    h = 16 * len(rows) + 6
    if d.get("totals_box", True):
        c.setLineWidth(0.8)
        c.rect(x0, y - h + 12, x1 - x0, h, stroke=1, fill=0)
    yy = y
    for r in rows:
        lab, v = r[0], r[1]
        bold = len(r) > 2 and r[2]
        f = d.get("font_b", "SB") if bold else d.get("font", "S")
        txt(c, x0 + 8, yy, lab, f, 9.5 if bold else 9)
        txt(c, x1 - 8, yy, val(d, v), f, 9.5 if bold else 9, "r")
        yy -= 16
    return y - h - 6


def draw_header(c, d, W, H):
    f, fb = d.get("font", "S"), d.get("font_b", "SB")
    sup = d["supplier"]
    y = H - 52
    tw = pdfmetrics.stringWidth(d["title"], fb, 19)
    nw = pdfmetrics.stringWidth(sup[0], fb, 15)
    avail = W - 100 - tw - 20
    txt(c, 50, y, sup[0], fb, min(15, 15 * avail / nw))
    y -= 15
    for s in sup[1:]:
        txt(c, 50, y, s, f, 8.5, color=GREY)
        y -= 11
    txt(c, W - 50, H - 52, d["title"], fb, 19, "r")
    if d.get("subtitle"):
        txt(c, W - 50, H - 68, d["subtitle"], f, 8.5, "r", GREY)
    ymeta = H - 122
    if d.get("meta_style", "left") == "left":
        for lab, v in d["meta"]:
            txt(c, W - d.get("meta_lx", 265), ymeta, lab, f, 9)
            txt(c, W - d.get("meta_vx", 150), ymeta, val(d, v), fb, 9)
            ymeta -= 13
    else:
        ymeta = H
    ycust = min(y - 18, H - 160)
    txt(c, 50, ycust, d.get("cust_label", ""), fb, 8, color=GREY)
    ycust -= 13
    for s in d["customer"]:
        txt(c, 50, ycust, s, f, 9.5)
        ycust -= 12.5
    return min(ycust, ymeta) - 14


def draw_meta_block(c, d, y, W):
    f, fb = d.get("font", "S"), d.get("font_b", "SB")
    st = d.get("meta_style", "left")
    if st == "above":
        for row in d["meta_rows"]:
            cw = (W - 100) / len(row)
            c.setStrokeColorRGB(0.7, 0.7, 0.7)
            c.rect(50, y - 20, W - 100, 32, stroke=1, fill=0)
            c.setStrokeColorRGB(0, 0, 0)
            for i, (lab, v) in enumerate(row):
                x = 56 + i * cw
                txt(c, x, y + 2, lab, f, 7.5, color=GREY)
                txt(c, x, y - 12, val(d, v), fb, 10)
            y -= 38
        return y - 8
    if st == "twocol":
        yl = yr = y
        lw = d.get("twocol_w", 110)
        for lab, v in d["meta_l"]:
            txt(c, 50, yl, lab, f, 9); txt(c, 50 + lw, yl, val(d, v), fb, 9); yl -= 13
        for lab, v in d["meta_r"]:
            txt(c, W / 2 + 10, yr, lab, f, 9); txt(c, W / 2 + 10 + lw, yr, val(d, v), fb, 9); yr -= 13
        return min(yl, yr) - 10
    if st == "inline":
        for segs in d["inline"]:
            s = "     ".join(f"{lab} {val(d, v)}".strip() for lab, v in segs)
            txt(c, 50, y, s, f, 9)
            y -= 14
        return y - 6
    return y


def draw_footer(c, d, W, page=None):
    f = d.get("font", "S")
    y = 42
    for s in d.get("footer", []):
        txt(c, W / 2, y, s, f, 7, "c", GREY)
        y -= 9
    if page:
        txt(c, W - 50, 58, page, f, 7.5, "r", GREY)


def render_classic(c, d):
    W, H = d.get("pagesize", A4)
    y = draw_header(c, d, W, H)
    y = draw_meta_block(c, d, y, W)
    for s in d.get("pre_table", []):
        y = wrap(c, 50, y, s, W - 100, d.get("font", "S"), 9) - 2
    y -= 4
    y = draw_table_header(c, d, y, W)
    rows = d["lines"]
    p1 = d.get("rows_p1")
    if p1:
        y = draw_rows(c, d, rows[:p1], y, W)
        txt(c, W - 50, y - 6, d["cont_text"], d.get("font", "S"), 8.5, "r")
        draw_footer(c, d, W, d["page_fmt"] % (1, 2))
        c.showPage()
        y = H - 52
        txt(c, 50, y, d["supplier"][0], d.get("font_b", "SB"), 11)
        txt(c, W - 50, y, d["p2_header"], d.get("font", "S"), 9, "r")
        y -= 30
        y = draw_table_header(c, d, y, W)
        y = draw_rows(c, d, rows[p1:], y, W)
        bottom = 95 + 16 * len(d["totals"]) + 24 * len(d.get("post", []))
        assert y - 30 > bottom, (d["file"], y, bottom)
        y = bottom + 12
    else:
        y = draw_rows(c, d, rows, y, W)
    y -= 12
    y = draw_totals(c, d, y, W)
    for s in d.get("post", []):
        y = wrap(c, 50, y, s, W - 100, d.get("font", "S"), 8.5) - 3
    draw_footer(c, d, W, d["page_fmt"] % (2, 2) if p1 else d.get("page"))


def render_receipt(c, d):
    W, H = d["_size"]
    y = H - 24
    for s in d["head"]:
        bold = s.startswith("*")
        s = s.lstrip("*")
        txt(c, W / 2, y, s, "MB" if bold else "M", 9 if bold else 7.5, "c")
        y -= 11 if bold else 9.5
    y -= 4
    for r in d["rows"]:
        if r == "-":
            txt(c, 10, y, "-" * 40, "M", 7.5)
        elif r == "":
            pass
        elif isinstance(r, str):
            txt(c, 10, y, r, "M", 7.5)
        else:
            bold = len(r) > 2 and r[2]
            fnt = "MB" if bold else "M"
            sz = 8.5 if bold else 7.5
            txt(c, 10, y, r[0], fnt, sz)
            txt(c, W - 10, y, r[1], fnt, sz, "r")
        y -= 10
    y -= 4
    for s in d["tail"]:
        txt(c, W / 2, y, s, "M", 7, "c")
        y -= 9


def receipt_size(d):
    n = len(d["head"]) + len(d["rows"]) + len(d["tail"])
    return (80 * mm, 48 + 10 * n)


def render_letter(c, d):
    W, H = d.get("pagesize", A4)
    f, fb = "Se", "SeB"
    y = H - 55
    txt(c, 60, y, d["letterhead"][0], fb, 16)
    y -= 14
    for s in d["letterhead"][1:]:
        txt(c, 60, y, s, f, 8, color=GREY)
        y -= 10
    c.line(60, y - 2, W - 60, y - 2)
    y = H - 170
    for s in d["to"]:
        txt(c, 340, y, s, f, 10)
        y -= 13
    y -= 18
    txt(c, W - 60, y, d["place_date"], f, 10, "r")
    y -= 30
    y = wrap(c, 60, y, d["subject"], W - 120, fb, 10.5) - 10
    txt(c, 60, y, d["salutation"], f, 10.5)
    y -= 22
    prev_tab = False
    for p in d["paras"]:
        if isinstance(p, tuple):  # tabular line inside the letter
            txt(c, 90, y, p[0], fb if len(p) > 2 else f, 10.5)
            txt(c, W - 110, y, p[1], fb if len(p) > 2 else f, 10.5, "r")
            y -= 15
            prev_tab = True
            continue
        if prev_tab:
            y -= 8
            prev_tab = False
        y = wrap(c, 60, y, p, W - 120, f, 10.5, 15) - 8
    y -= 10
    for s in d["closing"]:
        txt(c, 60, y, s, f, 10.5)
        y -= 15
    y = 70
    for s in d.get("footer", []):
        txt(c, W / 2, y, s, f, 7, "c", GREY)
        y -= 9


# ----------------------------------------------------------------- data


def check_arith(d, e):
    """Warn when the hand-written expected amounts disagree with line items."""
    msgs = []
    f = e["fields"]
    if d["layout"] == "classic" and f.get("net") is not None and d.get("lines_are_net", True):
        s = sum((line_amount(l) for l in d["lines"] if not isinstance(l, str)), D(0))
        if s != D(f["net"]):
            msgs.append(f"lines sum {s} != net {f['net']}")
    if f.get("net") is not None and f.get("tax") is not None and not e.get("_arith_skip"):
        if D(f["net"]) + D(f["tax"]) != D(f["total"]):
            msgs.append(f"net+tax {D(f['net']) + D(f['tax'])} != total {f['total']}")
    return msgs


def main():
    os.makedirs(OUT, exist_ok=True)
    names = [d["file"] for d in DOCS]
    assert len(names) == len(set(names)) and set(names) == set(EXPECTED), \
        set(names) ^ set(EXPECTED)
    for d in DOCS:
        path = os.path.join(OUT, d["file"])
        if d["layout"] == "receipt":
            d["_size"] = receipt_size(d)
            c = canvas.Canvas(path, pagesize=d["_size"])
        else:
            c = canvas.Canvas(path, pagesize=d.get("pagesize", A4))
        c.setTitle(d.get("doc_title", d["file"]))
        c.setAuthor(d.get("author", "blind test corpus"))
        {"classic": render_classic, "receipt": render_receipt,
         "letter": render_letter}[d["layout"]](c, d)
        c.showPage()
        c.save()
        for m in check_arith(d, EXPECTED[d["file"]]):
            print("ARITH", d["file"], m)
    clean = {k: {kk: vv for kk, vv in v.items() if not kk.startswith("_")}
             for k, v in sorted(EXPECTED.items())}
    with open(os.path.join(HERE, "expected.json"), "w", encoding="utf-8") as fh:
        json.dump(clean, fh, ensure_ascii=False, indent=2)
        fh.write("\n")
    print(f"wrote {len(DOCS)} PDFs to {OUT}")

# =================================================================== DATA
# EXPECTED: the answers, typed by hand from the documents' content.
# DOCS:     what is drawn.  Both are literal data; neither is derived from
#           the other.  "_arith_skip" marks documents whose total is not
#           net + tax (tourist tax, returnable deposit) -- stripped on output.

EXPECTED = {}
DOCS = []


def X(file, language, kind, invoice_number, issue_date, due_date, total, net, tax,
      currency, supplier, notes, **extra):
    EXPECTED[file] = dict(language=language, kind=kind, fields=dict(
        invoice_number=invoice_number, issue_date=issue_date, due_date=due_date,
        total=total, net=net, tax=tax, currency=currency, supplier=supplier),
        notes=notes, **extra)


# ------------------------------------------------------------------ ITALIAN
X("it01_ferramenta_bellini_fattura.pdf", "it", "invoice", "148/A", "2026-02-03", "2026-03-31",
  "591.70", "485.00", "106.70", "EUR", "Ferramenta Bellini S.r.l.",
  "Label left of value. Supplier P.IVA/C.F. and customer P.IVA near the number; customer code C-00412; "
  "DDT (delivery note) n. 57 del 30/01/2026 directly under the issue date; line amounts, Imponibile, IVA, Totale.")
DOCS.append(dict(
    file="it01_ferramenta_bellini_fattura.pdf", layout="classic", money=EUR_PRE, date="d/m/Y",
    title="FATTURA",
    supplier=["Ferramenta Bellini S.r.l.", "Via Giuseppe Mazzini 48 – 20123 Milano (MI)",
              "P.IVA 09876543210 – C.F. 09876543210", "REA MI-2034567 – Cap. soc. € 50.000,00 i.v.",
              "Tel. 02 8765 4321 – amministrazione@ferramentabellini.it"],
    meta=[("Fattura n.", "148/A"), ("Data emissione", dt("2026-02-03")), ("DDT n.", "57 del 30/01/2026"),
          ("Cod. cliente", "C-00412"), ("Scadenza", dt("2026-03-31")), ("Pagamento", "Bonifico 30 gg d.f.f.m.")],
    cust_label="Spett.le",
    customer=["Edilizia Fontana S.n.c. di Fontana Paolo & C.", "Via dei Mille 7", "24121 Bergamo (BG)",
              "P.IVA 02233445566", "Cod. destinatario SDI: M5UXCR1"],
    cols=("Descrizione", "Q.tà", "Prezzo unit.", "IVA", "Importo"),
    lines=[("Trapano avvitatore 18V Li-Ion", "2", "129.00", "22%"),
           ("Set punte HSS 19 pz", "5", "14.90", "22%"),
           ("Tasselli nylon 8 mm (conf. 100)", "10", "6.35", "22%"),
           ("Scala in alluminio 5 gradini", "1", "89.00", "22%")],
    totals=[("Imponibile", amt("485.00")), ("IVA 22%", amt("106.70")), ("Totale fattura", amt("591.70"), True)],
    post=["Pagamento: bonifico bancario 30 gg data fattura fine mese – IBAN IT60 X054 2811 1010 0000 0123 456",
          "Contributo CONAI assolto ove dovuto."],
    footer=["Ferramenta Bellini S.r.l. – Capitale sociale € 50.000,00 i.v. – Registro Imprese di Milano"],
))

X("it02_studio_galli_fattura.pdf", "it", "invoice", "2026/FE/0031", "2026-04-15", "2026-05-15",
  "2537.60", "2080.00", "457.60", "EUR", "Studio Associato Galli & Ferri",
  "Label above value (boxed header cells). Professional invoice with 4% Inarcassa contribution and 20% "
  "ritenuta d'acconto: 'Netto a pagare' € 2.137,60 is the amount payable after withholding, NOT the net; "
  "'Totale prestazioni' 2.000,00 differs from Imponibile 2.080,00. Customer C.F., customer P.IVA and job number in header cells.",
  _arith_skip=False)
DOCS.append(dict(
    file="it02_studio_galli_fattura.pdf", layout="classic", money=EUR_PRE, date="d/m/Y",
    title="FATTURA", subtitle="Copia di cortesia – l'originale è trasmesso tramite SdI",
    supplier=["Studio Associato Galli & Ferri", "Ingegneria civile e impiantistica",
              "Corso Vittorio Emanuele II 112 – 10121 Torino (TO)", "P.IVA 11223344556"],
    meta_style="above",
    meta_rows=[[("Numero fattura", "2026/FE/0031"), ("Data emissione", dt("2026-04-15")),
                ("Scadenza", dt("2026-05-15")), ("Cod. cliente", "0192")],
               [("Commessa", "TO-2025-77 Cond. Aurora"), ("Partita IVA cliente", "07766554433"),
                ("Modalità di pagamento", "Bonifico")]],
    cust_label="Committente",
    customer=["Condominio Aurora", "c/o Amministrazioni Rinaldi S.r.l.", "Via Nizza 230", "10126 Torino (TO)",
              "C.F. 97654321001"],
    cols=("Descrizione prestazione", "Q.tà", "Prezzo", "IVA", "Importo"),
    lines=[("Progettazione impianto elettrico condominiale", "1", "1500.00", "22%"),
           ("Direzione lavori – SAL n. 1", "1", "500.00", "22%")],
    lines_are_net=False,
    totals=[("Totale prestazioni", amt("2000.00")), ("Contributo Inarcassa 4%", amt("80.00")),
            ("Imponibile", amt("2080.00")), ("IVA 22%", amt("457.60")),
            ("Totale documento", amt("2537.60"), True),
            ("Ritenuta d'acconto 20% su € 2.000,00", amt("-400.00")),
            ("Netto a pagare", amt("2137.60"), True)],
    post=["Pagamento mediante bonifico su IBAN IT02 L123 4512 3451 2345 6789 012 entro la data di scadenza.",
          "Il committente, in qualità di sostituto d'imposta, è tenuto a versare la ritenuta d'acconto."],
))

X("it03_distribuzione_conti_fattura_2pag.pdf", "it", "invoice", "FD 2026/00872", "2026-05-29", "2026-06-30",
  "2958.08", "2652.50", "305.58", "EUR", "Distribuzione Alimentare Conti S.p.A.",
  "Two-page deferred invoice; totals only at the bottom of page 2. Three VAT rates (4/10/22%) with a "
  "per-rate Imponibile/IVA breakdown before 'Totale imponibile'/'Totale IVA'. DDT dates 12/05 and 22/05/2026 "
  "and order date 08/05/2026 near the header; share capital € 1.200.000,00 in the letterhead; due date "
  "only in the payment note on page 2; page 2 repeats the number and date.")
DOCS.append(dict(
    file="it03_distribuzione_conti_fattura_2pag.pdf", layout="classic", money=EUR_SUF, date="d/m/Y",
    title="FATTURA DIFFERITA",
    supplier=["Distribuzione Alimentare Conti S.p.A.", "Via dell'Industria 21/B – 40138 Bologna (BO)",
              "P.IVA e C.F. 03456789012 – Cap. soc. € 1.200.000,00 i.v.",
              "Registro Imprese di Bologna n. 03456789012"],
    meta=[("Fattura n.", "FD 2026/00872"), ("Data documento", dt("2026-05-29")),
          ("Cod. cliente", "CL 30418"), ("Agente", "07 – Marchetti")],
    cust_label="Destinatario",
    customer=["Ristorante Da Nello S.r.l.", "Piazza Maggiore 3", "40124 Bologna (BO)", "P.IVA 04561237890"],
    pre_table=["Rif. DDT n. 4410 del 12/05/2026 e DDT n. 4587 del 22/05/2026 – Vs. ordine n. 118 del 08/05/2026"],
    cols=("Descrizione", "Q.tà", "Prezzo", "IVA", "Importo"),
    lines=["DDT n. 4410 del 12/05/2026",
           ("Spaghetti di semola 5 kg", "12", "7.80", "4%"),
           ("Penne rigate 5 kg", "10", "7.80", "4%"),
           ("Farina tipo 00 25 kg", "4", "16.50", "4%"),
           ("Latte UHT intero 1 L (cf. 12)", "6", "11.40", "4%"),
           ("Olio extravergine d'oliva 5 L", "8", "42.00", "4%"),
           ("Prosciutto crudo di Parma (kg)", "8.2", "21.50", "10%"),
           ("Mortadella Bologna IGP (kg)", "6", "12.40", "10%"),
           ("Salame Felino (kg)", "3.5", "19.80", "10%"),
           ("Acqua minerale naturale 0,75 L (cf. 12)", "20", "6.90", "22%"),
           ("Vino rosso Sangiovese DOC 0,75 L", "36", "5.40", "22%"),
           ("Prosecco DOC 0,75 L", "24", "6.20", "22%"),
           ("Tovaglioli carta 40x40 (cf. 1000)", "3", "21.00", "22%"),
           ("Detergente stoviglie 5 L", "4", "9.75", "22%"),
           "DDT n. 4587 del 22/05/2026",
           ("Pomodori pelati 2,5 kg", "24", "3.15", "4%"),
           ("Mozzarella fior di latte (kg)", "15", "8.90", "4%"),
           ("Parmigiano Reggiano 24 mesi (kg)", "6.5", "18.60", "4%"),
           ("Burro 1 kg", "5", "9.80", "4%"),
           ("Tonno all'olio d'oliva 1,7 kg", "6", "14.25", "10%"),
           ("Caffè in grani 1 kg", "10", "17.90", "10%"),
           ("Zucchero semolato 10 kg", "3", "11.60", "10%"),
           ("Aceto balsamico di Modena IGP 1 L", "6", "6.75", "10%"),
           ("Gamberi surgelati 1 kg", "4", "15.90", "10%"),
           ("Biscotti frollini 3 kg", "5", "12.30", "10%"),
           ("Birra artigianale 0,33 L (cf. 24)", "4", "38.40", "22%"),
           ("Pellicola alimentare 300 m", "2", "14.50", "22%"),
           ("Guanti nitrile (cf. 100)", "5", "6.80", "22%"),
           ("Sacchi immondizia 70x110 (cf. 50)", "6", "4.15", "22%"),
           ("Carta forno 50 m", "3", "7.30", "22%")],
    rows_p1=21, cont_text="segue a pagina 2 ►", page_fmt="Pagina %d di %d",
    p2_header="Fattura n. FD 2026/00872 del 29/05/2026 – segue",
    totals=[("Imponibile 4%", amt("1021.00")), ("IVA 4%", amt("40.84")),
            ("Imponibile 10%", amt("784.90")), ("IVA 10%", amt("78.49")),
            ("Imponibile 22%", amt("846.60")), ("IVA 22%", amt("186.25")),
            ("Totale imponibile", amt("2652.50")), ("Totale IVA", amt("305.58")),
            ("Totale fattura", amt("2958.08"), True)],
    post=["Scadenza: 30/06/2026 – Ri.Ba. presso UniCredit, ag. Bologna Fiera.",
          "Contributo CONAI assolto ove dovuto. Merce resa franco destino."],
    footer=["Distribuzione Alimentare Conti S.p.A. – Società soggetta a direzione e coordinamento di Conti Holding S.r.l."],
))

X("it04_bar_dolce_vita_scontrino.pdf", "it", "receipt", "0042-0187", "2026-03-14", None,
  "9.10", None, "0.83", "EUR", "Dolce Vita S.a.s. di Esposito Anna & C.",
  "Narrow till receipt (documento commerciale). Trading name BAR PASTICCERIA DOLCE VITA printed above the "
  "legal name. Cash paid 10,00 and change 0,90 beside the total; VAT only as 'di cui IVA'; no net stated; "
  "date in dd-mm-yyyy; RT serial number and cash-desk number near the document number.")
DOCS.append(dict(
    file="it04_bar_dolce_vita_scontrino.pdf", layout="receipt",
    head=["*BAR PASTICCERIA DOLCE VITA", "Dolce Vita S.a.s. di Esposito Anna & C.", "Via Toledo 256 - 80134 Napoli",
          "P.IVA 07412589630", "", "*DOCUMENTO COMMERCIALE", "di vendita o prestazione"],
    rows=[("DESCRIZIONE                IVA", "Prezzo(€)"),
          ("CAPPUCCINO  2 x 1,50       10%", "3,00"),
          ("CORNETTO CREMA  2 x 1,30   10%", "2,60"),
          ("SPREMUTA ARANCIA           10%", "3,50"),
          "-",
          ("TOTALE COMPLESSIVO", "9,10", True),
          ("DI CUI IVA", "0,83"),
          "",
          ("PAGAMENTO CONTANTE", "10,00"),
          ("RESTO", "0,90"),
          ("IMPORTO PAGATO", "9,10"),
          "-",
          "14-03-2026 08:41",
          "DOCUMENTO N. 0042-0187",
          "RT 99MEY012345      CASSA 01"],
    tail=["Grazie e arrivederci!"],
))

X("it05_elettroforniture_nota_credito.pdf", "it", "credit_note", "NC 12/2026", "2026-03-20", None,
  "183.00", "150.00", "33.00", "EUR", "Elettroforniture Adriatica S.r.l.",
  "Nota di credito with POSITIVE amounts (Italian practice). References the original invoice n. 398/2026 "
  "del 12/03/2026 (a second number and date near the header) and an RMA number; no due date ('nessun pagamento dovuto').")
DOCS.append(dict(
    file="it05_elettroforniture_nota_credito.pdf", layout="classic", money=EUR_PRE, date="d/m/Y",
    title="NOTA DI CREDITO",
    supplier=["Elettroforniture Adriatica S.r.l.", "Zona Industriale Campolungo, Via Piemonte 14",
              "63100 Ascoli Piceno (AP)", "P.IVA 01987654320"],
    meta=[("Nota di credito n.", "NC 12/2026"), ("Data", dt("2026-03-20")), ("Cod. cliente", "000781"),
          ("Rif. fattura", "n. 398/2026 del 12/03/2026")],
    cust_label="Spett.le",
    customer=["Impianti Marconi S.r.l.", "Via dell'Elettricità 9", "64100 Teramo (TE)", "P.IVA 00876543219"],
    pre_table=["Storno parziale della fattura n. 398/2026 del 12/03/2026 per reso merce difettosa (RMA 2026-033)."],
    cols=("Descrizione", "Q.tà", "Prezzo", "IVA", "Importo"),
    lines=[("Interruttore magnetotermico 2P 16A", "10", "9.50", "22%"),
           ("Cavo FG16OR16 3G2,5 (m)", "50", "1.10", "22%")],
    totals=[("Imponibile", amt("150.00")), ("IVA 22%", amt("33.00")), ("Totale nota di credito", amt("183.00"), True)],
    post=["L'importo di € 183,00 sarà compensato con la prossima fattura. Nessun pagamento dovuto."],
))

X("it06_agenzia_lario_lettera.pdf", "it", "invoice", "57/2026", "2026-04-02", "2026-04-30",
  "3660.00", "3000.00", "660.00", "EUR", "Agenzia Immobiliare Lario S.r.l.",
  "Letter-style invoice; number and date only in the subject line ('Fattura n. 57/2026 del 2 aprile 2026'). "
  "Prose mentions the property price € 300.000,00, preliminary contract date 18 marzo 2026 and mandate date "
  "10 febbraio 2026; due date in prose ('entro il 30 aprile 2026').")
DOCS.append(dict(
    file="it06_agenzia_lario_lettera.pdf", layout="letter",
    letterhead=["Agenzia Immobiliare Lario S.r.l.", "Lungo Lario Trento 15 – 22100 Como – Tel. 031 245 678",
                "P.IVA 03219876540 – REA CO-298765 – www.immobiliarelario.it"],
    to=["Gent.mo Sig.", "Dott. Alberto Cattaneo", "Via Alessandro Volta 33", "22100 Como"],
    place_date="Como, 2 aprile 2026",
    subject="Oggetto: Fattura n. 57/2026 del 2 aprile 2026 – provvigione per intermediazione immobiliare",
    salutation="Egregio Dottore,",
    paras=["con riferimento al contratto preliminare di compravendita sottoscritto il 18 marzo 2026 per "
           "l'immobile sito in Como, Via Borgovico 41, al prezzo di € 300.000,00, Le trasmettiamo la fattura "
           "relativa alla nostra provvigione, pari all'1% del prezzo pattuito, come da incarico del 10 febbraio 2026.",
           ("Provvigione 1% (imponibile)", "€ 3.000,00"), ("IVA 22%", "€ 660,00"),
           ("Totale fattura", "€ 3.660,00", True),
           "La preghiamo di voler effettuare il pagamento entro il 30 aprile 2026 mediante bonifico sul conto "
           "IBAN IT40 S030 6910 9000 0001 2345 678, indicando nella causale il numero della fattura.",
           "La fattura elettronica è stata trasmessa tramite il Sistema di Interscambio; la presente "
           "costituisce copia di cortesia."],
    closing=["Distinti saluti.", "", "Agenzia Immobiliare Lario S.r.l.", "Laura Bernasconi – Amministrazione"],
))

X("it07_tipografia_moderna_fattura.pdf", "it", "invoice", "2026/219", "2026-05-28", "2026-06-27",
  "524.60", "430.00", "94.60", "EUR", "Tipografia Moderna di Sala Luca & C. S.n.c.",
  "Values on the same line as unrelated text: number shares a line with page number, customer code and "
  "customer P.IVA; order date 20.05 and delivery date 27.05 on the same line as the issue date 28.05.2026; "
  "deposit (Acconto) -200,00 and 'Saldo da pagare' 324,60 after the total.")
DOCS.append(dict(
    file="it07_tipografia_moderna_fattura.pdf", layout="classic", money=EUR_SUF, date="d.m.Y",
    title="Fattura",
    supplier=["Tipografia Moderna di Sala Luca & C. S.n.c.", "Via Emilia Est 1020 – 41122 Modena (MO)",
              "P.IVA 02468013579 – info@tipografiamoderna.it"],
    meta_style="inline",
    inline=[[("Fattura n.", "2026/219"), ("Pag.", "1/1"), ("Cod. cliente", "00871"), ("P.IVA cliente", "01357924680")],
            [("Data ordine", dt("2026-05-20")), ("Data consegna", dt("2026-05-27")), ("Data emissione", dt("2026-05-28"))],
            [("Pagamento", "RiBa 30 gg d.f."), ("Scadenza", dt("2026-06-27")), ("Banca", "BPER Banca ABI 05387 CAB 12900")]],
    cust_label="Spett.le",
    customer=["Caseificio Val Panaro Soc. Coop. Agricola", "Via Vignolese 880", "41126 Modena (MO)"],
    cols=("Descrizione", "Q.tà", "Prezzo", "IVA", "Importo"),
    lines=[("Volantini A5 4+4 col. patinata 130 g (migliaia)", "5", "45.00", "22%"),
           ("Biglietti da visita 85x55, 350 g", "500", "0.09", "22%"),
           ("Manifesti 70x100 cm", "50", "3.20", "22%")],
    totals=[("Imponibile", amt("430.00")), ("IVA 22%", amt("94.60")), ("Totale documento", amt("524.60"), True),
            ("Acconto versato il 20.05.2026", amt("-200.00")), ("Saldo da pagare", amt("324.60"), True)],
))

# ------------------------------------------------------------------ ENGLISH
X("en_uk01_harrow_finch_invoice.pdf", "en", "invoice", "HF-10482", "2026-02-03", "2026-03-05",
  "2041.20", "1701.00", "340.20", "GBP", "Harrow & Finch Ltd",
  "UK. Header block in two columns. Company registration no. and VAT Reg. No. in the letterhead; "
  "customer ref. and purchase order in the right column; delivery date 29th January 2026 beside the issue "
  "date 3rd February 2026 (ordinal dates). Total and Amount due are the same.")
DOCS.append(dict(
    file="en_uk01_harrow_finch_invoice.pdf", layout="classic", money=GBP, date="en_ord",
    title="INVOICE",
    supplier=["Harrow & Finch Ltd", "Unit 4, Riverside Works, 12 Wharf Road, London N1 7RA",
              "Registered in England & Wales No. 08123456", "VAT Reg. No. GB 284 5617 93"],
    meta_style="twocol", twocol_w=100,
    meta_l=[("Invoice No.", "HF-10482"), ("Date of issue", dt("2026-02-03")), ("Due date", dt("2026-03-05"))],
    meta_r=[("Customer ref.", "CUST-2291"), ("Purchase order", "PO-7731"), ("Delivery date", dt("2026-01-29"))],
    cust_label="BILL TO",
    customer=["Northgate Dental Practice LLP", "88 Station Parade", "Harrogate HG1 1TT"],
    cols=("Description", "Qty", "Unit price", "VAT", "Amount"),
    lines=[("Ergonomic task chair, mesh back", "4", "189.00", "20%"),
           ("Electric standing desk 1600 x 800", "2", "425.00", "20%"),
           ("Delivery & installation", "1", "95.00", "20%")],
    totals=[("Subtotal", amt("1701.00")), ("VAT @ 20%", amt("340.20")), ("Total", amt("2041.20"), True),
            ("Amount due", amt("2041.20"), True)],
    post=["Payment terms: 30 days. Please pay by BACS to Harrow & Finch Ltd, sort code 20-45-77, "
          "account 43917265, quoting HF-10482.", "Thank you for your business."],
))

X("en_uk02_greenleaf_till_receipt.pdf", "en", "receipt", "0031-2-004821", "2026-02-14", None,
  "23.47", None, "1.25", "GBP", "Greenleaf Grocers Ltd",
  "UK till receipt. Mostly zero-rated food: the VAT summary shows net only per rate (6.25 for A, 15.97 for Z) "
  "so no overall net is stated; 'You saved £0.85' and loyalty points are not totals; store/till numbers near "
  "the receipt number; date dd/mm/yyyy.")
DOCS.append(dict(
    file="en_uk02_greenleaf_till_receipt.pdf", layout="receipt",
    head=["*GREENLEAF GROCERS", "Greenleaf Grocers Ltd", "14 Market Street, Bath BA1 1LZ",
          "VAT No. GB 731 4402 18", "Tel 01225 448 210"],
    rows=[("BANANAS 0.885kg @ £1.30/kg  Z", "£1.15"),
          ("SOURDOUGH LOAF              Z", "£3.20"),
          ("SEMI SKIMMED MILK 4PT       Z", "£1.65"),
          ("MATURE CHEDDAR 400G         Z", "£4.25"),
          ("COFFEE BEANS 454G           Z", "£5.72"),
          ("WASHING UP LIQUID           A", "£2.50"),
          ("KITCHEN ROLL 3PK            A", "£5.00"),
          "-",
          ("7 ITEMS   TOTAL", "£23.47", True),
          ("CONTACTLESS VISA ****6617", "£23.47"),
          ("CHANGE DUE", "£0.00"),
          "-",
          "VAT   RATE      NET     VAT   GROSS",
          "A    20.00%    6.25    1.25    7.50",
          "Z     0.00%   15.97    0.00   15.97",
          "-",
          "14/02/2026  17:26   ST 0031  TILL 2",
          "Receipt No. 0031-2-004821   Op: Sam",
          "You saved £0.85 with Greenleaf Rewards",
          "Points this visit: 23   Balance: 1,204"],
    tail=["Thank you for shopping with us", "Please keep this receipt for returns"],
))

X("en_uk03_brightwire_credit_note.pdf", "en", "credit_note", "CN-2026-0093", "2026-06-02", None,
  "-54.00", "-45.00", "-9.00", "GBP", "Brightwire Telecom plc",
  "Credit note with NEGATIVE amounts; the prose repeats £54.00 without a sign. Original invoice number "
  "INV-2026-11872 and its date 1 May 2026 under the credit note number; account number; outage period "
  "dates in a line description.")
DOCS.append(dict(
    file="en_uk03_brightwire_credit_note.pdf", layout="classic", money=GBP, date="en_long",
    title="CREDIT NOTE",
    supplier=["Brightwire Telecom plc", "Brightwire House, 1 Canal Street, Manchester M1 3HE",
              "VAT registration number: GB 915 2274 06", "Registered in England No. 04455667"],
    meta=[("Credit note No.", "CN-2026-0093"), ("Date of issue", dt("2026-06-02")), ("Account number", "BT-7741-0932"),
          ("Original invoice", "INV-2026-11872"), ("Invoice date", dt("2026-05-01"))],
    cust_label="ACCOUNT HOLDER",
    customer=["Ms Priya Shah", "Shah Accountancy Services", "21 Deansgate", "Manchester M3 2BW"],
    cols=("Description", "Qty", "Unit price", "VAT", "Amount"),
    lines=[("Credit: broadband outage 9–23 May 2026", "1", "-30.00", "20%"),
           ("Credit: line rental overcharge", "1", "-15.00", "20%")],
    totals=[("Subtotal", amt("-45.00")), ("VAT 20%", amt("-9.00")), ("Total credit", amt("-54.00"), True)],
    post=["This credit of £54.00 will be applied to your next bill. No payment is required."],
))

X("en_us01_bluebonnet_invoice.pdf", "en", "invoice", "1029", "2026-02-03", "2026-03-05",
  "5196.00", "4800.00", "396.00", "USD", "Bluebonnet Web Studio LLC",
  "US (Austin, TX; $; US Letter): dates are MM/DD/YYYY, 02/03/2026 = 3 February 2026, due 03/05/2026 = "
  "5 March. Label above value. 'Balance Due' $3,696.00 appears in the header cells and after "
  "Payments/Credits -$1,500.00; the invoice total is $5,196.00. Deposit date 01/12/2026 in the notes; 'Net 30' terms.")
DOCS.append(dict(
    file="en_us01_bluebonnet_invoice.pdf", layout="classic", money=USD, date="m/d/Y", pagesize=letter,
    title="INVOICE",
    supplier=["Bluebonnet Web Studio LLC", "1100 Congress Ave, Suite 410", "Austin, TX 78701",
              "hello@bluebonnetweb.example  ·  (512) 555-0147"],
    meta_style="above",
    meta_rows=[[("Invoice #", "1029"), ("Invoice Date", dt("2026-02-03")), ("Due Date", dt("2026-03-05")),
                ("Terms", "Net 30")],
               [("Customer ID", "C-0415"), ("Project", "PRJ-2026-007"), ("Balance Due", amt("3696.00"))]],
    cust_label="BILL TO",
    customer=["Lone Star Family Dental, PLLC", "Attn: Maria Gonzales", "2400 S Lamar Blvd", "Austin, TX 78704"],
    cols=("Description", "Qty", "Rate", "Amount"),
    lines=[("Website redesign – fixed fee", "1", "3600.00"),
           ("Managed hosting (monthly)", "12", "50.00"),
           ("SEO audit & report", "1", "600.00")],
    totals=[("Subtotal", amt("4800.00")), ("Sales Tax (8.25%)", amt("396.00")), ("Total", amt("5196.00"), True),
            ("Payments/Credits", amt("-1500.00")), ("Balance Due", amt("3696.00"), True)],
    post=["Deposit of $1,500.00 received on 01/12/2026 – thank you.",
          "Make checks payable to Bluebonnet Web Studio LLC. ACH: routing 111000025, account 4820019937."],
))

X("en_us02_hilltop_hardware_receipt.pdf", "en", "receipt", "20261107-02-0158", "2026-11-07", None,
  "33.76", "31.55", "2.21", "USD", "Hilltop Hardware & Supply Co.",
  "US till receipt (Denver, CO): 11/07/2026 is November 7 (not 11 July). Cash tendered $40.00 and change "
  "$6.24 next to the total; register and transaction numbers near the receipt number.")
DOCS.append(dict(
    file="en_us02_hilltop_hardware_receipt.pdf", layout="receipt",
    head=["*HILLTOP HARDWARE & SUPPLY", "Hilltop Hardware & Supply Co.", "5820 N Broadway", "Denver, CO 80216",
          "(303) 555-0192"],
    rows=[("2 @ 6.49  WOOD SCREW #8x1-1/4", "12.98"),
          ("PAINT ROLLER KIT 9IN", "9.99"),
          ("2 @ 4.29  PAINTERS TAPE 1.88IN", "8.58"),
          "-",
          ("SUBTOTAL", "31.55"),
          ("SALES TAX 7.000%", "2.21"),
          ("TOTAL", "$33.76", True),
          ("CASH TENDERED", "$40.00"),
          ("CHANGE", "$6.24"),
          "-",
          "11/07/2026  3:42 PM   REG 02",
          "RECEIPT # 20261107-02-0158",
          "CASHIER: DEREK     TRANS 0158",
          "RETURNS ACCEPTED WITHIN 30 DAYS"],
    tail=["THANK YOU FOR SHOPPING LOCAL!"],
))

X("en_us03_cascade_industrial_invoice_2p.pdf", "en", "invoice", "INV-558214", "2026-03-17", "2026-04-16",
  "6354.91", "6354.91", "0.00", "USD", "Cascade Industrial Supply, Inc.",
  "US (Portland, OR), two pages, totals at the bottom of page 2. Number on one line with Customer No., "
  "P.O. Number and 'Page 1 of 2'; Order Date 03/09 and Ship Date 03/13 on the same line as Invoice Date "
  "03/17/2026 (MM/DD). Sales tax is stated as $0.00 (Oregon); 'Net 30' is a term, not a net amount; "
  "freight is a line item. Fed. Tax ID in letterhead.")
DOCS.append(dict(
    file="en_us03_cascade_industrial_invoice_2p.pdf", layout="classic", money=USD, date="m/d/Y", pagesize=letter,
    title="INVOICE",
    supplier=["Cascade Industrial Supply, Inc.", "4410 NW Yeon Ave, Portland, OR 97210",
              "Phone (503) 555-0177  ·  Fed. Tax ID 93-1234567"],
    meta_style="inline",
    inline=[[("Invoice No.", "INV-558214"), ("Customer No.", "104732"), ("P.O. Number", "4500123987"), ("Page", "1 of 2")],
            [("Order Date", dt("2026-03-09")), ("Ship Date", dt("2026-03-13")), ("Invoice Date", dt("2026-03-17"))],
            [("Terms", "Net 30"), ("Due Date", dt("2026-04-16")), ("Ship Via", "UPS Freight LTL")]],
    cust_label="SOLD TO",
    customer=["Willamette Valley Cabinets LLC", "2215 Industrial Way", "Albany, OR 97322"],
    cols=("Item / Description", "Qty", "Unit Price", "Extended"),
    lines=[("HX-4410 Hex bolt 3/8-16 x 2\" Gr5 (box 50)", "12", "18.75"),
           ("NW-0381 Flat washer 3/8\" zinc (box 100)", "10", "6.40"),
           ("NT-3816 Nylon lock nut 3/8-16 (box 100)", "8", "11.90"),
           ("WS-1254 Wood screw #10 x 2-1/2\" (box 500)", "6", "42.50"),
           ("DB-1020 Drill bit set HSS 29 pc", "3", "64.99"),
           ("AB-0220 Abrasive disc 4-1/2\" 60 grit (10 pk)", "15", "12.35"),
           ("SG-0150 Safety glasses clear, ANSI Z87.1", "24", "4.85"),
           ("GL-5510 Nitrile gloves L (box 100)", "20", "13.20"),
           ("EP-0033 Foam ear plugs (200 pr)", "4", "28.60"),
           ("TB-7700 Wood glue III, 1 gal", "6", "38.95"),
           ("CL-2412 Bar clamp 24\" quick-release", "10", "21.40"),
           ("SP-1180 Sandpaper roll 180 grit 50 yd", "5", "46.75"),
           ("MT-0025 Tape measure 25 ft", "12", "14.99"),
           ("UK-9000 Utility knife + 10 blades", "12", "9.85"),
           ("HG-1500 Hinge, concealed 35 mm soft-close", "200", "2.18"),
           ("DS-2200 Drawer slide 22\" full extension (pr)", "120", "11.60"),
           ("PL-0096 Pull handle 96 mm brushed nickel", "300", "1.95"),
           ("ED-0716 Edge banding maple 7/8\" x 250 ft", "8", "27.40"),
           ("FN-0125 Brad nails 18 ga 1-1/4\" (5000)", "10", "16.30"),
           ("ST-0038 Crown staples 1/4\" x 3/8\" (5000)", "6", "12.75"),
           ("CM-1101 Compressor oil 1 qt", "4", "8.99"),
           ("AH-0350 Air hose 3/8\" x 50 ft", "2", "39.50"),
           ("FT-1414 Furnace filter 14x14x1 MERV 8 (12 pk)", "2", "54.00"),
           ("LB-0410 Shop towels, blue (roll)", "24", "3.25"),
           ("MS-0016 Mineral spirits 1 gal", "6", "15.45"),
           ("PA-0202 Paint brush set 2\" (6 pk)", "4", "22.80"),
           ("DC-0780 Dust collection bag 30 micron", "3", "47.20"),
           ("RB-0061 Router bit set 1/4\" shank 15 pc", "2", "89.00"),
           ("FR-0001 Freight – LTL, 2 pallets", "1", "185.00")],
    rows_p1=22, cont_text="Continued on page 2", page_fmt="Page %d of %d",
    p2_header="Invoice No. INV-558214 (continued)",
    totals=[("Subtotal", amt("6354.91")), ("Sales Tax (OR 0%)", amt("0.00")), ("Total", amt("6354.91"), True),
            ("Amount Paid", amt("0.00")), ("Amount Due", amt("6354.91"), True)],
    post=["Remit to: Cascade Industrial Supply, Inc., PO Box 4410, Portland, OR 97208. "
          "Past-due balances are subject to a 1.5% monthly service charge."],
))

X("en_in01_shreeji_tax_invoice.pdf", "en", "invoice", "SE/26-27/0412", "2026-04-15", None,
  "147500.00", "125000.00", "22500.00", "INR", "Shreeji Electronics Pvt. Ltd.",
  "Indian GST tax invoice: amounts in lakh grouping (₹ 1,47,500.00); CGST 9% + SGST 9% split with a "
  "'Total Tax' line; GSTIN/PAN/CIN in the letterhead; buyer's order no. and order date 08-Apr-2026 and "
  "e-way bill number in the right header column; amount in words; no due date.")
DOCS.append(dict(
    file="en_in01_shreeji_tax_invoice.pdf", layout="classic", money=INR, date="in",
    title="TAX INVOICE", subtitle="Original for Recipient",
    supplier=["Shreeji Electronics Pvt. Ltd.", "Unit 7, Lotus Industrial Estate, Andheri (East), Mumbai – 400093",
              "GSTIN: 27AABCS1234F1Z5  ·  PAN: AABCS1234F", "CIN: U31900MH2011PTC215432  ·  State: Maharashtra (27)"],
    meta_style="twocol", twocol_w=105,
    meta_l=[("Invoice No.", "SE/26-27/0412"), ("Invoice Date", dt("2026-04-15")), ("Place of Supply", "27 – Maharashtra")],
    meta_r=[("Buyer's Order No.", "PO/2026/1187"), ("Order Date", dt("2026-04-08")), ("E-Way Bill No.", "3210 5678 9012")],
    cust_label="BILL TO / SHIP TO",
    customer=["Vasant Retail LLP", "Shop 12, Phoenix Marketcity, LBS Marg", "Kurla (West), Mumbai – 400070",
              "GSTIN: 27AAKFV5678M1Z2"],
    cols=("Description of Goods (HSN)", "Qty", "Rate", "GST", "Taxable Value"),
    lines=[("24\" LED Monitor (HSN 8528)", "10", "9500.00", "18%"),
           ("Wireless Keyboard & Mouse Set (HSN 8471)", "20", "1500.00", "18%")],
    totals=[("Taxable Value", amt("125000.00")), ("CGST @ 9%", amt("11250.00")), ("SGST @ 9%", amt("11250.00")),
            ("Total Tax", amt("22500.00")), ("Grand Total", amt("147500.00"), True)],
    post=["Amount Chargeable (in words): Indian Rupees One Lakh Forty Seven Thousand Five Hundred Only",
          "Tax Amount (in words): Indian Rupees Twenty Two Thousand Five Hundred Only",
          "Bank: HDFC Bank, A/c No. 50200012345678, IFSC HDFC0000543",
          "Declaration: We declare that this invoice shows the actual price of the goods described and that all "
          "particulars are true and correct. Subject to Mumbai jurisdiction."],
))

X("en_in02_kaveri_cloud_tax_invoice.pdf", "en", "invoice", "KCS/INV/2026/0218", "2026-02-03", "2026-02-18",
  "14750.00", "12500.00", "2250.00", "INR", "Kaveri Cloud Solutions Pvt. Ltd.",
  "Indian inter-state service invoice (IGST 18%). Dates dd/mm/yyyy (03/02/2026 = 3 February); billing "
  "period 01/01/2026 – 31/01/2026 in the header cells; customer ID and place of supply code; SAC codes in descriptions.")
DOCS.append(dict(
    file="en_in02_kaveri_cloud_tax_invoice.pdf", layout="classic", money=INR, date="d/m/Y",
    title="Tax Invoice",
    supplier=["Kaveri Cloud Solutions Pvt. Ltd.", "3rd Floor, Prestige Tech Park, Outer Ring Road",
              "Bengaluru 560103, Karnataka", "GSTIN 29AAFCK4321R1ZQ  ·  PAN AAFCK4321R"],
    meta_style="above",
    meta_rows=[[("Invoice #", "KCS/INV/2026/0218"), ("Invoice Date", dt("2026-02-03")), ("Due Date", dt("2026-02-18"))],
               [("Customer ID", "KCS-C-00982"), ("Place of Supply", "07 – Delhi"),
                ("Billing Period", "01/01/2026 – 31/01/2026")]],
    cust_label="BILLED TO",
    customer=["Arora Logistics Pvt. Ltd.", "B-44, Okhla Industrial Area Phase II", "New Delhi 110020",
              "GSTIN 07AAHCA7788L1Z9"],
    cols=("Description (SAC)", "Qty", "Rate", "IGST", "Amount"),
    lines=[("Fleet tracking SaaS – Standard plan (SAC 998315)", "25", "400.00", "18%"),
           ("Premium support add-on (SAC 998316)", "1", "2500.00", "18%")],
    totals=[("Subtotal", amt("12500.00")), ("IGST @ 18%", amt("2250.00")), ("Total", amt("14750.00"), True),
            ("Amount due", amt("14750.00"), True)],
    post=["Amount in words: Rupees Fourteen Thousand Seven Hundred Fifty Only",
          "If TDS under section 194J is deducted, please share Form 16A.",
          "Pay via NEFT/RTGS to ICICI Bank, A/c 002105012345, IFSC ICIC0000021."],
))

X("en_in03_tandoor_junction_bill.pdf", "en", "receipt", "TJ/2611/0784", "2026-11-07", None,
  "1302.00", "1240.00", "62.00", "INR", "Sethi Hospitality Pvt. Ltd.",
  "Indian restaurant bill (narrow). Trading name TANDOOR JUNCTION; legal entity 'A unit of Sethi "
  "Hospitality Pvt. Ltd.'. CGST 2.5% + SGST 2.5% with Total GST; table, covers and FSSAI licence numbers; "
  "date 07-Nov-2026.")
DOCS.append(dict(
    file="en_in03_tandoor_junction_bill.pdf", layout="receipt",
    head=["*TANDOOR JUNCTION", "A unit of Sethi Hospitality Pvt. Ltd.", "N-12, Connaught Place, New Delhi 110001",
          "GSTIN: 07AAECS9876K1Z3", "FSSAI Lic. No. 13319001000123"],
    rows=["Bill No: TJ/2611/0784      Table: 14",
          "Date: 07-Nov-2026     Time: 20:14",
          "Steward: Ramesh       Covers: 4",
          "-",
          ("Paneer Tikka      1 x 340", "340.00"),
          ("Dal Makhani       1 x 320", "320.00"),
          ("Butter Naan       4 x 70", "280.00"),
          ("Jeera Rice        1 x 220", "220.00"),
          ("Masala Chaas      2 x 40", "80.00"),
          "-",
          ("Sub Total", "1,240.00"),
          ("CGST @ 2.5%", "31.00"),
          ("SGST @ 2.5%", "31.00"),
          ("Total GST", "62.00"),
          ("Round Off", "0.00"),
          ("Grand Total", "₹ 1,302.00", True),
          ("Paid by UPI", "₹ 1,302.00"),
          "-"],
    tail=["Service charge not included.", "Thank you! Visit again."],
))

X("en_ie01_emerald_roasters_letter.pdf", "en", "invoice", "ERC-2026-0311", "2026-03-03", "2026-04-02",
  "883.32", "864.00", "19.32", "EUR", "Emerald Isle Coffee Roasters Ltd",
  "Irish letter-style invoice, amounts '€1,234.56' style. Two VAT rates (0% on coffee, 23% on jugs: the "
  "base €84.00 appears in the VAT label). Delivery dates 10th and 24th February and standing order SO-118 "
  "in prose; a €250.00 account credit is mentioned but not deducted; due date in prose.")
DOCS.append(dict(
    file="en_ie01_emerald_roasters_letter.pdf", layout="letter",
    letterhead=["Emerald Isle Coffee Roasters Ltd",
                "Unit 3, Greenhills Business Park, Tallaght, Dublin 24, D24 X8K2, Ireland",
                "VAT No. IE 3312456KH  ·  CRO No. 612345  ·  accounts@emeraldroasters.ie"],
    to=["The Manager", "Harbour Lights Café", "12 Quay Street", "Galway H91 T2P3"],
    place_date="Dublin, 3rd March 2026",
    subject="Invoice No. ERC-2026-0311 – wholesale coffee supply, February 2026",
    salutation="Dear Ms Byrne,",
    paras=["Please find below our invoice for the coffee and supplies delivered to you on 10th and 24th "
           "February 2026 under your standing order SO-118.",
           ("40 kg Harbour Blend espresso beans @ €19.50", "€780.00"),
           ("6 x barista milk jugs @ €14.00", "€84.00"),
           ("Net amount", "€864.00"),
           ("VAT @ 0% on coffee", "€0.00"),
           ("VAT @ 23% on €84.00", "€19.32"),
           ("Total due", "€883.32", True),
           "Payment is due within 30 days, i.e. by 2nd April 2026. Bank: AIB, IBAN IE29 AIBK 9311 5212 3456 78, "
           "BIC AIBKIE2D. Please quote the invoice number as your reference.",
           "A credit of €250.00 from January remains on your account; let us know if you would like it "
           "applied against a future invoice."],
    closing=["Kind regards,", "", "Niamh O'Sullivan", "Accounts, Emerald Isle Coffee Roasters Ltd"],
))

# ------------------------------------------------------------------ FRENCH
X("fr01_maison_delorme_facture.pdf", "fr", "invoice", "F2026-0318", "2026-03-03", "2026-04-02",
  "2295.60", "1913.00", "382.60", "EUR", "Maison Delorme SARL",
  "Long French dates ('3 mars 2026'); amounts with narrow no-break spaces as thousands separator "
  "('2 295,60 €'). SIRET/RCS/APE and intra-EU VAT number in the letterhead; customer number and order "
  "'BC-2231 du 24 février 2026' next to the dates; 'Net à payer' equals Total TTC (not the net); "
  "late-payment 40 € indemnity in the notes.")
DOCS.append(dict(
    file="fr01_maison_delorme_facture.pdf", layout="classic", money=EUR_FR_NB, date="fr_long",
    title="FACTURE",
    supplier=["Maison Delorme SARL", "14 rue de la République – 69002 Lyon",
              "SIRET 812 345 678 00021 – RCS Lyon B 812 345 678 – APE 4759A",
              "N° TVA intracommunautaire : FR 27 812345678"],
    meta=[("Facture n°", "F2026-0318"), ("Date de facture", dt("2026-03-03")), ("Échéance", dt("2026-04-02")),
          ("N° client", "CL-00588"), ("Commande n°", "BC-2231 du 24 février 2026")],
    cust_label="ADRESSÉ À",
    customer=["SCI Les Terrasses du Parc", "M. Julien Perrin", "8 avenue Foch", "69006 Lyon"],
    cols=("Désignation", "Qté", "P.U. HT", "TVA", "Montant HT"),
    lines=[("Canapé 3 places velours, coloris sauge", "1", "1290.00", "20 %"),
           ("Table basse chêne massif", "1", "420.00", "20 %"),
           ("Coussins déco 45x45", "4", "29.50", "20 %"),
           ("Livraison et montage", "1", "85.00", "20 %")],
    totals=[("Total HT", amt("1913.00")), ("TVA 20 %", amt("382.60")), ("Total TTC", amt("2295.60"), True),
            ("Net à payer", amt("2295.60"), True)],
    post=["Conditions de paiement : 30 jours date de facture. Pas d'escompte pour paiement anticipé.",
          "En cas de retard de paiement : pénalités au taux de 3 fois le taux d'intérêt légal et indemnité "
          "forfaitaire de 40 € pour frais de recouvrement.",
          "IBAN FR76 3000 4008 2800 0123 4567 890 – BIC BNPAFRPPXXX"],
))

X("fr02_boulangerie_lemaire_ticket.pdf", "fr", "receipt", "000482", "2026-03-01", None,
  "12.40", "11.75", "0.65", "EUR", "Boulangerie Pâtisserie Lemaire SARL",
  "Narrow ticket de caisse; VAT 5,5 % table gives HT 11,75 / TVA 0,65 / TTC 12,40; card payment line "
  "repeats the total; cash-register number next to the ticket number; date 01/03/2026 = 1 March.")
DOCS.append(dict(
    file="fr02_boulangerie_lemaire_ticket.pdf", layout="receipt",
    head=["*BOULANGERIE LEMAIRE", "Boulangerie Pâtisserie Lemaire SARL", "27 rue des Martyrs, 75009 Paris",
          "SIRET 498 765 432 00017", "TVA FR 61 498765432"],
    rows=[("Baguette tradition    x2", "2,60"),
          ("Croissant beurre      x4", "5,20"),
          ("Tarte aux pommes 4 pers.", "4,60"),
          "-",
          ("TOTAL TTC", "12,40 €", True),
          ("CB SANS CONTACT", "12,40 €"),
          "-",
          "TVA        HT      TVA      TTC",
          "5,5%     11,75     0,65    12,40",
          "-",
          "Ticket n° 000482     Caisse 1",
          "Le 01/03/2026 à 07:52  Vendeur : Inès"],
    tail=["Merci de votre visite, à bientôt !"],
))

X("fr03_durand_avoir.pdf", "fr", "credit_note", "AV-2026-014", "2026-04-09", None,
  "-300.00", "-250.00", "-50.00", "EUR", "Électricité Durand & Fils SAS",
  "Avoir with NEGATIVE amounts. References invoice F-2026-0210 du 17/03/2026 right under the avoir number; "
  "share capital 40 000 € and SIREN in letterhead; customer code 411DUPO.")
DOCS.append(dict(
    file="fr03_durand_avoir.pdf", layout="classic", money=EUR_FR, date="d/m/Y",
    title="AVOIR",
    supplier=["Électricité Durand & Fils SAS", "ZA des Pins, 3 allée des Artisans – 33700 Mérignac",
              "SAS au capital de 40 000 € – SIREN 533 221 987 – RCS Bordeaux",
              "TVA intracom. FR 45 533221987"],
    meta=[("Avoir n°", "AV-2026-014"), ("Date", dt("2026-04-09")), ("Réf. facture", "F-2026-0210 du 17/03/2026"),
          ("Code client", "411DUPO")],
    cust_label="CLIENT",
    customer=["Dupont Rénovation EURL", "12 cours de l'Intendance", "33000 Bordeaux"],
    pre_table=["Avoir sur facture F-2026-0210 : remise commerciale accordée suite au retard de chantier."],
    cols=("Désignation", "Qté", "P.U. HT", "Montant HT"),
    lines=[("Remise commerciale – chantier Intendance", "1", "-250.00")],
    totals=[("Total HT", amt("-250.00")), ("TVA 20 %", amt("-50.00")), ("Total TTC", amt("-300.00"), True)],
    post=["Montant à déduire de votre prochain règlement. Avoir non remboursable en espèces."],
))

X("fr04_fournitures_provence_facture_2p.pdf", "fr", "invoice", "FBP-26-004127", "2026-06-10", "2026-07-10",
  "6853.01", "5878.80", "974.21", "EUR", "Fournitures Bureau Provence SAS",
  "Two pages, totals at the bottom of page 2, amounts 'EUR 1 234,56'. Delivery date 08/06/2026 directly "
  "under the invoice date; order and customer numbers; two VAT rates (5,5 % books, 20 %) plus 'Total TVA'; "
  "deposit (acompte) -500,00 and 'Net à payer' 6 353,01 (a balance, not the net); due date in the payment note.")
DOCS.append(dict(
    file="fr04_fournitures_provence_facture_2p.pdf", layout="classic", money=EUR_CODE_FR, date="d/m/Y",
    title="FACTURE",
    supplier=["Fournitures Bureau Provence SAS",
              "Parc d'activités de la Valentine, 120 route des Trois Lucs – 13011 Marseille",
              "SIRET 790 123 456 00034 · TVA FR 83 790123456 · Capital 150 000 €"],
    meta=[("Facture n°", "FBP-26-004127"), ("Date de facture", dt("2026-06-10")), ("Date de livraison", dt("2026-06-08")),
          ("N° de commande", "CMD-98812"), ("N° client", "C-13-2207")],
    cust_label="FACTURÉ À",
    customer=["Lycée Marcel Pagnol", "Service intendance", "128 boulevard de Sainte-Marguerite", "13009 Marseille"],
    cols=("Désignation", "Qté", "P.U. HT", "TVA", "Total HT"),
    lines=[("Ramette papier A4 80 g (500 f.)", "120", "4.35", "20 %"),
           ("Ramette papier A3 80 g (500 f.)", "20", "8.90", "20 %"),
           ("Stylo bille bleu (boîte de 50)", "10", "12.50", "20 %"),
           ("Stylo bille rouge (boîte de 50)", "4", "12.50", "20 %"),
           ("Surligneur jaune (lot de 10)", "15", "6.20", "20 %"),
           ("Classeur à levier dos 80 mm", "80", "2.95", "20 %"),
           ("Pochettes perforées (boîte de 100)", "25", "3.80", "20 %"),
           ("Chemises cartonnées assorties (x100)", "12", "14.60", "20 %"),
           ("Cahier 24x32 96 pages grands carreaux", "200", "1.15", "20 %"),
           ("Agrafeuse de bureau 25 feuilles", "12", "7.90", "20 %"),
           ("Agrafes 26/6 (boîte de 5000)", "30", "1.45", "20 %"),
           ("Ruban adhésif 19 mm x 33 m (x8)", "20", "5.60", "20 %"),
           ("Colle en bâton 21 g (x20)", "10", "11.80", "20 %"),
           ("Ciseaux 21 cm", "40", "2.40", "20 %"),
           ("Calculatrice collège", "35", "16.90", "20 %"),
           ("Feutres effaçables tableau blanc (x4)", "60", "4.75", "20 %"),
           ("Brosse magnétique tableau blanc", "20", "3.90", "20 %"),
           ("Toner laser noir compatible 59A", "8", "64.00", "20 %"),
           ("Cartouche jet d'encre couleur", "10", "27.50", "20 %"),
           ("Enveloppes C4 auto-adhésives (x250)", "6", "29.80", "20 %"),
           ("Étiquettes adresse 99,1x38,1 (x1400)", "5", "18.40", "20 %"),
           ("Dictionnaire de français collège", "30", "19.90", "5,5 %"),
           ("Atlas géographique scolaire", "30", "14.50", "5,5 %"),
           ("Guide de conjugaison", "40", "8.95", "5,5 %"),
           ("Rouleau plastification A4 (x100)", "4", "21.00", "20 %"),
           ("Destructeur de documents coupe croisée", "1", "189.00", "20 %"),
           ("Livraison en établissement", "1", "35.00", "20 %")],
    rows_p1=22, cont_text="Suite page 2 …", page_fmt="Page %d/%d",
    p2_header="Facture FBP-26-004127 – suite",
    totals=[("Total HT", amt("5878.80")), ("TVA 5,5 % (base EUR 1 390,00)", amt("76.45")),
            ("TVA 20 % (base EUR 4 488,80)", amt("897.76")), ("Total TVA", amt("974.21")),
            ("Total TTC", amt("6853.01"), True), ("Acompte versé le 15/05/2026", amt("-500.00")),
            ("Net à payer", amt("6353.01"), True)],
    post=["Échéance : 10/07/2026 – règlement par virement à 30 jours. IBAN FR76 1130 6000 3012 3456 7890 112.",
          "Pénalités de retard : 3 fois le taux d'intérêt légal ; indemnité forfaitaire de recouvrement : 40 €."],
))

X("fr05_cabinet_moreau_honoraires_lettre.pdf", "fr", "invoice", "2026-117", "2026-05-12", None,
  "1800.00", "1500.00", "300.00", "EUR", "Cabinet Moreau Avocats",
  "Letter-style note d'honoraires; number only in the 'Objet' line next to a case reference 24-0871. "
  "Service period '1er avril 2026' – '30 avril 2026' and provision date 3 avril 2026 in prose; provision "
  "reçue – 600,00 € and 'Reste dû' 1 200,00 € after the total; 'payable à réception' so no due date. "
  "Legal entity SELARL Moreau & Associés printed under the letterhead name.")
DOCS.append(dict(
    file="fr05_cabinet_moreau_honoraires_lettre.pdf", layout="letter",
    letterhead=["Cabinet Moreau Avocats", "SELARL Moreau & Associés – Avocats au Barreau de Paris",
                "42 boulevard Haussmann – 75009 Paris – Toque P 0123 – TVA FR 19 851234567"],
    to=["Société Horizon Conseil SAS", "À l'attention de Mme Claire Lambert", "5 place de la Bourse", "75002 Paris"],
    place_date="Paris, le 12 mai 2026",
    subject="Objet : Note d'honoraires n° 2026-117 – Dossier Horizon / Bellevue (réf. 24-0871)",
    salutation="Madame,",
    paras=["Veuillez trouver ci-dessous le détail de nos honoraires pour les diligences accomplies entre le "
           "1er avril 2026 et le 30 avril 2026 dans le dossier cité en référence.",
           ("Honoraires (6 h à 250,00 € HT)", "1 500,00 €"), ("Total HT", "1 500,00 €"), ("TVA 20 %", "300,00 €"),
           ("Total TTC", "1 800,00 €", True), ("Provision reçue le 3 avril 2026", "– 600,00 €"),
           ("Reste dû", "1 200,00 €", True),
           "Cette note est payable à réception, par virement sur le compte CARPA indiqué ci-dessous.",
           "Nous vous prions d'agréer, Madame, l'expression de nos salutations distinguées."],
    closing=["Maître Hélène Moreau", "Avocat associé"],
    footer=["CARPA Paris – IBAN FR76 1010 7001 2300 0000 0000 123"],
))

X("fr06_transports_girard_facture.pdf", "fr", "invoice", "26-00871", "2026-06-15", "2026-07-15",
  "2009.40", "1674.50", "334.90", "EUR", "Transports Girard SA",
  "Values on the same line as unrelated text: number with client number, page and the customer's VAT "
  "number; pick-up date 11/06 and delivery date 12/06 on the same line as the invoice date 15/06/2026; "
  "consignment note number on the due-date line; share capital 500 000 € in letterhead.")
DOCS.append(dict(
    file="fr06_transports_girard_facture.pdf", layout="classic", money=EUR_CODE_FR, date="d/m/Y",
    title="FACTURE",
    supplier=["Transports Girard SA", "Zone portuaire, 8 quai de la Fosse – 44000 Nantes",
              "SA au capital de 500 000 € – RCS Nantes 402 118 765 – TVA FR 72 402118765"],
    meta_style="inline",
    inline=[[("Facture n°", "26-00871"), ("Client n°", "40217"), ("Page", "1/1"), ("Votre n° TVA", "FR 09 318456123")],
            [("Date de facture", dt("2026-06-15")), ("Date d'enlèvement", dt("2026-06-11")),
             ("Date de livraison", dt("2026-06-12"))],
            [("Échéance", dt("2026-07-15")), ("Règlement", "virement 30 jours"), ("Lettre de voiture", "LV 778 2214")]],
    cust_label="DESTINATAIRE DE LA FACTURE",
    customer=["Conserverie de l'Atlantique SAS", "Rue du Port", "56170 Quiberon"],
    cols=("Prestation", "Qté", "P.U. HT", "TVA", "Montant HT"),
    lines=[("Transport complet Nantes → Lyon, 33 palettes", "1", "1450.00", "20 %"),
           ("Surcharge gazole (indexation juin)", "1", "101.50", "20 %"),
           ("Hayon élévateur", "1", "45.00", "20 %"),
           ("Attente au chargement (heures)", "1.5", "52.00", "20 %")],
    totals=[("Total HT", amt("1674.50")), ("TVA 20 %", amt("334.90")), ("Total TTC", amt("2009.40"), True)],
    post=["Conditions générales de vente : voir au verso. Aucun escompte pour paiement anticipé."],
))

X("fr07_relais_des_alpes_hotel_facture.pdf", "fr", "invoice", "H-2026-03391", "2026-07-21", None,
  "471.60", "420.00", "45.00", "EUR", "Hôtel Le Relais des Alpes",
  "Hotel invoice, label above value. Arrival/departure dates, room number and booking number in the header "
  "cells; two VAT rates (10 % and 20 %) plus 'Total TVA'; taxe de séjour 6,60 € outside VAT so Total TTC "
  "≠ HT + TVA; arrhes -100,00 and 'Solde à régler' 371,60 after the total. Operating company SAS Relais "
  "des Alpes printed under the hotel name. No due date.",
  _arith_skip=True)
DOCS.append(dict(
    file="fr07_relais_des_alpes_hotel_facture.pdf", layout="classic", money=EUR_FR, date="d/m/Y",
    title="FACTURE",
    supplier=["Hôtel Le Relais des Alpes", "SAS Relais des Alpes – 22 avenue d'Albigny – 74000 Annecy",
              "SIRET 524 987 321 00012 – TVA FR 38 524987321"],
    meta_style="above",
    meta_rows=[[("Facture n°", "H-2026-03391"), ("Date de facture", dt("2026-07-21")), ("Chambre", "214"),
                ("N° de réservation", "RES-88412")],
               [("Arrivée", dt("2026-07-19")), ("Départ", dt("2026-07-21")), ("Nuits", "2"), ("Personnes", "2")]],
    cust_label="CLIENT",
    customer=["M. et Mme Laurent Petit", "17 rue Nationale", "59800 Lille"],
    cols=("Prestation", "Qté", "P.U. HT", "TVA", "Montant HT"),
    lines=[("Chambre double supérieure", "2", "165.00", "10 %"),
           ("Petit-déjeuner buffet", "4", "15.00", "10 %"),
           ("Minibar", "1", "30.00", "20 %")],
    totals=[("Total HT", amt("420.00")), ("TVA 10 %", amt("39.00")), ("TVA 20 %", amt("6.00")),
            ("Total TVA", amt("45.00")), ("Taxe de séjour (hors TVA)", amt("6.60")),
            ("Total TTC", amt("471.60"), True), ("Arrhes versées", amt("-100.00")),
            ("Solde à régler", amt("371.60"), True)],
    post=["Taxe de séjour : 2 nuits x 2 personnes x 1,65 €. Solde réglé par carte bancaire au départ."],
))

# ------------------------------------------------------------------ GERMAN
X("de01_mueller_schmidt_rechnung.pdf", "de", "invoice", "RE-2026-04711", "2026-02-03", "2026-02-17",
  "455.53", "382.80", "72.73", "EUR", "Müller & Schmidt Haustechnik GmbH",
  "Label left of value. Lieferdatum 30.01.2026 directly under the Rechnungsdatum; Kundennummer and "
  "Auftragsnummer; USt-IdNr., Steuernummer and HRB in the letterhead; Skonto date 10.02.2026 and Skonto "
  "amount 9,11 € in the payment note.")
DOCS.append(dict(
    file="de01_mueller_schmidt_rechnung.pdf", layout="classic", money=EUR_SUF, date="d.m.Y",
    title="Rechnung",
    supplier=["Müller & Schmidt Haustechnik GmbH", "Industriestraße 17 · 50735 Köln",
              "Amtsgericht Köln HRB 98765 · Geschäftsführer: Thomas Müller",
              "USt-IdNr. DE 312 456 789 · Steuernummer 217/5734/1029"],
    meta=[("Rechnungsnummer", "RE-2026-04711"), ("Rechnungsdatum", dt("2026-02-03")), ("Lieferdatum", dt("2026-01-30")),
          ("Kundennummer", "10023"), ("Auftragsnummer", "AU-26-0159"), ("Fällig am", dt("2026-02-17"))],
    cust_label="RECHNUNGSEMPFÄNGER",
    customer=["Hausverwaltung Becker KG", "Frau Sabine Becker", "Aachener Straße 220", "50931 Köln"],
    cols=("Bezeichnung", "Menge", "Einzelpreis", "USt.", "Gesamt"),
    lines=[("Wartung Gas-Brennwerttherme", "1", "149.00", "19 %"),
           ("Arbeitszeit Monteur (Std.)", "2.5", "68.00", "19 %"),
           ("Anfahrtspauschale", "1", "39.00", "19 %"),
           ("Dichtungssatz und Kleinmaterial", "1", "24.80", "19 %")],
    totals=[("Nettobetrag", amt("382.80")), ("zzgl. 19 % MwSt.", amt("72.73")), ("Gesamtbetrag", amt("455.53"), True)],
    post=["Zahlbar ohne Abzug bis zum 17.02.2026. Bei Zahlung bis 10.02.2026 gewähren wir 2 % Skonto (9,11 €).",
          "Bankverbindung: Sparkasse KölnBonn · IBAN DE89 3705 0198 0001 2345 67 · BIC COLSDE33XXX"],
))

X("de02_frischemarkt_berger_kassenbon.pdf", "de", "receipt", "4711", "2026-02-03", None,
  "18.47", "16.75", "1.72", "EUR", "Frischemarkt Berger e.K.",
  "Narrow Kassenbon. Two-digit year '03.02.26'; TSE start timestamp in ISO form; TSE transaction number, "
  "Kasse and Bediener numbers near the Beleg-Nr.; cash given 20,00 and change 1,53; VAT table A 7 % / "
  "B 19 % with a Summe row giving net 16,75 and VAT 1,72.")
DOCS.append(dict(
    file="de02_frischemarkt_berger_kassenbon.pdf", layout="receipt",
    head=["*FRISCHEMARKT BERGER", "Frischemarkt Berger e.K.", "Leopoldstraße 88, 80802 München",
          "Tel. 089 3344 5566", "USt-IdNr. DE298765431"],
    rows=[("Roggenbrot 750g", "3,49 A"),
          ("Vollmilch 3,5% 1l  2 x 1,19", "2,38 A"),
          ("Butter 250g", "2,29 A"),
          ("Äpfel Elstar 1kg", "2,99 A"),
          ("Bergkäse 150g", "1,85 A"),
          ("Spülmittel 500ml", "1,79 B"),
          ("Batterien AA 4er", "3,68 B"),
          "-",
          ("SUMME EUR", "18,47", True),
          ("Bar", "20,00"),
          ("Rückgeld", "1,53"),
          "-",
          "MwSt-Satz    Netto    MwSt   Brutto",
          "A  7 %       12,15    0,85    13,00",
          "B 19 %        4,60    0,87     5,47",
          "Summe        16,75    1,72    18,47",
          "-",
          "03.02.26  18:42   Kasse 3   Bed. 12",
          "Beleg-Nr. 4711",
          "TSE-Transaktion: 184422",
          "TSE-Start: 2026-02-03T18:41:57",
          "TSE-Seriennr.: 9f3c2a81d0e4b7"],
    tail=["Vielen Dank für Ihren Einkauf!"],
))

X("de03_elektro_wagner_gutschrift.pdf", "de", "credit_note", "GS-2026-0042", "2026-03-26", None,
  "-416.50", "-350.00", "-66.50", "EUR", "Elektro Wagner GmbH",
  "Gutschrift (credit note for returned goods) with NEGATIVE amounts and negative quantities; header in "
  "two columns with the original Rechnung Nr. RE-2026-0388 and its date 12.03.2026 in the right column, "
  "return date 20.03.2026 in the text; customer's USt-IdNr. near the number; the closing sentence repeats "
  "416,50 € unsigned.")
DOCS.append(dict(
    file="de03_elektro_wagner_gutschrift.pdf", layout="classic", money=EUR_SUF, date="d.m.Y",
    title="Gutschrift",
    supplier=["Elektro Wagner GmbH", "Hauptstraße 5 · 70173 Stuttgart",
              "HRB 723456 Amtsgericht Stuttgart · USt-IdNr. DE 287 654 321"],
    meta_style="twocol",
    meta_l=[("Gutschrift Nr.", "GS-2026-0042"), ("Datum", dt("2026-03-26")), ("Kunden-Nr.", "K-55120")],
    meta_r=[("zur Rechnung Nr.", "RE-2026-0388"), ("Rechnungsdatum", dt("2026-03-12")), ("Ihre USt-IdNr.", "DE 145 998 012")],
    cust_label="KUNDE",
    customer=["Schwabenbau GmbH & Co. KG", "Einkauf", "Rotebühlstraße 90", "70178 Stuttgart"],
    pre_table=["Wir schreiben Ihnen für die zurückgesandte Ware (Retoure vom 20.03.2026) folgenden Betrag gut:"],
    cols=("Artikel", "Menge", "Einzelpreis", "USt.", "Betrag"),
    lines=[("LED-Panel 62x62 cm, 36 W", "-10", "29.50", "19 %"),
           ("Bewegungsmelder Aufputz 180°", "-2", "27.50", "19 %")],
    totals=[("Netto", amt("-350.00")), ("MwSt. 19 %", amt("-66.50")), ("Gesamtbetrag", amt("-416.50"), True)],
    post=["Der Betrag von 416,50 € wird mit Ihrer nächsten Rechnung verrechnet."],
))

X("de04_nordlicht_buerobedarf_rechnung_2s.pdf", "de", "invoice", "2026-10388", "2026-09-14", "2026-09-28",
  "3479.58", "2979.93", "499.65", "EUR", "Nordlicht Bürobedarf GmbH",
  "Two pages, totals at the bottom of page 2, amounts 'EUR 1.234,56'. Order 'B-7781 vom 08.09.2026' and "
  "delivery-note number under the date; 7 % and 19 % VAT lines plus 'MwSt. gesamt'; '14 Tage netto' is a "
  "payment term; due date only in the note on page 2.")
DOCS.append(dict(
    file="de04_nordlicht_buerobedarf_rechnung_2s.pdf", layout="classic", money=EUR_CODE_DE, date="d.m.Y",
    title="Rechnung",
    supplier=["Nordlicht Bürobedarf GmbH", "Wandsbeker Chaussee 44 · 22089 Hamburg",
              "HRB 154321 AG Hamburg · USt-IdNr. DE 301 222 333 · Geschäftsführerin: Jana Petersen"],
    meta=[("Rechnung Nr.", "2026-10388"), ("Datum", dt("2026-09-14")), ("Kunden-Nr.", "D-20417"),
          ("Ihre Bestellung", "B-7781 vom 08.09.2026"), ("Lieferschein-Nr.", "LS-2026-09931")],
    cust_label="LIEFER- UND RECHNUNGSANSCHRIFT",
    customer=["Steuerkanzlei Hansen & Partner mbB", "Büroleitung", "Jungfernstieg 12", "20354 Hamburg"],
    cols=("Artikel / Bezeichnung", "Menge", "Einzelpreis", "MwSt.", "Gesamt"),
    lines=[("Kopierpapier A4 80 g, 500 Bl.", "100", "4.19", "19 %"),
           ("Ordner A4 breit, 80 mm, blau", "60", "2.79", "19 %"),
           ("Ordner A4 schmal, 50 mm, grau", "40", "2.69", "19 %"),
           ("Register A–Z, 20-teilig", "30", "1.95", "19 %"),
           ("Kugelschreiber blau (VE 50)", "4", "14.90", "19 %"),
           ("Textmarker 4er-Set", "25", "3.49", "19 %"),
           ("Haftnotizen 76x76 mm (12 Blöcke)", "10", "8.60", "19 %"),
           ("Heftgerät bis 40 Blatt", "6", "12.95", "19 %"),
           ("Heftklammern 24/6 (5000 St.)", "20", "1.29", "19 %"),
           ("Locher 40 Blatt", "6", "9.80", "19 %"),
           ("Briefumschläge DIN lang m. F. (1000)", "3", "24.50", "19 %"),
           ("Versandtaschen C4 (250)", "4", "31.20", "19 %"),
           ("Toner TN-2420 schwarz, kompatibel", "6", "58.90", "19 %"),
           ("Druckerpapier A3 (500 Bl.)", "5", "9.95", "19 %"),
           ("Schreibtischunterlage 65x50", "12", "7.40", "19 %"),
           ("Archivkarton 340x290x110 (10 St.)", "8", "22.60", "19 %"),
           ("Etiketten 70x36 mm (2400)", "5", "16.80", "19 %"),
           ("Laminierfolien A4 125 mic (100)", "3", "14.35", "19 %"),
           ("Whiteboard-Marker 4er-Set", "10", "5.90", "19 %"),
           ("Kaffee Crema ganze Bohne 1 kg", "12", "15.49", "7 %"),
           ("Kondensmilch-Portionen (240 St.)", "4", "11.90", "7 %"),
           ("Fachbuch „Steuerrecht kompakt 2026“", "5", "39.00", "7 %"),
           ("Zeitschrift-Abo Steuerpraxis, Q4", "1", "126.00", "7 %"),
           ("Mineralwasser 0,75 l (Kiste 12)", "10", "7.80", "19 %"),
           ("Spülmaschinentabs (100 St.)", "3", "18.90", "19 %"),
           ("Papierhandtücher Zickzack (3200)", "4", "21.50", "19 %")],
    rows_p1=22, cont_text="Übertrag auf Seite 2", page_fmt="Seite %d von %d",
    p2_header="Rechnung Nr. 2026-10388 · Fortsetzung",
    totals=[("Warenwert netto", amt("2979.93")), ("MwSt. 7 % auf EUR 554,48", amt("38.81")),
            ("MwSt. 19 % auf EUR 2.425,45", amt("460.84")), ("MwSt. gesamt", amt("499.65")),
            ("Rechnungsbetrag", amt("3479.58"), True)],
    post=["Zahlungsziel: 14 Tage netto. Fällig am 28.09.2026.",
          "Bankverbindung: Hamburger Sparkasse · IBAN DE12 2005 0550 1234 5678 90 · BIC HASPDEHHXXX"],
))

X("de05_schreinerei_baumann_brief_ch.pdf", "de", "invoice", "2026-118", "2026-02-03", None,
  "1999.85", "1850.00", "149.85", "CHF", "Schreinerei Baumann AG",
  "Swiss letter-style invoice (Zürich), amounts \"1'234.50 CHF\", MWST 8.1 %. Number and order date "
  "(12. Dezember 2025) only in the subject line; quote number and its date 28. November 2025 in prose; "
  "UID/MWST number CHE-116.289.473 in letterhead; 'zahlbar innert 30 Tagen' gives no explicit due date.")
DOCS.append(dict(
    file="de05_schreinerei_baumann_brief_ch.pdf", layout="letter",
    letterhead=["Schreinerei Baumann AG", "Seefeldstrasse 128 · 8008 Zürich · Tel. 044 381 22 40",
                "UID CHE-116.289.473 MWST · info@schreinerei-baumann.ch"],
    to=["Frau", "Dr. Regula Keller", "Dolderstrasse 19", "8032 Zürich"],
    place_date="Zürich, 3. Februar 2026",
    subject="Rechnung Nr. 2026-118 – Einbauschrank Ankleide, Ihr Auftrag vom 12. Dezember 2025",
    salutation="Sehr geehrte Frau Dr. Keller",
    paras=["Für die ausgeführten Schreinerarbeiten gemäss unserer Offerte Nr. O-25-342 vom 28. November 2025 "
           "erlauben wir uns, Ihnen wie folgt Rechnung zu stellen:",
           ("Einbauschrank Eiche furniert, inkl. Montage", "1'650.00 CHF"),
           ("Beschläge und Innenbeleuchtung", "200.00 CHF"),
           ("Total netto", "1'850.00 CHF"),
           ("MWST 8.1 %", "149.85 CHF"),
           ("Rechnungsbetrag", "1'999.85 CHF", True),
           "Zahlbar innert 30 Tagen rein netto. Bitte verwenden Sie den beiliegenden QR-Einzahlungsschein "
           "(IBAN CH93 0076 2011 6238 5295 7).",
           "Wir danken Ihnen für den geschätzten Auftrag und stehen Ihnen für Fragen gerne zur Verfügung."],
    closing=["Freundliche Grüsse", "", "Schreinerei Baumann AG", "Markus Baumann"],
))

X("de06_brandt_software_rechnung.pdf", "de", "invoice", "BSS-2026-0215", "2026-02-03", "2026-02-17",
  "1773.10", "1490.00", "283.10", "EUR", "Brandt Software Solutions GmbH",
  "Label above value; ISO dates (2026-02-03) while the service period is printed 01.02.2026 – "
  "28.02.2026; contract number and customer number in the header cells; direct-debit note repeats the due "
  "date and shows mandate reference and creditor ID.")
DOCS.append(dict(
    file="de06_brandt_software_rechnung.pdf", layout="classic", money=EUR_SUF, date="Y-m-d",
    title="Rechnung",
    supplier=["Brandt Software Solutions GmbH", "Leopoldstraße 244 · 80807 München",
              "Registergericht München HRB 245678 · USt-IdNr. DE 329 876 540"],
    meta_style="above",
    meta_rows=[[("Rechnungsnummer", "BSS-2026-0215"), ("Rechnungsdatum", dt("2026-02-03")),
                ("Fällig am", dt("2026-02-17")), ("Kundennummer", "100482")],
               [("Leistungszeitraum", "01.02.2026 – 28.02.2026"), ("Vertragsnummer", "V-2024-0087"),
                ("Zahlungsart", "SEPA-Lastschrift")]],
    cust_label="KUNDE",
    customer=["Praxis Dr. med. Lena Vogt", "Schwanthalerstraße 31", "80336 München"],
    cols=("Leistung", "Menge", "Einzelpreis", "USt.", "Betrag"),
    lines=[("PraxisCloud Business – Nutzerlizenz / Monat", "12", "89.00", "19 %"),
           ("Speicher-Erweiterung 500 GB", "1", "49.00", "19 %"),
           ("Premium-Support", "1", "373.00", "19 %")],
    totals=[("Summe netto", amt("1490.00")), ("Umsatzsteuer 19 %", amt("283.10")), ("Gesamtbetrag", amt("1773.10"), True)],
    post=["Der Rechnungsbetrag wird am 2026-02-17 per SEPA-Lastschrift von Ihrem Konto DE44 **** **** **** 1234 "
          "eingezogen (Mandatsreferenz BSS-M-100482, Gläubiger-ID DE98ZZZ09999999999)."],
))

X("de07_alpenblick_gastro_rechnung_at.pdf", "de", "invoice", "26/0457", "2026-01-14", "2026-01-28",
  "807.40", "707.00", "100.40", "EUR", "Alpenblick Gastro-Service GmbH",
  "Austrian invoice: issue date written '14. Jänner 2026' (Austrian month name) while other dates are "
  "dd.mm.yyyy; number on one line with customer number, customer UID and page; delivery date 12.01 and "
  "order date 07.01 on the same line as the issue date; 10 % and 20 % VAT plus 'MwSt. gesamt'; amounts "
  "'EUR 1.234,56'; Skonto terms on the due-date line.")
DOCS.append(dict(
    file="de07_alpenblick_gastro_rechnung_at.pdf", layout="classic", money=EUR_CODE_DE, date="d.m.Y",
    title="RECHNUNG",
    supplier=["Alpenblick Gastro-Service GmbH", "Innrain 112 · 6020 Innsbruck · Österreich",
              "FN 345678x Landesgericht Innsbruck · UID ATU 64382917"],
    meta_style="inline",
    inline=[[("Rechnung Nr.", "26/0457"), ("Kunden-Nr.", "7781"), ("UID Kunde", "ATU 58123496"), ("Seite", "1 von 1")],
            [("Rechnungsdatum:", dt("2026-01-14", "at_long")), ("Lieferdatum:", dt("2026-01-12")),
             ("Bestellung vom", dt("2026-01-07"))],
            [("Zahlungsziel:", "14 Tage"), ("fällig am", dt("2026-01-28")), ("Skonto", "2 % bei Zahlung binnen 7 Tagen")]],
    cust_label="RECHNUNGSADRESSE",
    customer=["Hotel Goldener Adler Betriebs GmbH", "Herzog-Friedrich-Straße 6", "6020 Innsbruck"],
    cols=("Artikel", "Menge", "Preis", "MwSt.", "Betrag"),
    lines=[("Kaffee Espresso Bohne 1 kg", "20", "18.40", "10 %"),
           ("Mineralwasser 0,33 l (Kiste 24)", "15", "14.90", "20 %"),
           ("Reinigungstabletten Kaffeemaschine", "3", "24.50", "20 %"),
           ("Zucker-Sticks (Karton 1000)", "2", "21.00", "10 %")],
    totals=[("Nettobetrag", amt("707.00")), ("MwSt. 10 %", amt("41.00")), ("MwSt. 20 %", amt("59.40")),
            ("MwSt. gesamt", amt("100.40")), ("Gesamtbetrag", amt("807.40"), True)],
    post=["Bankverbindung: Tiroler Sparkasse · IBAN AT61 2050 3000 0123 4567 · BIC SPIHAT22XXX"],
))

# ------------------------------------------------------------------ DUTCH
X("nl01_van_der_berg_factuur.pdf", "nl", "invoice", "2026-0147", "2026-02-03", "2026-03-05",
  "2968.61", "2453.40", "515.21", "EUR", "Van der Berg Installatietechniek B.V.",
  "Label left of value, dates dd-mm-yyyy. KvK and BTW numbers in the letterhead; klantnummer, werkbon "
  "reference and execution date 28-01-2026 in the same block as factuurdatum/vervaldatum.")
DOCS.append(dict(
    file="nl01_van_der_berg_factuur.pdf", layout="classic", money=EUR_NL, date="d-m-Y",
    title="FACTUUR",
    supplier=["Van der Berg Installatietechniek B.V.", "Kanaalweg 41 · 3526 KL Utrecht",
              "KvK 30123456 · BTW-nr. NL812345678B01", "IBAN NL91 ABNA 0417 1643 00"],
    meta=[("Factuurnummer", "2026-0147"), ("Factuurdatum", dt("2026-02-03")), ("Vervaldatum", dt("2026-03-05")),
          ("Klantnummer", "K-3391"), ("Uw referentie", "Werkbon 88123"), ("Uitvoeringsdatum", dt("2026-01-28"))],
    cust_label="FACTUURADRES",
    customer=["VvE De Wilhelminahof", "t.a.v. de penningmeester", "Wilhelminapark 8", "3581 NE Utrecht"],
    cols=("Omschrijving", "Aantal", "Prijs", "BTW", "Bedrag"),
    lines=[("Vervangen cv-ketel HR 28 kW", "1", "1895.00", "21%"),
           ("Arbeidsloon monteur (uur)", "6", "62.50", "21%"),
           ("Afvoer oude ketel", "1", "45.00", "21%"),
           ("Installatiemateriaal", "1", "138.40", "21%")],
    totals=[("Subtotaal", amt("2453.40")), ("BTW 21%", amt("515.21")), ("Totaal", amt("2968.61"), True)],
    post=["Wij verzoeken u het totaalbedrag vóór de vervaldatum over te maken op IBAN NL91 ABNA 0417 1643 00 "
          "o.v.v. het factuurnummer."],
))

X("nl02_drogisterij_zonnebloem_kassabon.pdf", "nl", "receipt", "2-031265", "2026-03-12", None,
  "14.35", "12.21", "2.14", "EUR", "De Zonnebloem Drogisterij B.V.",
  "Narrow kassabon; BTW table with 21 % and 9 % rows and a Totaal row (excl. 12,21 / BTW 2,14); PIN "
  "payment line repeats the total; loyalty card and points; till number beside the date.")
DOCS.append(dict(
    file="nl02_drogisterij_zonnebloem_kassabon.pdf", layout="receipt",
    head=["*DROGISTERIJ DE ZONNEBLOEM", "De Zonnebloem Drogisterij B.V.", "Grote Markt 17, 9711 LV Groningen",
          "BTW NL856432109B01"],
    rows=[("Tandpasta 75ml            21%", "2,49"),
          ("Shampoo 250ml 2 x 3,99    21%", "7,98"),
          ("Drop 400g                  9%", "2,19"),
          ("Thee 20 zakjes             9%", "1,69"),
          "-",
          ("TOTAAL", "€ 14,35", True),
          ("PIN", "€ 14,35"),
          "-",
          "BTW       Excl.     BTW    Incl.",
          "21%        8,65    1,82    10,47",
          " 9%        3,56    0,32     3,88",
          "Totaal    12,21    2,14    14,35",
          "-",
          "12-03-2026 10:17   Kassa 2",
          "Bonnummer: 2-031265",
          "Klantenkaart **** 4410  Spaarpunten: 14"],
    tail=["Bedankt en tot ziens!"],
))

X("nl03_fietsenwinkel_jansen_creditnota.pdf", "nl", "credit_note", "CN-2026-008", "2026-04-02", None,
  "-84.70", "-70.00", "-14.70", "EUR", "Fietsenwinkel Jansen V.O.F.",
  "Creditnota with NEGATIVE amounts ('€ -84,70'); long Dutch dates ('2 april 2026'); refers to invoice "
  "2026-0311 of 18 maart 2026; the refund sentence repeats € 84,70 unsigned.")
DOCS.append(dict(
    file="nl03_fietsenwinkel_jansen_creditnota.pdf", layout="classic", money=EUR_NL, date="nl_long",
    title="CREDITNOTA",
    supplier=["Fietsenwinkel Jansen V.O.F.", "Overtoom 301 · 1054 HW Amsterdam", "KvK 34987654 · BTW NL001234567B02"],
    meta=[("Creditnotanummer", "CN-2026-008"), ("Datum", dt("2026-04-02")), ("Klantnummer", "1187"),
          ("Betreft factuur", "2026-0311 d.d. 18 maart 2026")],
    cust_label="KLANT",
    customer=["Dhr. M. de Vries", "Jan Pieter Heijestraat 55-II", "1053 GK Amsterdam"],
    cols=("Omschrijving", "Aantal", "Prijs", "BTW", "Bedrag"),
    lines=[("Retour fietstas dubbel, waterdicht", "-1", "70.00", "21%")],
    totals=[("Subtotaal", amt("-70.00")), ("BTW 21%", amt("-14.70")), ("Totaal", amt("-84.70"), True)],
    post=["Het bedrag van € 84,70 wordt binnen 5 werkdagen teruggestort op uw rekening."],
))

X("nl04_hollandse_bouwmaterialen_factuur_2p.pdf", "nl", "invoice", "HB26-011842", "2026-10-06", "2026-11-05",
  "16277.40", "13452.40", "2825.00", "EUR", "Hollandse Bouwmaterialen B.V.",
  "Two pages, totals at the bottom of page 2. Order date 29-09-2026 and delivery date 02-10-2026 in the "
  "same block as factuurdatum; debtor number; down payment 'Reeds betaald' -2.500,00 and 'Te betalen' "
  "13.777,40 after the Totaal.")
DOCS.append(dict(
    file="nl04_hollandse_bouwmaterialen_factuur_2p.pdf", layout="classic", money=EUR_NL, date="d-m-Y",
    title="Factuur",
    supplier=["Hollandse Bouwmaterialen B.V.", "Waalhaven Zuidzijde 19 · 3089 JH Rotterdam",
              "KvK 24456789 · BTW-id NL853214769B01 · IBAN NL20 INGB 0001 2345 67"],
    meta=[("Factuurnummer", "HB26-011842"), ("Factuurdatum", dt("2026-10-06")), ("Vervaldatum", dt("2026-11-05")),
          ("Debiteurnummer", "D-44718"), ("Orderdatum", dt("2026-09-29")), ("Leverdatum", dt("2026-10-02"))],
    cust_label="FACTUURADRES",
    customer=["Aannemersbedrijf Visser & Zn. B.V.", "Industrieweg 12", "2651 BC Berkel en Rodenrijs"],
    cols=("Artikel / omschrijving", "Aantal", "Prijs", "BTW", "Bedrag"),
    lines=[("Kalkzandsteen 300x100x200 mm (pallet)", "6", "312.00", "21%"),
           ("Cement CEM III/A 25 kg", "80", "6.45", "21%"),
           ("Metselzand (big bag 1 m³)", "4", "58.50", "21%"),
           ("Betonmix 25 kg", "60", "4.95", "21%"),
           ("Wapeningsnet 5x2 m Ø6 mm", "18", "32.40", "21%"),
           ("Bekistingsplaat 250x125x18 mm", "24", "41.90", "21%"),
           ("Vuren balk 63x169 mm, 5,4 m", "30", "27.85", "21%"),
           ("Multiplex 18 mm 250x122 cm", "20", "48.60", "21%"),
           ("Gipsplaat 260x60x12,5 mm", "90", "6.20", "21%"),
           ("Isolatieplaat PIR 120 mm", "40", "38.75", "21%"),
           ("Dampremmende folie 4x25 m", "6", "54.00", "21%"),
           ("Dakpan keramisch antraciet", "1200", "1.38", "21%"),
           ("Dakgoot zink 6 m", "8", "74.90", "21%"),
           ("PVC afvoerbuis Ø110 mm, 4 m", "16", "17.60", "21%"),
           ("PVC bocht 87° Ø110 mm", "24", "3.85", "21%"),
           ("Kit transparant 310 ml", "48", "5.95", "21%"),
           ("Montagelijm 290 ml", "36", "6.80", "21%"),
           ("Schroeven 5x60 mm (doos 500)", "12", "14.25", "21%"),
           ("Pluggen 8 mm (doos 100)", "15", "4.60", "21%"),
           ("Tegellijm 25 kg", "20", "18.90", "21%"),
           ("Voegmiddel grijs 5 kg", "10", "12.40", "21%"),
           ("Steigerhuur week 40 (m²)", "85", "3.10", "21%"),
           ("Containerhuur 10 m³ incl. afvoer", "1", "395.00", "21%"),
           ("Transport en kraanlevering", "1", "145.00", "21%")],
    rows_p1=20, cont_text="Vervolg op pagina 2", page_fmt="Pagina %d van %d",
    p2_header="Factuur HB26-011842 – vervolg",
    totals=[("Subtotaal", amt("13452.40")), ("BTW 21%", amt("2825.00")), ("Totaal", amt("16277.40"), True),
            ("Reeds betaald (aanbetaling)", amt("-2500.00")), ("Te betalen", amt("13777.40"), True)],
    post=["Betaling binnen 30 dagen na factuurdatum op IBAN NL20 INGB 0001 2345 67 o.v.v. factuurnummer.",
          "Op al onze leveringen zijn de algemene voorwaarden van Hollandse Bouwmaterialen B.V. van toepassing."],
))

X("nl05_studio_pixelwerk_factuur.pdf", "nl", "invoice", "PXW-2026-052", "2026-05-19", "2026-06-02",
  "4084.36", "3375.50", "708.86", "EUR", "Studio Pixelwerk",
  "Label above value, ISO dates (2026-05-19); quote number with its own date 2026-04-22 and project number "
  "in the header cells; hours x rate lines. Trading name Studio Pixelwerk, legal form Pixelwerk V.O.F. "
  "printed under it.")
DOCS.append(dict(
    file="nl05_studio_pixelwerk_factuur.pdf", layout="classic", money=EUR_NL, date="Y-m-d",
    title="Factuur",
    supplier=["Studio Pixelwerk", "Pixelwerk V.O.F. · Czaar Peterstraat 180 · 1018 PX Amsterdam",
              "KvK 71234567 · BTW-id NL004567890B01"],
    meta_style="above",
    meta_rows=[[("Factuurnummer", "PXW-2026-052"), ("Factuurdatum", dt("2026-05-19")), ("Vervaldatum", dt("2026-06-02")),
                ("Klantnummer", "0042")],
               [("Projectnummer", "P-2026-013"), ("Offerte", "OF-2026-019 d.d. 2026-04-22"),
                ("Betalingstermijn", "14 dagen")]],
    cust_label="AAN",
    customer=["Koffiebranderij Het Anker B.V.", "t.a.v. mevrouw S. Bakker", "Zeeburgerdijk 80", "1094 AG Amsterdam"],
    cols=("Omschrijving", "Uren", "Tarief", "BTW", "Bedrag"),
    lines=[("Huisstijl: logo-ontwerp", "16", "85.00", "21%"),
           ("Verpakkingsontwerp, 3 varianten", "22", "85.00", "21%"),
           ("Drukproeven (doorbelast)", "1", "145.50", "21%")],
    totals=[("Subtotaal", amt("3375.50")), ("BTW 21%", amt("708.86")), ("Totaal", amt("4084.36"), True)],
    post=["Graag binnen 14 dagen overmaken op NL44 RABO 0123 4567 89 t.n.v. Pixelwerk V.O.F."],
))

X("nl06_brouwerij_het_wolfke_brief_be.pdf", "nl", "invoice", "2026/0458", "2026-06-15", "2026-07-15",
  "2546.75", "1675.00", "351.75", "EUR", "Brouwerij Het Wolfke BV",
  "Belgian letter-style invoice, amounts '1.234,56 EUR'. Delivery date 12 juni and order date 8 juni 2026 "
  "in prose; delivery-note number; structured payment reference +++045/8202/60097+++; returnable deposit "
  "(leeggoed) 520,00 EUR is outside VAT so 'Te betalen' ≠ excl. btw + btw; BE company number in letterhead.",
  _arith_skip=True)
DOCS.append(dict(
    file="nl06_brouwerij_het_wolfke_brief_be.pdf", layout="letter",
    letterhead=["Brouwerij Het Wolfke BV", "Dorpsstraat 112 · 9840 De Pinte · België",
                "Ondernemingsnr. / btw BE 0712.345.678 · RPR Gent · IBAN BE71 0961 2345 6769"],
    to=["Café De Zwaan", "t.a.v. de heer Pieter Claes", "Vrijdagmarkt 4", "9000 Gent"],
    place_date="De Pinte, 15 juni 2026",
    subject="Betreft: factuur nr. 2026/0458 – levering van 12 juni 2026",
    salutation="Geachte heer Claes,",
    paras=["Hierbij factureren wij u de levering van 12 juni 2026 (leveringsbon LB-2026-1187), zoals besteld "
           "op 8 juni 2026:",
           ("20 vaten Wolfke Blond 20 l à 68,00 EUR", "1.360,00 EUR"),
           ("10 bakken Wolfke Tripel (24 x 33 cl) à 31,50 EUR", "315,00 EUR"),
           ("Totaal excl. btw", "1.675,00 EUR"),
           ("Btw 21 %", "351,75 EUR"),
           ("Leeggoed: waarborg vaten en bakken (geen btw)", "520,00 EUR"),
           ("Te betalen", "2.546,75 EUR", True),
           "Gelieve dit bedrag te betalen uiterlijk op 15 juli 2026 met de gestructureerde mededeling "
           "+++045/8202/60097+++.",
           "De waarborg op leeggoed wordt teruggestort bij retour van de vaten en bakken."],
    closing=["Met vriendelijke groeten,", "", "Brouwerij Het Wolfke BV", "An Verstraete – boekhouding"],
))

X("nl07_zeeuwse_schoonmaak_factuur.pdf", "nl", "invoice", "26-3310", "2026-06-30", "2026-07-14",
  "7485.48", "6186.35", "1299.13", "EUR", "Zeeuwse Schoonmaakdiensten B.V.",
  "Values on the same line as unrelated text: number with debtor number, page and the customer's BTW "
  "number; order 'PO-88120 d.d. 02-01-2026' and period 'juni 2026' on the same line as the factuurdatum; "
  "contract number on the vervaldatum line.")
DOCS.append(dict(
    file="nl07_zeeuwse_schoonmaak_factuur.pdf", layout="classic", money=EUR_NL, date="d-m-Y",
    title="FACTUUR",
    supplier=["Zeeuwse Schoonmaakdiensten B.V.", "Kanaalweg 3 · 4337 PA Middelburg", "KvK 22051234 · BTW NL809123456B01"],
    meta_style="inline",
    inline=[[("Factuur", "26-3310"), ("Debiteurnr.", "5521"), ("Pagina", "1 van 1"), ("Uw BTW-nr.", "NL001987654B01")],
            [("Factuurdatum", dt("2026-06-30")), ("Periode", "juni 2026"), ("Ordernr.", "PO-88120 d.d. 02-01-2026")],
            [("Vervaldatum", dt("2026-07-14")), ("Betaaltermijn", "14 dagen"), ("Contract", "ZS-2024-118")]],
    cust_label="FACTUURADRES",
    customer=["Zorgcentrum Ter Reede", "Afdeling Facilitair", "Boulevard de Ruyter 1", "4381 KA Vlissingen"],
    cols=("Omschrijving", "Aantal", "Prijs", "BTW", "Bedrag"),
    lines=[("Dagelijkse schoonmaak juni (uren)", "168", "31.75", "21%"),
           ("Glasbewassing buitenzijde", "1", "640.00", "21%"),
           ("Sanitaire hygiëneproducten", "1", "212.35", "21%")],
    totals=[("Subtotaal", amt("6186.35")), ("BTW 21%", amt("1299.13")), ("Totaal", amt("7485.48"), True)],
))

# ------------------------------------------------------------------ BILINGUAL
X("bi01_fiduciaire_romand_fr_de_ch.pdf", "fr", "invoice", "2026-0833", "2026-02-03", "2026-03-05",
  "1513.40", "1400.00", "113.40", "CHF", "Fiduciaire Romand SA",
  "Bilingual French/German (Fribourg, Switzerland); 'language' is the first language printed. Amounts "
  "\"CHF 1'234.50\"; TVA/MWST 8.1 %; two-column header with client number and mandate number; accounting "
  "period 01.01.2026 – 31.01.2026 in the text above the table. Supplier prints both names: 'Fiduciaire "
  "Romand SA / Treuhand Romand AG'.")
DOCS.append(dict(
    file="bi01_fiduciaire_romand_fr_de_ch.pdf", layout="classic", money=CHF_PRE, date="d.m.Y",
    title="FACTURE / RECHNUNG",
    supplier=["Fiduciaire Romand SA / Treuhand Romand AG", "Rue de Lausanne 45 · 1700 Fribourg / Freiburg",
              "IDE/UID CHE-109.876.543 TVA/MWST"],
    meta_style="twocol", twocol_w=128,
    meta_l=[("Facture n° / Rechnung Nr.", "2026-0833"), ("Date / Datum", dt("2026-02-03")),
            ("Échéance / Fällig am", dt("2026-03-05"))],
    meta_r=[("Client n° / Kunden-Nr.", "20194"), ("Mandat / Auftrag", "M-2021-044")],
    cust_label="CLIENT / KUNDE",
    customer=["Boulangerie Kolly Sàrl", "Route de Bulle 12", "1630 Bulle"],
    pre_table=["Période / Zeitraum : 01.01.2026 – 31.01.2026"],
    cols=("Prestation / Leistung", "Qté", "Prix", "TVA", "Montant"),
    lines=[("Tenue de la comptabilité / Buchhaltung – janvier", "1", "950.00", "8.1 %"),
           ("Décomptes de salaires / Lohnabrechnungen", "6", "45.00", "8.1 %"),
           ("Conseil fiscal / Steuerberatung (h)", "1", "180.00", "8.1 %")],
    totals=[("Total HT / Total netto", amt("1400.00")), ("TVA / MWST 8.1 %", amt("113.40")),
            ("Total TTC / Total brutto", amt("1513.40"), True)],
    post=["Payable dans les 30 jours / Zahlbar innert 30 Tagen – IBAN CH44 3199 9123 0008 8901 2 (QR-facture / QR-Rechnung)."],
))

X("bi02_delcourt_facture_factuur_be.pdf", "fr", "invoice", "26/01577", "2026-05-12", "2026-06-11",
  "2912.30", "2630.00", "282.30", "EUR", "Imprimerie Delcourt – Drukkerij Delcourt NV",
  "Bilingual French/Dutch (Brussels); label above value with 'Facture n° / Factuurnummer' etc.; amounts "
  "'1.234,56 EUR'; Belgian 6 % and 21 % VAT with 'Total TVA / Totaal btw'; HTVA/TVAC labels; structured "
  "communication +++261/5770/01254+++ and customer reference in the header cells.")
DOCS.append(dict(
    file="bi02_delcourt_facture_factuur_be.pdf", layout="classic", money=EUR_BE, date="d/m/Y",
    title="FACTURE / FACTUUR",
    supplier=["Imprimerie Delcourt – Drukkerij Delcourt NV", "Rue Picard 7 / Picardstraat 7 · 1000 Bruxelles / Brussel",
              "TVA / BTW BE 0423.987.654 · RPM Bruxelles / RPR Brussel"],
    meta_style="above",
    meta_rows=[[("Facture n° / Factuurnummer", "26/01577"), ("Date de facture / Factuurdatum", dt("2026-05-12")),
                ("Échéance / Vervaldatum", dt("2026-06-11"))],
               [("N° client / Klantnummer", "C-6120"), ("Votre réf. / Uw ref.", "BC 2026-118"),
                ("Communication / Mededeling", "+++261/5770/01254+++")]],
    cust_label="CLIENT / KLANT",
    customer=["ASBL Théâtre du Parc", "Rue de la Loi 3", "1000 Bruxelles"],
    cols=("Description / Omschrijving", "Qté", "Prix", "TVA", "Montant"),
    lines=[("Programmes de saison A4 / seizoensbrochures", "1500", "1.20", "6 %"),
           ("Affiches A2 / affiches A2", "200", "2.40", "21 %"),
           ("Mise en page / opmaak", "1", "350.00", "21 %")],
    totals=[("Total HTVA / Totaal excl. btw", amt("2630.00")), ("TVA/BTW 6 %", amt("108.00")),
            ("TVA/BTW 21 %", amt("174.30")), ("Total TVA / Totaal btw", amt("282.30")),
            ("Total TVAC / Totaal incl. btw", amt("2912.30"), True)],
    post=["Paiement à 30 jours / Betaling binnen 30 dagen – IBAN BE68 5390 0754 7034 – BIC GKCCBEBB"],
))

X("bi03_hotel_alpenrose_rechnung_fattura.pdf", "de", "invoice", "A-2026/0391", "2026-08-24", None,
  "1857.90", "1657.18", "165.72", "EUR", "Hotel Alpenrose KG",
  "Bilingual German/Italian hotel invoice (Meran/Merano, South Tyrol); 'language' is the first language "
  "printed. Line prices include 10 % VAT; net and VAT appear only in the 'davon / di cui' note; tourist tax "
  "35,00 € outside VAT; deposit -400,00 and 'Zu zahlen / Da pagare' 1.457,90 after the total; arrival date "
  "17.08.2026 and departure date (= issue date) in the header; guest number and room number near the "
  "invoice number. No due date.",
  _arith_skip=True)
DOCS.append(dict(
    file="bi03_hotel_alpenrose_rechnung_fattura.pdf", layout="classic", money=EUR_SUF, date="d.m.Y",
    title="RECHNUNG / FATTURA", meta_lx=275, meta_vx=140,
    supplier=["Hotel Alpenrose KG", "Albergo Alpenrosa S.a.s. di Gruber Martin & Co.",
              "Laurinstraße 21 / Via Laurin 21 · 39012 Meran / Merano (BZ)", "MwSt.-Nr. / P.IVA IT 01987650213"],
    meta=[("Rechnung Nr. / Fattura n.", "A-2026/0391"), ("Datum / Data", dt("2026-08-24")),
          ("Zimmer / Camera", "305"), ("Anreise / Arrivo", dt("2026-08-17")),
          ("Abreise / Partenza", dt("2026-08-24")), ("Gast-Nr. / N. ospite", "G-17734")],
    cust_label="GAST / OSPITE",
    customer=["Familie / Famiglia Hoffmann", "Kaiserstraße 12", "60311 Frankfurt am Main", "Deutschland / Germania"],
    cols=("Leistung / Prestazione", "Menge", "Preis", "MwSt.", "Betrag"),
    lines=[("Halbpension / Mezza pensione (2 Pers.)", "7", "248.00", "10 %"),
           ("Getränke / Bevande", "1", "86.90", "10 %")],
    lines_are_net=False,
    totals=[("Zwischensumme / Subtotale", amt("1822.90")),
            ("Ortstaxe / Imposta di soggiorno", amt("35.00")),
            ("Gesamtbetrag / Totale", amt("1857.90"), True),
            ("Anzahlung / Acconto", amt("-400.00")),
            ("Zu zahlen / Da pagare", amt("1457.90"), True)],
    post=["Im Gesamtbetrag enthalten / Incluso nel totale: Netto / Imponibile 1.657,18 € – MwSt. / IVA 10 % 165,72 €. "
          "Ortstaxe nicht MwSt.-pflichtig / Imposta di soggiorno esente IVA.",
          "Bezahlt mit Kreditkarte / Pagato con carta di credito."],
))


if __name__ == "__main__":
    main()
