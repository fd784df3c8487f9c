"""Baseline solution for en-energy-brightgrid."""
from datetime import datetime


def _iso(s):
    return datetime.strptime(s.strip(), "%b %d, %Y").strftime("%Y-%m-%d")


def _amount(s):
    neg = "-" in s
    v = float(s.replace("-", "").replace("$", "").replace(",", "").strip())
    return "%.2f" % (-v if neg else v)


def run(page, base_url, username, password):
    n = 0
    page.goto(base_url); n += 1
    page.locator("header").get_by_role("link", name="Log in", exact=True).click(); n += 1
    page.get_by_label("Email address").fill(username); n += 1
    page.get_by_label("Password").fill(password); n += 1
    page.get_by_role("button", name="Log in", exact=True).click(); n += 1
    page.locator("nav.acctbar").get_by_role("link", name="Billing").click(); n += 1
    page.get_by_role("link", name="Billing history").first.click(); n += 1
    records = {}
    while True:
        page.wait_for_selector("#history tbody tr")
        oldest = None
        for row in page.locator("#history tbody tr").all():
            c = [x.strip() for x in row.locator("td").all_inner_texts()]
            d = _iso(c[0])
            oldest = d
            if c[1].startswith("Bill") and d.startswith("2026"):
                records[c[2]] = {"id": c[2], "date": d, "amount": _amount(c[3]), "currency": "USD"}
        nxt = page.locator("#pager").get_by_role("button", name="Next")
        if oldest < "2026-01-01" or nxt.is_disabled():
            break
        first = page.locator("#history tbody tr td").nth(2).inner_text()
        nxt.click(); n += 1
        page.wait_for_function("f => document.querySelector('#history tbody tr td:nth-child(3)').innerText !== f", arg=first)
    return {"records": list(records.values()), "actions": n}
