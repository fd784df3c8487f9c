def run(page, base_url, username, password):
    n = 0
    page.goto(base_url); n += 1
    page.locator(".didomi-popup-notice").get_by_role("button", name="Reject all").click(); n += 1
    page.wait_for_load_state()
    page.locator(".didomi-popup-notice").wait_for(state="detached")
    page.locator("header a.pill").click(); n += 1
    page.get_by_label("Username").fill(username); n += 1
    page.get_by_label("Password").fill(password); n += 1
    page.locator("form").get_by_role("button", name="Log in").click(); n += 1
    page.locator("nav.side").get_by_role("link", name="Documents").click(); n += 1
    records = []
    while True:
        page.locator("#docs tbody tr.docrow").first.wait_for()
        for r in page.locator("#docs tbody tr.docrow").all():
            if r.locator("td.type").inner_text().strip() != "Premium statement":
                continue
            d, m, y = r.locator("td.date").inner_text().strip().split("/")
            records.append({"id": r.locator("td.ref").inner_text().strip(), "date": "%s-%s-%s" % (y, m, d),
                            "amount": r.locator("td.amount").inner_text().replace("£", "").replace(",", "").strip(), "currency": "GBP"})
        nb = page.locator("#next")
        if nb.is_disabled():
            break
        info = page.locator("#pginfo").inner_text()
        nb.click(); n += 1
        page.wait_for_function("t => document.getElementById('pginfo').textContent !== t && document.querySelector('#docs tbody tr.docrow')", arg=info)
    return {"records": records, "actions": n}
