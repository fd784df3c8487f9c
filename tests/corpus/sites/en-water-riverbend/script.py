"""Baseline solution for en-water-riverbend."""


def _iso(s):
    m, d, y = s.strip().split("/")
    return "%s-%s-%s" % (y, m, d)


def run(page, base_url, username, password):
    n = 0
    page.goto(base_url); n += 1
    # the banner lives in an open shadow root: Playwright locators pierce it
    page.get_by_role("button", name="Accept only necessary").click(); n += 1
    page.locator("#usercentrics-root").wait_for(state="detached")
    page.locator("header").get_by_role("link", name="My Account").click(); n += 1
    page.get_by_label("Customer number").fill(username); n += 1
    page.get_by_role("button", name="Next").click(); n += 1
    page.get_by_label("Password").fill(password); n += 1
    page.get_by_role("button", name="Sign in").click(); n += 1
    page.get_by_role("link", name="Continue to your account").click(); n += 1
    page.get_by_role("link", name="Statements & notices").click(); n += 1
    page.select_option("#year", "2025"); n += 1
    page.get_by_role("button", name="View").click(); n += 1
    page.wait_for_url("**year=2025")
    records = []
    for row in page.locator("#docs tbody tr").all():
        c = [x.strip() for x in row.locator("td").all_inner_texts()]
        if c[1] == "Bill":
            records.append({"id": c[3], "date": _iso(c[0]), "amount": "%.2f" % float(c[4].replace("$", "").replace(",", "")),
                            "currency": "USD"})
    return {"records": records, "actions": n}
