from datetime import datetime


def run(page, base_url, username, password):
    n = 0
    page.goto(base_url); n += 1
    page.locator("#usercentrics-root").locator("[data-testid=uc-deny-all-button]").click(); n += 1
    page.wait_for_selector("#usercentrics-root", state="detached")
    page.click("header a.signon:has-text('Sign on')"); n += 1
    page.fill("#u", username); n += 1
    page.fill("#p", password); n += 1
    page.click("form[action='/signon'] button[type=submit]"); n += 1
    page.click("aside a:has-text('Statements & Documents')"); n += 1
    page.wait_for_selector("#status:has-text('documents for 2026')")
    page.click("#yeartabs button[data-year='2025']"); n += 1
    page.wait_for_selector("#status:has-text('documents for 2025')")
    records = []
    for tr in page.query_selector_all("#doctable tbody tr"):
        td = [c.inner_text().strip() for c in tr.query_selector_all("td")]
        if not td[1].startswith("Everyday Checking") or not td[2].startswith("Statement"):
            continue
        date = datetime.strptime(td[0], "%b %d, %Y").strftime("%Y-%m-%d")
        records.append({"id": td[3], "date": date, "amount": td[4].replace("$", "").replace(",", ""), "currency": "USD"})
    return {"records": records, "actions": n}
