// Fixture behaviours for clicks: in-place answers, late navigations, routes drawn late, a busy page.
const press = (name) => fetch('/_/press?control=' + encodeURIComponent(name));

document.addEventListener('click', (event) => {
  const button = event.target.closest('[data-press]');
  if (button) press(button.dataset.press);
});

// In place, with a data request: more rows arrive.
document.getElementById('more').addEventListener('click', () => {
  const codes = JSON.stringify(['B-003', 'B-004']);
  fetch('/_/delay?ms=400&type=application/json&body=' + encodeURIComponent(codes))
    .then((answer) => answer.json())
    .then((list) => {
      for (const code of list) {
        const row = document.createElement('tr');
        row.innerHTML = '<td>' + code + '</td><td>40.00</td><td><button type="button">Download</button></td>';
        document.getElementById('bills').appendChild(row);
      }
    });
});

// In place, without any request: a panel opens.
document.getElementById('filters').addEventListener('click', (event) => {
  const panel = document.getElementById('filter-panel');
  panel.hidden = !panel.hidden;
  event.currentTarget.setAttribute('aria-expanded', String(!panel.hidden));
});

// A navigation that starts half a second after the click.
document.getElementById('later').addEventListener('click', () => {
  setTimeout(() => { location.href = '/next.html'; }, 500);
});

// The address changes at once; the new view is drawn 800 ms later.
document.getElementById('route').addEventListener('click', (event) => {
  event.preventDefault();
  history.pushState({}, '', '/route/detail');
  event.currentTarget.setAttribute('aria-current', 'page');
  setTimeout(() => {
    document.getElementById('main').innerHTML = '<h1>Bill B-001</h1><p>Amount 30.00, due 31/01/2026.</p>';
  }, 800);
});

// The page acts, then stays busy for three seconds: the click call cannot tell what happened.
document.getElementById('busy').addEventListener('click', () => {
  press('busy');
  const started = Date.now();
  while (Date.now() - started < 3000) { /* busy */ }
});
