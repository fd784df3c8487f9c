"""Baseline solution for it-energia-solaria (Playwright sync API)."""
import re


def _iso(d):
    dd, mm, yy = d.strip().split("/")
    return "%s-%s-%s" % (yy, mm, dd)


def _amount(s):
    s = s.replace("\u20ac", "").replace("\xa0", "").strip().replace(".", "").replace(",", ".")
    return "%.2f" % float(s)


def run(page, base_url, username, password):
    n = 0
    page.goto(base_url); n += 1
    rej = page.locator("#iubenda-cs-banner button", has_text="Rifiuta")
    rej.wait_for(state="visible", timeout=10000)
    rej.click(); n += 1
    page.locator("#iubenda-cs-banner").wait_for(state="detached")
    page.get_by_role("link", name="MySolaria", exact=True).click(); n += 1
    page.fill("input[name=codice_cliente]", username); n += 1
    page.fill("input[name=password]", password); n += 1
    page.get_by_role("button", name="Accedi", exact=True).click(); n += 1
    page.get_by_role("link", name="Vai alla tua area").click(); n += 1
    page.get_by_role("link", name=re.compile("Tutte le bollette")).click(); n += 1
    records = []
    while True:
        page.wait_for_selector("table.docs tbody tr")
        for row in page.locator("table.docs tbody tr").all():
            c = [x.strip() for x in row.locator("td").all_inner_texts()]
            if c[1] == "Bolletta" and c[3].endswith("/2026"):
                records.append({"id": c[0], "date": _iso(c[3]), "amount": _amount(c[5]), "currency": "EUR"})
        nxt = page.locator("nav.pager a[rel=next]")
        if nxt.count() == 0:
            break
        nxt.click(); n += 1
    return {"records": records, "actions": n}
