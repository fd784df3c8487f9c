from datetime import datetime


def run(page, base_url, username, password):
    n = 0
    page.goto(base_url); n += 1
    page.click("#ck-reject", timeout=10000); n += 1
    page.wait_for_selector("#cookie-root", state="detached")
    page.click("button[aria-label='Account']"); n += 1
    page.click("#acct-dd a[href='/signin']"); n += 1
    page.fill("#email", username); n += 1
    page.click("#next"); n += 1
    page.fill("#password", password); n += 1
    page.click("#step2 button[type=submit]"); n += 1
    page.click("nav.t a:has-text('Payslips')"); n += 1
    page.wait_for_selector("#slips .slip")
    while True:
        last = page.locator("#slips .slip .pe").last.inner_text()
        if datetime.strptime(last, "%d %b %Y").year < 2026 or not page.locator("#more").is_visible():
            break
        c = page.locator("#slips .slip").count()
        page.click("#more"); n += 1
        page.wait_for_function("c => document.querySelectorAll('#slips .slip').length > c", arg=c)
    records = []
    for s in page.query_selector_all("#slips .slip"):
        end = datetime.strptime(s.query_selector(".pe").inner_text(), "%d %b %Y")
        if end.year != 2026:
            continue
        records.append({"id": s.get_attribute("data-slip"), "date": end.strftime("%Y-%m-%d"),
                        "amount": s.query_selector(".net").inner_text().replace("\u00a3", "").replace(",", ""), "currency": "GBP"})
    return {"records": records, "actions": n}
