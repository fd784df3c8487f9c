from datetime import datetime


def run(page, base_url: str, username: str, password: str) -> dict:
    n = 0
    base = base_url.rstrip('/')
    page.goto(base + '/'); n += 1
    page.locator('header').get_by_role('link', name='Login').click(); n += 1
    page.locator('#username').fill(username); n += 1
    page.locator('#password').fill(password); n += 1
    page.get_by_role('button', name='Accedi', exact=True).click(); n += 1
    page.wait_for_url('**/profilo')
    orders = []
    p = 1
    while True:
        page.goto(base + '/profilo/ordini?page=%d' % p); n += 1
        orders += [t.strip() for t in page.locator('#ordini tbody tr td:first-child a').all_inner_texts()]
        if not page.locator('.pag a.succ').count():
            break
        p += 1
    records = []
    for no in orders:
        page.goto(base + '/profilo/ordini/' + no); n += 1
        doc = page.locator('.doc[data-tipo=fattura]')
        if not doc.count():
            continue
        d = datetime.strptime(doc.locator('.data').inner_text().strip(), '%d/%m/%Y').date()
        amt = doc.locator('.imp').inner_text().replace('\u20ac', '').replace('.', '').replace(',', '.').strip()
        records.append({'id': doc.locator('.num').inner_text().strip(), 'date': d.isoformat(), 'amount': '%.2f' % float(amt), 'currency': 'EUR'})
    return {'records': records, 'actions': n}
