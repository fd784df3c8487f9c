import re


def run(page, base_url, username, password):
    n = 0
    page.goto(base_url); n += 1
    page.get_by_role("button", name="Personalizza").click(); n += 1
    page.locator("#iub-prefs").get_by_role("button", name="Rifiuta tutto").click(); n += 1
    page.locator("#iub-banner").wait_for(state="detached")
    page.locator("#hdr-login").click(); n += 1
    page.get_by_label("Email o numero di cellulare").fill(username); n += 1
    page.get_by_role("button", name="Continua").click(); n += 1
    page.get_by_label("Password", exact=True).fill(password); n += 1
    page.get_by_role("button", name="Accedi", exact=True).click(); n += 1
    page.get_by_role("link", name="Vedi tutte le fatture").click(); n += 1
    records = []
    while True:
        page.locator("#fatture tbody tr").first.wait_for()
        for row in page.locator("#fatture tbody tr").all():
            cells = [c.strip() for c in row.locator("td").all_inner_texts()]
            num, kind, dt, _, amt = cells[:5]
            if kind != "Fattura":
                continue
            d, m, y = dt.split("/")
            if y != "2026":
                continue
            a = amt.replace("€", "").replace(".", "").replace(",", ".").strip()
            records.append({"id": num, "date": "%s-%s-%s" % (y, m, d), "amount": a, "currency": "EUR"})
        nxt = page.locator(".pager a.next")
        # list is sorted newest first: stop once we are past 2026
        last_date = page.locator("#fatture tbody tr td.dt").last.inner_text()
        if nxt.count() == 0 or not last_date.endswith("2026"):
            break
        nxt.click(); n += 1
        page.wait_for_load_state()
    return {"records": records, "actions": n}
