"""Baseline solution for it-energia-voltaverde."""
MESI = ["gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre",
        "ottobre", "novembre", "dicembre"]


def _iso(s):
    d, m, y = s.split()
    return "%s-%02d-%02d" % (y, MESI.index(m.lower()) + 1, int(d))


def _amount(s):
    neg = s.strip().startswith("-")
    v = s.replace("-", "").replace("\u20ac", "").replace("\xa0", "").strip().replace(".", "").replace(",", ".")
    return "%.2f" % (-float(v) if neg else float(v))


def run(page, base_url, username, password):
    n = 0
    page.goto(base_url); n += 1
    page.get_by_role("button", name="Personalizza").click(); n += 1
    prefs = page.locator("#vv-prefs")
    for box in prefs.locator("input.vvp").all():
        if box.is_checked():
            box.locator("xpath=..").locator("span").click(); n += 1
    prefs.get_by_role("button", name="Salva le mie scelte").click(); n += 1
    page.locator("#vv-consent").wait_for(state="detached")
    page.get_by_role("button", name="Menu utente").click(); n += 1
    page.get_by_role("link", name="Area clienti Luce e Gas").click(); n += 1
    page.fill("input[name=email]", username); n += 1
    page.get_by_role("button", name="Continua").click(); n += 1
    page.fill("input[name=password]", password); n += 1
    page.get_by_role("button", name="Accedi", exact=True).click(); n += 1
    page.get_by_role("link", name="Le mie bollette").click(); n += 1
    page.wait_for_selector("#tabella-bollette")
    page.get_by_role("tab", name="2025").click(); n += 1
    page.wait_for_function("document.querySelector('#tabella-bollette tbody tr td:nth-child(4)') && "
                           "document.querySelector('#tabella-bollette tbody tr td:nth-child(4)').innerText.endsWith('2025')")
    records = []
    for row in page.locator("#tabella-bollette tbody tr").all():
        c = [x.strip() for x in row.locator("td").all_inner_texts()]
        records.append({"id": c[1], "date": _iso(c[3]), "amount": _amount(c[4]), "currency": "EUR"})
    return {"records": records, "actions": n}
