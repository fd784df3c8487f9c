// Two-layer consent fixtures. [data-press] records its name at /_/press; [data-opens] swaps the first
// layer for the second; [data-save] records the toggles' states with the press, then closes the notice.
const press = (name) => fetch('/_/press?control=' + encodeURIComponent(name));

const isOn = (toggle) => (toggle.matches('input') ? toggle.checked : toggle.getAttribute('aria-checked') === 'true');

document.addEventListener('click', (event) => {
  const toggle = event.target.closest('[role=switch]');
  if (toggle && toggle.getAttribute('aria-disabled') !== 'true') {
    toggle.setAttribute('aria-checked', String(!isOn(toggle)));
  }
  const control = event.target.closest('[data-press]');
  if (!control) return;
  let name = control.dataset.press;
  if (control.hasAttribute('data-save')) {
    const states = [...document.querySelectorAll('[data-purpose]')].map((t) => t.dataset.purpose + '=' + (isOn(t) ? 1 : 0));
    name += '|' + states.join('|');
  }
  press(name);
  const opens = control.dataset.opens && document.getElementById(control.dataset.opens);
  if (opens) {
    document.getElementById('first').remove();
    opens.hidden = false;
  } else if (control.dataset.press !== 'settings') {
    setTimeout(() => document.querySelectorAll('.notice').forEach((notice) => notice.remove()), 150);
  }
});
