import re
from datetime import datetime


def run(page, base_url: str, username: str, password: str) -> dict:
    n = 0
    base = base_url.rstrip('/')
    page.goto(base + '/'); n += 1
    page.locator('#cm-dialog').get_by_role('button', name='Accept only necessary').click(); n += 1
    page.locator('#cm-backdrop').wait_for(state='detached')
    page.get_by_role('button', name='Account menu').click(); n += 1
    page.locator('#acct-dd').get_by_role('button', name='My Account').click(); n += 1
    page.locator('#si-email').fill(username); n += 1
    page.locator('#si-pw').fill(password); n += 1
    page.locator('#signin-form').get_by_role('button', name='Sign in').click(); n += 1
    page.get_by_role('link', name='Continue to your account').click(); n += 1
    page.get_by_role('link', name='See all').click(); n += 1
    page.locator('#bh tbody tr').first.wait_for()
    records = []
    cutoff = datetime(2026, 3, 1).date()
    while True:
        older = False
        for row in page.locator('#bh tbody tr').all():
            c = [x.inner_text().strip() for x in row.locator('td').all()]
            d = datetime.strptime(c[0], '%d %b %Y').date()
            if d < cutoff:
                older = True
                continue
            records.append({'id': c[1], 'date': d.isoformat(), 'amount': '%.2f' % float(c[5].replace('\u00a3', '').replace(',', '')), 'currency': 'GBP'})
        nxt = page.locator('#pg').get_by_role('button', name='Next')
        if older or nxt.is_disabled():
            break
        first = page.locator('#bh tbody tr td').nth(1).inner_text()
        nxt.click(); n += 1
        page.wait_for_function('f => document.querySelector("#bh tbody tr td:nth-child(2)").innerText !== f', arg=first)
    return {'records': records, 'actions': n}
