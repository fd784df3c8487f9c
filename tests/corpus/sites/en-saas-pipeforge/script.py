import re
from datetime import datetime


def run(page, base_url: str, username: str, password: str) -> dict:
    n = 0
    base = base_url.rstrip('/')
    page.goto(base + '/'); n += 1
    # Usercentrics-like banner in an open shadow root: reject is only on the 2nd layer
    page.locator('#usercentrics-root').get_by_role('button', name='Manage choices').click(); n += 1
    page.locator('#usercentrics-root').get_by_role('button', name='Reject all').click(); n += 1
    page.locator('#usercentrics-root').wait_for(state='detached')
    page.get_by_role('button', name='Menu').click(); n += 1
    page.locator('#menu').get_by_role('link', name='Sign on', exact=True).click(); n += 1
    page.get_by_label('Customer number').fill(username); n += 1
    page.get_by_label('Password').fill(password); n += 1
    page.get_by_role('button', name='Sign on', exact=True).click(); n += 1
    page.wait_for_url(re.compile(r'/dashboard$'))
    records = []
    p = 1
    while True:
        page.goto(base + '/org/plan/invoices?page=%d' % p); n += 1
        for row in page.locator('#invoices tbody tr').all():
            c = [x.inner_text().strip() for x in row.locator('td').all()]
            d = datetime.strptime(c[0], '%b %d, %Y').date()
            if c[3] != 'Invoice' or d.year != 2026:
                continue
            records.append({'id': c[1], 'date': d.isoformat(), 'amount': '%.2f' % float(c[4].replace('$', '').replace(',', '')), 'currency': 'USD'})
        if page.locator('a[rel=next]').count() == 0:
            break
        p += 1
    return {'records': records, 'actions': n}
