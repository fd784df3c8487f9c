import re
from datetime import datetime


def run(page, base_url: str, username: str, password: str) -> dict:
    n = 0
    base = base_url.rstrip('/')
    page.goto(base + '/'); n += 1
    # cookie bar shows up ~2 s after load
    page.get_by_role('button', name='Reject all', exact=True).click(); n += 1
    page.locator('#cc-bar').wait_for(state='detached')
    page.get_by_role('link', name='Log in', exact=True).first.click(); n += 1
    page.get_by_label('Email').fill(username); n += 1
    page.get_by_role('button', name='Continue', exact=True).click(); n += 1
    page.get_by_label('Password').fill(password); n += 1
    page.get_by_role('button', name='Log in', exact=True).click(); n += 1
    page.wait_for_url(re.compile(r'/app$'))
    page.goto(base + '/app/settings/billing'); n += 1
    page.locator('#billing-history tr.bh-row').first.wait_for()
    records = []
    for row in page.locator('#billing-history tr.bh-row').all():
        cells = [c.inner_text().strip() for c in row.locator('td').all()]
        date_s, number, _desc, kind, amount = cells[:5]
        if kind != 'Invoice':
            continue
        d = datetime.strptime(date_s, '%b %d, %Y').date()
        if d.year != 2026:
            continue
        amt = amount.replace('$', '').replace(',', '')
        records.append({'id': number, 'date': d.isoformat(), 'amount': '%.2f' % float(amt), 'currency': 'USD'})
    return {'records': records, 'actions': n}
