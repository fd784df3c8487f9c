// Promotional pop-ups: [data-press] records its name at /_/press; [data-closes] removes the pop-up.
document.addEventListener('click', (event) => {
  const control = event.target.closest('[data-press]');
  if (!control) return;
  fetch('/_/press?control=' + encodeURIComponent(control.dataset.press));
  const closes = control.dataset.closes && document.getElementById(control.dataset.closes);
  if (closes) setTimeout(() => closes.remove(), 150);
});
