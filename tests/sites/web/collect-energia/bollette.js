// The bills arrive by a request after the page opens, behind a veil; a
// long-polling connection stays open meanwhile; "Mostra altre" loads more in place.
function delayed(file, ms) {
  return fetch(file).then((answer) => answer.text()).then((body) =>
    fetch('/_/delay?ms=' + ms + '&type=application/json&body=' + encodeURIComponent(body)))
    .then((answer) => answer.json());
}
function render(bills) {
  const list = document.getElementById('bills');
  for (const bill of bills) {
    const item = document.createElement('div');
    item.className = 'bolletta';
    item.innerHTML = '<p><b>Numero:</b> ' + bill.numero + '</p><p><b>Emessa:</b> ' + bill.mese + '</p>' +
      '<p><b>Importo:</b> ' + bill.importo + '</p><p><b>Stato:</b> ' + bill.stato + '</p>';
    list.appendChild(item);
  }
}
function poll() { fetch('/_/hold?s=30').then(poll, () => {}); }
poll();
delayed('/bollette-1.json', 900).then((bills) => {
  render(bills);
  document.getElementById('veil').remove();
  const more = document.getElementById('more');
  more.hidden = false;
  more.addEventListener('click', () => {
    delayed('/bollette-2.json', 400).then((older) => { render(older); more.remove(); });
  });
});
