"""Baseline solution for en-pa-harrow-county."""
from datetime import datetime


def _iso(s):
    return datetime.strptime(s.strip(), "%B %d, %Y").strftime("%Y-%m-%d")


def run(page, base_url, username, password):
    n = 0
    page.goto(base_url); n += 1
    dlg = page.locator("#CybotCookiebotDialog")
    dlg.get_by_role("button", name="Customize").click(); n += 1
    dlg.get_by_role("button", name="Reject all").click(); n += 1
    dlg.wait_for(state="detached")
    page.locator("header").get_by_role("link", name="Sign on", exact=True).click(); n += 1
    page.get_by_label("User ID", exact=True).fill(username); n += 1
    page.get_by_label("Password").fill(password); n += 1
    page.get_by_role("button", name="Sign on").click(); n += 1
    page.locator(".side").get_by_role("link", name="Documents & statements").click(); n += 1
    page.wait_for_selector("#docs-status:has-text('documents')")
    page.select_option("#range", "all"); n += 1
    page.wait_for_function("document.getElementById('docs-status').textContent.endsWith('documents') && "
                           "document.querySelectorAll('#docs-table tbody tr').length > 3")
    records = []
    for row in page.locator("#docs-table tbody tr").all():
        c = [x.strip() for x in row.locator("td").all_inner_texts()]
        if c[1] in ("Property Tax Bill", "Supplemental Tax Bill"):
            records.append({"id": c[2], "date": _iso(c[0]), "amount": "%.2f" % float(c[4].replace("$", "").replace(",", "")), "currency": "USD"})
    return {"records": records, "actions": n}
