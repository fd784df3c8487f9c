// Each "Dettagli" button shows or hides the panel it controls, in place, and says it was pressed.
for (const button of document.querySelectorAll('button[aria-controls]')) {
  button.addEventListener('click', () => {
    const panel = document.getElementById(button.getAttribute('aria-controls'));
    const open = button.getAttribute('aria-expanded') !== 'true';
    button.setAttribute('aria-expanded', String(open));
    panel.hidden = !open;
    fetch('/_/press?control=' + encodeURIComponent(button.dataset.press || button.getAttribute('aria-controls')));
  });
}
for (const details of document.querySelectorAll('details')) {
  details.addEventListener('toggle', () => {
    if (details.open) fetch('/_/press?control=' + encodeURIComponent(details.id));
  });
}
