// Bills per year, drawn by the page itself for the year asked (the form's query, or a chooser's change).
const BILLS = {
  '2026': [['PB-2026-03', '12/03/2026', '81,20 EUR'], ['PB-2026-02', '11/02/2026', '90,05 EUR'], ['PB-2026-01', '14/01/2026', '77,40 EUR']],
  '2025': [['PB-2025-12', '12/12/2025', '70,00 EUR'], ['PB-2025-11', '13/11/2025', '66,10 EUR'], ['PB-2025-10', '10/10/2025', '64,90 EUR']],
  '2024': [['PB-2024-12', '11/12/2024', '59,00 EUR'], ['PB-2024-11', '12/11/2024', '58,30 EUR']],
};
const LAST_12 = [...BILLS['2026'], ...BILLS['2025'].slice(0, 1)];

function drawBills(rows) {
  const body = document.querySelector('#bills tbody');
  body.innerHTML = rows.map((row) => `<tr><td>${row[0]}</td><td>${row[1]}</td><td>${row[2]}</td></tr>`).join('');
}

function rowsFor(choice) {
  return choice === 'last12' ? LAST_12 : BILLS[choice] || [];
}
