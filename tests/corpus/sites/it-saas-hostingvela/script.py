import re
from datetime import datetime


def run(page, base_url: str, username: str, password: str) -> dict:
    n = 0
    base = base_url.rstrip('/')
    page.goto(base + '/'); n += 1
    page.frame_locator('#cmp-frame').get_by_role('link', name='Continua senza accettare').click(); n += 1
    page.locator('#cmp-frame').wait_for(state='detached')
    page.locator('header').get_by_role('link', name='Area riservata', exact=True).click(); n += 1
    page.get_by_label('Codice cliente').fill(username); n += 1
    page.get_by_role('button', name='Avanti').click(); n += 1
    page.get_by_label('Password', exact=True).fill(password); n += 1
    page.get_by_role('button', name='Accedi', exact=True).click(); n += 1
    page.get_by_role('link', name='Non ora, vai alla tua area').click(); n += 1
    page.get_by_role('link', name='Documenti contabili').first.click(); n += 1
    records = []
    panels = page.locator('#documenti .acc')
    for i in range(panels.count()):
        acc = panels.nth(i)
        head = acc.locator('button').first
        if 'Fattura' not in head.inner_text():
            continue
        head.click(); n += 1
        body = acc.locator('.body')
        body.wait_for(state='visible')
        dd = body.locator('dd')
        num = dd.nth(0).inner_text().strip()
        d = datetime.strptime(dd.nth(1).inner_text().strip(), '%d/%m/%Y').date()
        tot = body.locator('dd.tot').inner_text().replace('\u20ac', '').replace('.', '').replace(',', '.').strip()
        records.append({'id': num, 'date': d.isoformat(), 'amount': '%.2f' % float(tot), 'currency': 'EUR'})
    return {'records': records, 'actions': n}
