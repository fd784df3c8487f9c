MONTHS = {m: i + 1 for i, m in enumerate(["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"])}


def run(page, base_url, username, password):
    n = 0
    page.goto(base_url); n += 1
    rej = page.locator("#cky-bar").get_by_role("button", name="Reject All")
    rej.wait_for(timeout=10000)
    rej.click(); n += 1
    page.locator("#cky-bar").wait_for(state="detached")
    page.get_by_role("button", name="Account").click(); n += 1
    page.get_by_role("button", name="Sign in to My FibreLink").click(); n += 1
    page.locator("#lm-u").fill(username); n += 1
    page.locator("#lm-p").fill(password); n += 1
    page.locator("#login-form button[type=submit]").click(); n += 1
    page.wait_for_url("**/my-account")
    page.locator(".side").get_by_role("link", name="Bills & payments").click(); n += 1
    page.locator("#count").filter(has_text="documents").wait_for()
    page.locator("#period").select_option("2025"); n += 1
    page.locator("#count").filter(has_text="documents").wait_for()
    records = []
    for row in page.locator("#bills tbody tr.bill").all():
        d, t, ref, _, amt = [c.strip() for c in row.locator("td").all_inner_texts()[:5]]
        if t != "Bill":
            continue
        dd, mon, yy = d.split()
        records.append({"id": ref, "date": "%s-%02d-%02d" % (yy, MONTHS[mon], int(dd)),
                        "amount": amt.replace("£", "").replace(",", ""), "currency": "GBP"})
    return {"records": records, "actions": n}
