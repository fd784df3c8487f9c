from datetime import datetime, date


def run(page, base_url: str, username: str, password: str) -> dict:
    n = 0
    base = base_url.rstrip('/')
    cutoff = date(2026, 3, 1)
    page.goto(base + '/'); n += 1
    page.get_by_role('button', name='Personalizza').click(); n += 1
    page.get_by_role('button', name='Rifiuta tutto').click(); n += 1
    page.locator('#didomi-host').wait_for(state='detached')
    page.get_by_role('link', name='MyModa', exact=True).click(); n += 1
    page.get_by_label('Email').fill(username); n += 1
    page.get_by_label('Password').fill(password); n += 1
    page.get_by_role('button', name='Accedi', exact=True).click(); n += 1
    page.get_by_role('link', name='Vedi tutti gli ordini').click(); n += 1

    def oldest_invoice():
        ds = [datetime.strptime(x, '%d/%m/%Y').date() for x in page.locator('.doc[data-kind=fattura] .d').all_inner_texts()]
        return min(ds) if ds else date.max
    while oldest_invoice() >= cutoff and page.locator('#mostra-altri').count():
        before = page.locator('#lista-ordini .o').count()
        page.locator('#mostra-altri').click(); n += 1
        page.wait_for_function('c => document.querySelectorAll("#lista-ordini .o").length > c', arg=before)
    records = []
    for doc in page.locator('.doc[data-kind=fattura]').all():
        d = datetime.strptime(doc.locator('.d').inner_text().strip(), '%d/%m/%Y').date()
        if d < cutoff:
            continue
        amt = doc.locator('.a').inner_text().replace('\u20ac', '').replace('.', '').replace(',', '.').strip()
        records.append({'id': doc.locator('.num').inner_text().strip(), 'date': d.isoformat(), 'amount': '%.2f' % float(amt), 'currency': 'EUR'})
    return {'records': records, 'actions': n}
