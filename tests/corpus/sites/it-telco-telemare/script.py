MESI = {m: i + 1 for i, m in enumerate(["gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto",
                                        "settembre", "ottobre", "novembre", "dicembre"])}


def iso(s):
    d, m, y = s.split()
    return "%s-%02d-%02d" % (y, MESI[m], int(d))


def run(page, base_url, username, password):
    n = 0
    page.goto(base_url); n += 1
    page.locator("header").get_by_role("button", name="Menu").click(); n += 1
    page.locator("#offcanvas").get_by_role("button", name="Area clienti").click(); n += 1
    dlg = page.locator("dialog#login")
    dlg.get_by_label("Username").fill(username); n += 1
    dlg.get_by_label("Password").fill(password); n += 1
    dlg.get_by_role("button", name="Accedi").click(); n += 1
    page.locator("nav.side").get_by_role("link", name="Fatture e documenti").click(); n += 1
    cards = page.locator("#lista .doc")
    while True:
        cnt = cards.count()
        if iso(cards.nth(cnt - 1).locator(".dt").inner_text()) < "2026-03-01" or page.locator("#mostra-altre").count() == 0:
            break
        page.locator("#mostra-altre").click(); n += 1
        page.wait_for_function("c => document.querySelectorAll('#lista .doc').length > c", arg=cnt)
    records = []
    for c in cards.all():
        if c.locator(".t").inner_text().strip().lower() != "fattura":
            continue
        d = iso(c.locator(".dt").inner_text())
        if d < "2026-03-01":
            continue
        a = c.locator(".amt").inner_text().replace("€", "").replace(".", "").replace(",", ".").replace(" ", "").strip()
        records.append({"id": c.locator(".num").inner_text().strip(), "date": d, "amount": a, "currency": "EUR"})
    return {"records": records, "actions": n}
