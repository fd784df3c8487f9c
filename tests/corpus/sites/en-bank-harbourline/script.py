from datetime import datetime


def run(page, base_url, username, password):
    n = 0
    page.goto(base_url); n += 1
    page.frame_locator("#cmp-frame").locator("#rej").click(); n += 1
    page.wait_for_selector("#cmp-frame", state="detached")
    page.click(".topline a:has-text('Authentication')"); n += 1
    page.fill("#cn", username); n += 1
    page.fill("#pwd", password); n += 1
    page.click("form[action='/authentication'] button[type=submit]"); n += 1
    page.click("a:has-text('Continue to your account')"); n += 1
    page.click(".eb nav a:has-text('e-Documents')"); n += 1
    page.wait_for_selector("#docs .item")
    page.select_option("#period", "2026"); n += 1
    records = []
    while True:
        page.wait_for_selector("#docs .item")
        items = page.locator("#docs .item")
        for i in range(items.count()):
            it = items.nth(i)
            it.locator("button").click(); n += 1
            date = datetime.strptime(it.locator(".dt").inner_text().strip(), "%d %b %Y").strftime("%Y-%m-%d")
            ref = it.locator(".det b").first.inner_text().strip()
            rec = {"id": ref, "date": date, "amount": None, "currency": None}
            amt = it.locator(".det .amt")
            if amt.count():
                rec["amount"] = amt.inner_text().replace("\u00a3", "").replace(",", "")
                rec["currency"] = "GBP"
            records.append(rec)
        nxt = page.locator("#pg button:has-text('Next')")
        if nxt.is_disabled():
            break
        first = page.locator("#docs .item .tt").first.inner_text()
        nxt.click(); n += 1
        page.wait_for_function("t => document.querySelector('#docs .item .tt').textContent !== t", arg=first)
    return {"records": records, "actions": n}
