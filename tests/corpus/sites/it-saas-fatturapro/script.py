import re
from datetime import datetime


def run(page, base_url: str, username: str, password: str) -> dict:
    n = 0
    base = base_url.rstrip('/')
    page.goto(base + '/'); n += 1
    page.get_by_role('button', name='Chiudi').click(); n += 1   # Iubenda "x" = continue without accepting
    page.locator('#iubenda-cs-banner').wait_for(state='detached')
    page.get_by_role('link', name='Area clienti', exact=True).click(); n += 1
    page.get_by_label('Codice fiscale o Partita IVA').fill(username); n += 1
    page.get_by_label('Password', exact=True).fill(password); n += 1
    page.get_by_role('button', name='Accedi', exact=True).click(); n += 1
    page.get_by_role('link', name='Vedi tutte').click(); n += 1
    with page.expect_navigation():
        page.locator('#anno').select_option('2025'); n += 1
    records = []
    for row in page.locator('#documenti tbody tr').all():
        c = [x.inner_text().strip() for x in row.locator('td').all()]
        if len(c) < 6 or c[0] != 'Fattura':
            continue
        d = datetime.strptime(c[2], '%d/%m/%Y').date()
        amt = c[5].replace('\u20ac', '').replace('.', '').replace(',', '.').strip()
        records.append({'id': c[1], 'date': d.isoformat(), 'amount': '%.2f' % float(amt), 'currency': 'EUR'})
    return {'records': records, 'actions': n}
