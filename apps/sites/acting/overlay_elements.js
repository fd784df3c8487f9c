// Facts about one control's element that the snapshot does not carry, for the cookie and
// overlay procedures (acting/overlay_elements.py). Each script takes the element and only
// reads: it writes no attribute, global or node.

// --- toggle_state ---
// Whether a checkbox, radio or switch is on: true, false, or null when it says nothing.
(el) => {
  const input = el instanceof HTMLInputElement ? el : el.querySelector('input[type=checkbox], input[type=radio]');
  if (input && (input.type === 'checkbox' || input.type === 'radio')) return input.checked;
  for (const name of ['aria-checked', 'aria-pressed']) {
    const value = el.getAttribute(name);
    if (value === 'true') return true;
    if (value === 'false') return false;
  }
  return null;
}

// --- exit_kind ---
// How a press on the element would leave the page: through a link ('navigates'), a form
// submission ('submits'), or neither ('stays').
(el) => {
  const anchor = el.closest('a[href], area[href]');
  if (anchor) {
    const raw = anchor.getAttribute('href').trim();
    if (anchor.hasAttribute('download')) return 'navigates';
    if (raw === '' || raw.startsWith('#')) return 'stays';
    if (/^javascript:\s*(void\s*\(?\s*0\s*\)?\s*;?|;)?$/i.test(raw)) return 'stays';
    const target = new URL(anchor.href, document.baseURI);
    const here = new URL(document.URL);
    target.hash = ''; here.hash = '';
    return target.href === here.href ? 'stays' : 'navigates';
  }
  const button = el.closest('button, input[type=submit], input[type=image]');
  if (button) {
    const type = (button.getAttribute('type') || 'submit').toLowerCase();
    if ((type === 'submit' || type === 'image') && button.form) return 'submits';
  }
  return 'stays';
}

// --- toggles_on ---
// Labels of the toggles still on and switchable in the panel around the element, hidden
// ones included: the last look before choices are saved.
(el) => {
  const parentOf = (node) => node.parentElement || (node.getRootNode() && node.getRootNode().host) || null;
  const isPanel = (node) => {
    if (node.tagName === 'DIALOG' || node.getAttribute('aria-modal') === 'true') return true;
    const role = (node.getAttribute('role') || '').toLowerCase();
    if (role === 'dialog' || role === 'alertdialog') return true;
    const position = getComputedStyle(node).position;
    return position === 'fixed' || position === 'sticky';
  };
  let panel = el;
  while (panel && !isPanel(panel)) panel = parentOf(panel);
  const root = panel || document.body;
  const toggles = [];
  const visit = (node) => {
    for (const child of node.children) {
      if (child.matches('input[type=checkbox], [role=switch], [role=checkbox], [role=menuitemcheckbox]')) {
        toggles.push(child);
      }
      if (child.shadowRoot) visit(child.shadowRoot);
      visit(child);
    }
  };
  visit(root);
  const labelOf = (toggle) => {
    const named = toggle.getAttribute('aria-label');
    if (named) return named;
    if (toggle.labels && toggle.labels.length) return toggle.labels[0].textContent || '';
    const around = toggle.closest('label, li, tr, [role=row], [role=listitem]');
    return (around || toggle).textContent || '';
  };
  return toggles
    .filter((toggle) => (toggle instanceof HTMLInputElement
      ? toggle.checked : toggle.getAttribute('aria-checked') === 'true'))
    .filter((toggle) => !(toggle.disabled || toggle.getAttribute('aria-disabled') === 'true'))
    .map((toggle) => labelOf(toggle).replace(/\s+/g, ' ').trim().slice(0, 200));
}
