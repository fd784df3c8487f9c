"""Baseline solution for it-acqua-lagunare."""


def _iso(s):
    d, m, y = s.strip().split("/")
    return "%s-%s-%s" % (y, m, d)


def _amount(s):
    v = s.replace("\u20ac", "").replace("\xa0", "").strip().replace(".", "").replace(",", ".")
    return "%.2f" % float(v)


def run(page, base_url, username, password):
    n = 0
    page.goto(base_url); n += 1
    page.get_by_role("button", name="Continua senza accettare").click(); n += 1
    page.locator("#didomi-backdrop").wait_for(state="detached")
    page.locator("header").get_by_role("link", name="Area riservata").click(); n += 1
    modal = page.get_by_role("dialog", name="Accedi all'Area riservata")
    modal.get_by_label("Codice fiscale").fill(username); n += 1
    modal.get_by_label("Password").fill(password); n += 1
    modal.get_by_role("button", name="Accedi").click(); n += 1
    page.wait_for_url("**/area-riservata/")
    page.locator("nav.areanav").get_by_role("link", name="Documenti").click(); n += 1
    cards = page.locator("#lista-bollette article.bill")
    cards.first.wait_for()
    while True:
        last = _iso(cards.last.locator("div").nth(1).inner_text().replace("Emessa il", ""))
        more = page.locator("#mostra-altre")
        if last < "2026-03-01" or more.count() == 0:
            break
        before = cards.count()
        more.click(); n += 1
        page.wait_for_function("c => document.querySelectorAll('#lista-bollette article.bill').length > c", arg=before)
    records = []
    for card in cards.all():
        cells = card.locator(":scope > div").all_inner_texts()
        num = card.locator("b").first.inner_text().replace("Bolletta n.", "").strip()
        date = _iso(cells[1].replace("Emessa il", ""))
        if date >= "2026-03-01":
            records.append({"id": num, "date": date, "amount": _amount(cells[3].replace("Importo", "")), "currency": "EUR"})
    return {"records": records, "actions": n}
