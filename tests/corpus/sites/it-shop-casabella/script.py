from datetime import datetime


def run(page, base_url: str, username: str, password: str) -> dict:
    n = 0
    base = base_url.rstrip('/')
    page.goto(base + '/'); n += 1
    page.get_by_role('button', name='Accetta solo i necessari').click(); n += 1   # banner appears after ~1.5 s
    page.locator('#cky-consent').wait_for(state='detached')
    page.get_by_role('button', name='Il mio account').click(); n += 1
    page.locator('#lg-email').fill(username); n += 1
    page.locator('#lg-pw').fill(password); n += 1
    page.locator('#t-login').get_by_role('button', name='Accedi').click(); n += 1
    page.wait_for_url('**/il-mio-account')
    page.get_by_role('link', name='Fatture e documenti').first.click(); n += 1
    page.get_by_role('tab', name='2026').click(); n += 1
    page.locator('#docs tbody tr[data-periodo="2026"]').first.wait_for()
    records = []
    for row in page.locator('#docs tbody tr').all():
        c = [x.inner_text().strip() for x in row.locator('td').all()]
        if c[0] != 'Fattura':
            continue
        d = datetime.strptime(c[2], '%d/%m/%Y').date()
        amt = c[5].replace('\u20ac', '').replace('.', '').replace(',', '.').strip()
        records.append({'id': c[1], 'date': d.isoformat(), 'amount': '%.2f' % float(amt), 'currency': 'EUR'})
    return {'records': records, 'actions': n}
