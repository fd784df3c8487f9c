// Seventeen bills, newest first, drawn by the page: "Load more" appends the next six each time (fetched),
// and the pager shows five at a time in place (the address never changes).
const BILLS = Array.from({ length: 17 }, (_, index) => {
  const month = 12 - (index % 12);
  const year = index < 12 ? 2026 : 2025;
  const number = `BL-${year}-${String(100 - index).padStart(4, '0')}`;
  const amount = `${(40 + index * 3.5).toFixed(2)} EUR`;
  return [number, `${String(month).padStart(2, '0')}/${year}`, `05/${String(month).padStart(2, '0')}/${year}`, amount];
});

function row(bill) {
  return `<tr><td>${bill[0]}</td><td>${bill[2]}</td><td>${bill[3]}</td></tr>`;
}

function table() {
  return document.querySelector('#bills tbody');
}
