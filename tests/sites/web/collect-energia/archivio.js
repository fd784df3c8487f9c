// The period selector changes the table in place.
const years = {"2026": "<table><thead><tr><th>N. bolletta</th><th>Data emissione</th><th>Scadenza</th><th>Importo</th><th>Stato</th></tr></thead><tbody><tr><td>B-2026-0001</td><td>15/01/2026</td><td>05/02/2026</td><td>61,20 \u20ac</td><td>Pagata</td></tr><tr><td>B-2026-0002</td><td>15/02/2026</td><td>05/03/2026</td><td>64,90 \u20ac</td><td>Pagata</td></tr><tr><td>B-2026-0003</td><td>15/03/2026</td><td>05/04/2026</td><td>55,00 \u20ac</td><td>Pagata</td></tr><tr><td>B-2026-0004</td><td>15/04/2026</td><td>05/05/2026</td><td>49,75 \u20ac</td><td>Pagata</td></tr><tr><td>B-2026-0005</td><td>15/05/2026</td><td>05/06/2026</td><td>47,10 \u20ac</td><td>Pagata</td></tr><tr><td>B-2026-0006</td><td>15/06/2026</td><td>05/07/2026</td><td>58,30 \u20ac</td><td>Da pagare</td></tr></tbody></table>", "2025": "<table><thead><tr><th>N. bolletta</th><th>Data emissione</th><th>Scadenza</th><th>Importo</th><th>Stato</th></tr></thead><tbody><tr><td>B-2025-0010</td><td>15/10/2025</td><td>05/11/2025</td><td>52,40 \u20ac</td><td>Pagata</td></tr><tr><td>B-2025-0011</td><td>15/11/2025</td><td>05/12/2025</td><td>57,80 \u20ac</td><td>Pagata</td></tr><tr><td>B-2025-0012</td><td>15/12/2025</td><td>05/01/2026</td><td>60,10 \u20ac</td><td>Pagata</td></tr></tbody></table>", "2024": "<p>Nessuna bolletta per questo anno.</p>"};
function show(year) {
  document.getElementById('year-panel').innerHTML = years[year];
  for (const tab of document.querySelectorAll('[role=tab]')) {
    tab.setAttribute('aria-selected', String(tab.dataset.year === year));
  }
}
for (const tab of document.querySelectorAll('[role=tab]')) tab.addEventListener('click', () => show(tab.dataset.year));
show('2026');
