import re


def run(page, base_url, username, password):
    n = 0
    page.goto(base_url); n += 1
    page.click("#cl-x"); n += 1
    page.wait_for_selector("#cookie-law", state="detached")
    page.click("a[aria-label='Il mio account']"); n += 1
    page.fill("#cf", username); n += 1
    page.fill("#pw", password); n += 1
    page.click("#login-modal button[type=submit]"); n += 1
    page.click("a:has-text('Vedi tutti')"); n += 1
    page.wait_for_selector("#lista .doc")
    # load until we have reached documents older than March 2026 (or the end)
    while True:
        last = page.locator("#lista .doc .d").last.inner_text().strip()
        d, m, y = last.split("/")
        if (y, m) < ("2026", "03") or not page.locator("#altri").is_visible():
            break
        count = page.locator("#lista .doc").count()
        page.click("#altri"); n += 1
        page.wait_for_function("c => document.querySelectorAll('#lista .doc').length > c", arg=count)
    records = []
    for doc in page.query_selector_all("#lista .doc"):
        title = doc.query_selector(".t b").inner_text()
        d, m, y = doc.query_selector(".d").inner_text().strip().split("/")
        iso = "%s-%s-%s" % (y, m, d)
        if "Carta di credito" not in title or iso < "2026-03-01":
            continue
        did = re.search(r"Documento n\. (\S+)", doc.query_selector(".t small").inner_text()).group(1)
        amt = doc.query_selector(".a").inner_text().split("\u20ac")[0].strip().replace(".", "").replace(",", ".")
        records.append({"id": did, "date": iso, "amount": amt, "currency": "EUR"})
    return {"records": records, "actions": n}
