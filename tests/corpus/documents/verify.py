#!/usr/bin/env python3
"""Check with pypdf that every expected value is present in each PDF's text layer.

Independent of generate.py: it only reads expected.json and the PDFs, and
renders each expected value in the local formats a real document might use
(dates: 03.02.2026 / 3 mars 2026 / 3rd February 2026 / 02/03/2026 for US ...;
amounts: 1.234,56 / 1 234,56 / 1,234.56 / 1'234.56 / 1,23,456.00 ...).
"""
import json
import os
import re
import sys

from pypdf import PdfReader

HERE = os.path.dirname(os.path.abspath(__file__))

MONTHS = {
    "en": "January February March April May June July August September October November December".split(),
    "fr": "janvier février mars avril mai juin juillet août septembre octobre novembre décembre".split(),
    "it": "gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre dicembre".split(),
    "de": "Januar Februar März April Mai Juni Juli August September Oktober November Dezember".split(),
    "at": ["Jänner"],
    "nl": "januari februari maart april mei juni juli augustus september oktober november december".split(),
}


def norm(s):
    s = s.replace("\u00a0", " ").replace("\u202f", " ").replace("\u2009", " ")
    return re.sub(r"[ \t]+", " ", s)


def date_forms(iso, us):
    y, m, d = (int(x) for x in iso.split("-"))
    f = {f"{y}-{m:02d}-{d:02d}", f"{d:02d}.{m:02d}.{y}", f"{d:02d}.{m:02d}.{y % 100:02d}",
         f"{d:02d}-{m:02d}-{y}", f"{d}.{m}.{y}"}
    f |= {f"{m:02d}/{d:02d}/{y}", f"{m}/{d}/{y}"} if us else {f"{d:02d}/{m:02d}/{y}", f"{d}/{m}/{y}"}
    en = MONTHS["en"][m - 1]
    suf = "th" if 10 <= d % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(d % 10, "th")
    f |= {f"{d}{suf} {en} {y}", f"{d} {en} {y}", f"{d} {en[:3]} {y}", f"{d:02d}-{en[:3]}-{y}",
          f"{en} {d}, {y}"}
    for lang in ("fr", "it", "nl"):
        f.add(f"{d} {MONTHS[lang][m - 1]} {y}")
    if d == 1:
        f.add(f"1er {MONTHS['fr'][m - 1]} {y}")
    f.add(f"{d}. {MONTHS['de'][m - 1]} {y}")
    if m == 1:
        f.add(f"{d}. Jänner {y}")
    return f


def group(ip, sep, indian):
    if indian and len(ip) > 3:
        head, parts = ip[:-3], [ip[-3:]]
        while len(head) > 2:
            parts.insert(0, head[-2:])
            head = head[:-2]
        if head:
            parts.insert(0, head)
        return sep.join(parts)
    parts = []
    while len(ip) > 3:
        parts.insert(0, ip[-3:])
        ip = ip[:-3]
    return sep.join([ip] + parts)


def amount_regexes(v):
    neg = v.startswith("-")
    ip, fp = v.lstrip("-").split(".")
    forms = set()
    for dec, seps in ((",", [".", " ", "", "'"]), (".", [",", "'", "", " "])):
        for sep in seps:
            for indian in (False, True):
                forms.add(group(ip, sep, indian) + dec + fp)
    out = []
    for s in forms:
        body = r"(?<![\d.,'])" + re.escape(s) + r"(?![\d])"
        if neg:  # a minus sign (possibly before the currency sign) or parentheses
            out.append(re.compile(r"(?:[-−–]\s?(?:[€£$₹]|EUR|CHF|GBP|USD|INR)?\s?" + body + r"|\(\s?[€£$₹]?" + body + r"\))"))
        else:
            out.append(re.compile(body))
    return out


CUR = {"EUR": ["€", "EUR"], "GBP": ["£", "GBP"], "USD": ["$", "USD"], "INR": ["₹", "INR", "Rs."], "CHF": ["CHF"]}


def main():
    exp = json.load(open(os.path.join(HERE, "expected.json"), encoding="utf-8"))
    pdfdir = os.path.join(HERE, "pdf")
    on_disk = sorted(f for f in os.listdir(pdfdir) if f.endswith(".pdf"))
    bad = 0
    if sorted(exp) != on_disk:
        print("MISMATCH between expected.json and pdf/:", set(exp) ^ set(on_disk))
        bad += 1
    for name, e in sorted(exp.items()):
        r = PdfReader(os.path.join(pdfdir, name))
        text = norm("\n".join(p.extract_text() or "" for p in r.pages))
        f = e["fields"]
        us = f["currency"] == "USD"
        miss = []
        for k in ("invoice_number", "supplier"):
            if norm(f[k]) not in text:
                miss.append(f"{k}={f[k]!r}")
        for k in ("issue_date", "due_date"):
            if f[k] is not None and not any(s in text for s in date_forms(f[k], us)):
                miss.append(f"{k}={f[k]}")
        for k in ("total", "net", "tax"):
            if f[k] is not None and not any(rx.search(text) for rx in amount_regexes(f[k])):
                miss.append(f"{k}={f[k]}")
        off = f"{float(f['total']) + 0.01:.2f}"  # matcher sanity: a wrong total must not match
        if any(rx.search(text) for rx in amount_regexes(off)):
            miss.append(f"off-by-0.01 total {off} also matches")
        if not any(c in text for c in CUR[f["currency"]]):
            miss.append(f"currency={f['currency']}")
        if len(text.strip()) < 200:
            miss.append("text layer too small")
        status = "OK  " if not miss else "FAIL"
        bad += bool(miss)
        print(f"{status} {name:50s} pages={len(r.pages)} chars={len(text):5d} {' '.join(miss)}")
    print(f"\n{len(exp) - bad}/{len(exp)} documents: all expected values found in the text layer")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
