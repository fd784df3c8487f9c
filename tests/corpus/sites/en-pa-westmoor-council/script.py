"""Baseline solution for en-pa-westmoor-council."""


def _iso(s):
    d, m, y = s.strip().split("/")
    return "%s-%s-%s" % (y, m, d)


def _collect(page, out):
    for row in page.locator("#ct-docs tbody tr").all():
        c = [x.strip() for x in row.locator("td").all_inner_texts()]
        d = _iso(c[0])
        if c[1].startswith("Payment receipt") and d.startswith("2026"):
            out[c[2]] = {"id": c[2], "date": d, "amount": "%.2f" % float(c[3].replace("\u00a3", "").replace(",", "")), "currency": "GBP"}


def run(page, base_url, username, password):
    n = 0
    page.goto(base_url); n += 1
    page.get_by_role("button", name="Reject additional cookies").click(); n += 1  # a link with role=button
    page.locator("#cookie-banner").wait_for(state="detached")
    page.get_by_role("link", name="Authentication").click(); n += 1
    page.get_by_role("link", name="Council Tax and Benefits account").click(); n += 1
    page.get_by_label("Email address").fill(username); n += 1
    page.get_by_label("Password").fill(password); n += 1
    page.get_by_role("button", name="Sign in").click(); n += 1
    page.get_by_role("link", name="Council Tax", exact=True).first.click(); n += 1
    page.wait_for_selector("#ct-docs")
    records = {}
    _collect(page, records)  # 2026/27 (default)
    page.get_by_role("link", name="2025/26").click(); n += 1
    page.wait_for_url("**year=2025-26")
    _collect(page, records)
    return {"records": list(records.values()), "actions": n}
