from datetime import datetime


def run(page, base_url, username, password):
    n = 0
    page.goto(base_url); n += 1
    page.click("header a.myacc"); n += 1
    page.fill("#email", username); n += 1
    page.fill("#password", password); n += 1
    page.click("form[action='/myaccount/signin'] button[type=submit]"); n += 1
    page.click("a:has-text('View your Council Tax account')"); n += 1
    page.click(".subnav a:has-text('Bills and letters')"); n += 1
    records = []
    for i, fy in enumerate(("2026/27", "2025/26")):
        if i:
            page.select_option("#fy", fy); n += 1
        page.wait_for_selector("#info:has-text('documents in %s')" % fy)
        while True:
            for tr in page.query_selector_all("#docs tbody tr"):
                td = [c.inner_text().strip() for c in tr.query_selector_all("td")]
                dt = datetime.strptime(td[0], "%d %B %Y")
                if dt.year != 2026:
                    continue
                rec = {"id": td[2], "date": dt.strftime("%Y-%m-%d"), "amount": None, "currency": None}
                if td[3]:
                    rec["amount"] = td[3].replace("\u00a3", "").replace(",", "")
                    rec["currency"] = "GBP"
                records.append(rec)
            if page.is_disabled("#next"):
                break
            label = page.inner_text("#pno")
            page.click("#next"); n += 1
            page.wait_for_function("l => document.getElementById('pno').textContent !== l", arg=label)
    return {"records": records, "actions": n}
