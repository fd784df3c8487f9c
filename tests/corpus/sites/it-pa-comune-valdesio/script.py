def run(page, base_url, username, password):
    n = 0
    page.goto(base_url); n += 1
    page.click("#cb-pref"); n += 1
    for cb in page.query_selector_all("#cookiepref input[data-k]"):
        cb.uncheck(); n += 1
    page.click("#cb-save"); n += 1
    page.wait_for_selector("#cookiebar", state="detached")
    page.click(".slim a:has-text('Area riservata')"); n += 1
    page.fill("#cf", username); n += 1
    page.fill("#pw", password); n += 1
    page.click("#credenziali button[type=submit]"); n += 1
    page.click("a:has-text('Vai ai pagamenti')"); n += 1
    records = []

    def scrape():
        for tr in page.query_selector_all("table.av tbody tr"):
            td = [c.inner_text().strip() for c in tr.query_selector_all("td")]
            if len(td) < 7:
                continue
            d, m, y = td[0].split("/")
            if y != "2026":
                continue
            code = td[2].split("\n")[-1].strip()
            amt = td[4].replace("\u20ac", "").replace(".", "").replace(",", ".").strip()
            records.append({"id": code, "date": "%s-%s-%s" % (y, m, d), "amount": amt, "currency": "EUR"})

    scrape()
    page.click(".tabsx a:has-text('Pagati')"); n += 1
    while True:
        page.wait_for_selector("table.av")
        scrape()
        nxt = page.query_selector(".pager a[aria-label='Pagina successiva']")
        if not nxt:
            break
        nxt.click(); n += 1
        page.wait_for_load_state()
    return {"records": records, "actions": n}
