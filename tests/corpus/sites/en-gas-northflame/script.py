"""Baseline solution for en-gas-northflame."""
from datetime import datetime


def _iso(s):
    return datetime.strptime(s.strip(), "%d %b %Y").strftime("%Y-%m-%d")


def run(page, base_url, username, password):
    n = 0
    page.goto(base_url); n += 1
    frame = page.frame_locator("#sp_message_iframe_88120")
    frame.get_by_role("button", name="Accept necessary only").click(); n += 1
    page.locator("#sp_message_container_88120").wait_for(state="detached")
    page.get_by_role("link", name="Account", exact=True).click(); n += 1
    page.get_by_label("Username").fill(username); n += 1
    page.get_by_label("Password").fill(password); n += 1
    page.get_by_role("button", name="Sign in").click(); n += 1
    page.locator("nav.tabs").get_by_role("link", name="Statements").click(); n += 1
    records = []
    while True:
        page.wait_for_selector("#statements tbody tr")
        oldest = None
        for row in page.locator("#statements tbody tr").all():
            c = [x.strip() for x in row.locator("td").all_inner_texts()]
            d = _iso(c[0])
            oldest = d
            if c[1] == "Statement" and d >= "2026-03-01":
                records.append({"id": c[2], "date": d, "amount": "%.2f" % float(c[4].replace("\u00a3", "").replace(",", "")),
                                "currency": "GBP"})
        nxt = page.get_by_role("link", name="Next page")
        if oldest < "2026-03-01" or nxt.count() == 0:
            break
        nxt.click(); n += 1
    return {"records": records, "actions": n}
