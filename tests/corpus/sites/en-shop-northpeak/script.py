from datetime import datetime


def run(page, base_url: str, username: str, password: str) -> dict:
    n = 0
    base = base_url.rstrip('/')
    page.goto(base + '/'); n += 1
    page.get_by_role('button', name='Cookie Settings').click(); n += 1
    for cb in page.locator('#onetrust-pc-sdk input[data-p]').all():
        cb.uncheck(); n += 1
    page.get_by_role('button', name='Confirm My Choices').click(); n += 1
    page.locator('#onetrust-consent-sdk').wait_for(state='detached')
    page.get_by_role('link', name='Account', exact=True).click(); n += 1
    page.locator('#li-email').fill(username); n += 1
    page.locator('#li-pw').fill(password); n += 1
    page.get_by_role('button', name='Sign in', exact=True).click(); n += 1
    page.get_by_role('link', name='View all orders').click(); n += 1
    while page.locator('#load-more').count():
        before = page.locator('#orders .ord').count()
        page.locator('#load-more').click(); n += 1
        page.wait_for_function('c => document.querySelectorAll("#orders .ord").length > c', arg=before)
    orders = []
    for card in page.locator('#orders .ord').all():
        placed = datetime.strptime(card.locator('b').first.inner_text().strip(), '%B %d, %Y').date()
        orders.append((card.locator('.ono').inner_text().strip(), placed))
    records = []
    for no, placed in orders:
        if placed < datetime(2025, 12, 1).date():   # invoices are issued within a few days of the order
            continue
        page.goto(base + '/account/orders/' + no); n += 1
        inv = page.locator('#invoice')
        if not inv.count():
            continue
        d = datetime.strptime(inv.locator('.inv-date').inner_text().strip(), '%B %d, %Y').date()
        if d.year != 2026:
            continue
        amt = inv.locator('.inv-amt').inner_text().replace('$', '').replace(',', '')
        records.append({'id': inv.locator('.inv-no').inner_text().strip(), 'date': d.isoformat(), 'amount': '%.2f' % float(amt), 'currency': 'USD'})
    return {'records': records, 'actions': n}
