// Fixture behaviour: a list loaded after the page opens, and a button whose press is recorded.
fetch('/_/delay?ms=300&type=application/json&body=' + encodeURIComponent('["B-001","B-002"]'))
  .then((answer) => answer.json())
  .then((codes) => {
    const list = document.getElementById('bills');
    for (const code of codes) {
      const item = document.createElement('li');
      item.textContent = 'Bill ' + code;
      list.appendChild(item);
    }
  });
document.getElementById('hello').addEventListener('click', () => {
  fetch('/_/press?control=hello');
});
