"""Baseline solution for it-gas-metanord."""
from urllib.parse import urljoin


def _iso(s):
    d, m, y = s.strip().split(".")
    return "%s-%s-%s" % (y, m, d)


def _amount(s):
    v = s.replace("\u20ac", "").replace("\xa0", "").strip().replace(".", "").replace(",", ".")
    return "%.2f" % float(v)


def run(page, base_url, username, password):
    n = 0
    page.goto(base_url); n += 1
    page.locator("#cookie-law").get_by_role("button", name="Chiudi").click(); n += 1
    page.locator("#cookie-law").wait_for(state="detached")
    page.locator(".acct").get_by_role("link", name="Il mio account").click(); n += 1
    page.get_by_label("Username").fill(username); n += 1
    page.get_by_label("Password").fill(password); n += 1
    page.get_by_role("button", name="Entra").click(); n += 1
    page.locator(".acc-menu").get_by_role("link", name="I miei documenti").click(); n += 1
    with page.expect_navigation():
        page.select_option("#periodo", "2026"); n += 1
    links = []
    for row in page.locator("table tbody tr").all():
        links.append(row.get_by_role("link", name="Dettaglio").get_attribute("href"))
    records = []
    for href in links:
        page.goto(urljoin(page.url, href)); n += 1
        date = _iso(page.locator("#emissione").inner_text())
        if date.startswith("2026"):
            records.append({"id": page.locator("#numero").inner_text().strip(), "date": date,
                            "amount": _amount(page.locator("#totale").inner_text()), "currency": "EUR"})
    return {"records": records, "actions": n}
