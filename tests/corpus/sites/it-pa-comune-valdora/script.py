"""Baseline solution for it-pa-comune-valdora."""
MESI = ["gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre", "ottobre", "novembre", "dicembre"]


def _iso(s):
    d, m, y = s.split()
    return "%s-%02d-%02d" % (y, MESI.index(m.lower()) + 1, int(d))


def _amount(s):
    v = s.replace("\u20ac", "").replace("\xa0", "").strip().replace(".", "").replace(",", ".")
    return "%.2f" % float(v)


def run(page, base_url, username, password):
    n = 0
    page.goto(base_url); n += 1
    page.get_by_role("button", name="Ho capito").click(); n += 1
    page.get_by_role("button", name="Menu").click(); n += 1
    page.locator("#offcanvas").get_by_role("link", name="Login", exact=True).click(); n += 1
    page.get_by_role("link", name="Altre credenziali").click(); n += 1
    page.get_by_label("Codice fiscale").fill(username); n += 1
    page.get_by_label("Password").fill(password); n += 1
    page.get_by_role("button", name="Accedi").click(); n += 1
    page.get_by_role("button", name="Prosegui").click(); n += 1
    page.locator("nav.side").get_by_role("link", name="I miei documenti").click(); n += 1
    page.wait_for_selector(".accordion-item")
    data = page.eval_on_selector_all(".accordion-item", """items => items.map(it => {
        const dl = {}; const dts = it.querySelectorAll('dt');
        dts.forEach(dt => dl[dt.textContent.trim()] = dt.nextElementSibling.textContent.trim());
        return {chip: it.querySelector('.chip').textContent.trim(), dl: dl}; })""")
    records = []
    for it in data:
        dl = it["dl"]
        if it["chip"] != "Ricevuta":
            continue
        date = _iso(dl["Data pagamento"])
        if date.startswith("2026"):
            records.append({"id": dl["Numero documento"], "date": date, "amount": _amount(dl["Importo"]), "currency": "EUR"})
    return {"records": records, "actions": n}
