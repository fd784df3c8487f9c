// Shared by the loading pages: draw the bills that /_/delay answers after ?ms= milliseconds.
function loadBills(ms) {
  const codes = JSON.stringify(['B-101', 'B-102', 'B-103']);
  return fetch('/_/delay?ms=' + ms + '&type=application/json&body=' + encodeURIComponent(codes))
    .then((answer) => answer.json())
    .then((list) => {
      const target = document.getElementById('bills');
      for (const code of list) {
        const item = document.createElement('li');
        item.innerHTML = 'Bill ' + code + ' <a href="/bill/' + code + '">Open</a>';
        target.appendChild(item);
      }
    });
}
