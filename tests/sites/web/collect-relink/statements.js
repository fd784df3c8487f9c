// Statements per period, drawn by the page for the period asked (the form's query). The rows show no
// number: it is on each statement's own page, which every list links to ("View").
const STATEMENTS = {
  '2026': [['30/11/2026', 'Current account statement - November 2026', '2026-11'],
           ['31/10/2026', 'Current account statement - October 2026', '2026-10'],
           ['31/01/2026', 'Current account statement - January 2026', '2026-01']],
  'last12': [['30/11/2026', 'Current account statement - November 2026', '2026-11'],
             ['31/10/2026', 'Current account statement - October 2026', '2026-10'],
             ['31/12/2025', 'Current account statement - December 2025', '2025-12']],
};

function drawStatements(choice) {
  const body = document.querySelector('#statements tbody');
  body.innerHTML = (STATEMENTS[choice] || []).map((row) =>
    `<tr><td>${row[0]}</td><td>${row[1]}</td><td>Current Account</td>` +
    `<td><a href="/statement.html?id=${row[2]}">View</a></td></tr>`).join('');
}

// A statement's own page: its number, date and closing balance.
const DETAILS = {
  '2026-11': ['30/11/2026', '€4,237.37'], '2026-10': ['31/10/2026', '€3,921.82'],
  '2026-01': ['31/01/2026', '€3,557.17'], '2025-12': ['31/12/2025', '€3,100.00'],
};

function drawStatement(id) {
  const [date, balance] = DETAILS[id];
  document.getElementById('statement').innerHTML =
    `<tr><th>Document number</th><td>CA${id}</td></tr><tr><th>Date</th><td>${date}</td></tr>` +
    `<tr><th>Account</th><td>Current Account</td></tr><tr><th>Closing balance</th><td>${balance}</td></tr>`;
}
