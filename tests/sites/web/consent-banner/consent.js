// Consent fixtures: every [data-press] records its name at /_/press; [data-closes] removes a notice;
// [data-then] shows another notice after a delay (a second notice appearing later).
const press = (name) => fetch('/_/press?control=' + encodeURIComponent(name));

document.addEventListener('click', (event) => {
  const control = event.target.closest('[data-press]');
  if (!control) return;
  if (control.tagName === 'A' && control.getAttribute('href') === '#') event.preventDefault();
  press(control.dataset.press);
  const closes = control.dataset.closes && document.getElementById(control.dataset.closes);
  if (closes) setTimeout(() => closes.remove(), 150);
  const then = control.dataset.then && document.getElementById(control.dataset.then);
  if (then) setTimeout(() => { then.hidden = false; }, Number(control.dataset.after || 400));
});

// A field with [data-then] shows another notice once something is typed into it.
document.addEventListener('input', (event) => {
  const then = event.target.dataset && event.target.dataset.then && document.getElementById(event.target.dataset.then);
  if (then) then.hidden = false;
});
