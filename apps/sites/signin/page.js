// The sign-in procedure's hands on a page (signin/page.py): reading a form's prose and
// looking for challenge widgets, then the two calls around typing into a field.

// --- read ---
// Read-only helpers for signing in: read an observed form's static prose
// (the form found by its fields), and look for a visible challenge widget.
// Nothing here writes to the page (no attributes, globals or nodes).
(request) => {
  const FIELD_TAGS = new Set(['INPUT', 'SELECT', 'TEXTAREA']);
  const BUTTON_INPUTS = new Set(['button', 'submit', 'reset', 'image']);
  const SKIP_TEXT = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'TEXTAREA', 'SELECT', 'OPTION', 'INPUT']);
  const BLOCKS = new Set(['P', 'DIV', 'LI', 'DD', 'DT', 'LABEL', 'SECTION', 'ARTICLE', 'ASIDE', 'BLOCKQUOTE',
    'FIELDSET', 'LEGEND', 'SUMMARY', 'DETAILS', 'TD', 'TH', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'FORM', 'SPAN',
    'SMALL', 'STRONG', 'EM', 'B', 'I', 'Q']);

  function visible(el) {
    if (typeof el.checkVisibility === 'function') {
      if (!el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) return false;
    }
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.height > 0;
  }

  function isField(el) {
    if (!FIELD_TAGS.has(el.tagName)) return false;
    return el.tagName !== 'INPUT' || !BUTTON_INPUTS.has((el.getAttribute('type') || '').toLowerCase());
  }

  function describe(el) {
    const tag = el.tagName;
    const type = tag === 'INPUT' ? (el.getAttribute('type') || 'text').toLowerCase()
      : tag === 'SELECT' ? 'select' : 'textarea';
    return {
      type,
      name: el.getAttribute('name') || '',
      autocomplete: el.getAttribute('autocomplete') || '',
      placeholder: (el.getAttribute('placeholder') || '').replace(/\s+/g, ' ').trim(),
    };
  }

  function same(el, wanted) {
    const seen = describe(el);
    return seen.type === wanted.type && seen.name === wanted.name
      && seen.autocomplete === wanted.autocomplete && seen.placeholder === wanted.placeholder;
  }

  // The containers whose fields are exactly the observed ones, in order.
  function containers() {
    const wanted = request.fields;
    if (request.kind === 'form') {
      return Array.from(document.querySelectorAll('form')).filter((form) => {
        const fields = Array.from(form.elements).filter(isField);
        return fields.length >= wanted.length && wanted.every((field, k) => same(fields[k], field));
      }).map((form) => ({ root: form, fields: Array.from(form.elements).filter(isField) }));
    }
    // A group of fields outside any form: each observed field must be found once.
    const loose = Array.from(document.querySelectorAll('input, select, textarea')).filter((el) => isField(el) && !el.form);
    const fields = wanted.map((field) => loose.filter((el) => same(el, field)));
    if (fields.some((matches) => matches.length !== 1)) return [];
    const chosen = fields.map((matches) => matches[0]);
    let root = chosen[0].parentElement;
    while (root && !chosen.every((el) => root.contains(el))) root = root.parentElement;
    return [{ root: root || document.body, fields: chosen }];
  }

  function headingBefore(el, root) {
    const headings = Array.from(root.querySelectorAll('h1, h2, h3, h4, h5, h6, legend, [role=heading]'));
    let last = '';
    for (const heading of headings) {
      if (heading.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) last = heading.textContent;
    }
    return last.replace(/\s+/g, ' ').trim();
  }

  function blockOf(node, root) {
    let el = node.parentElement;
    while (el && el !== root && !BLOCKS.has(el.tagName)) el = el.parentElement;
    return el || root;
  }

  // Static, visible prose of the form's container: blocks with their heading and FAQ context.
  function prose(root) {
    const blocks = new Map();
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest('script, style, noscript, template, textarea, select, [contenteditable]')) continue;
      if (SKIP_TEXT.has(parent.tagName) || !visible(parent)) continue;
      const text = node.textContent.replace(/\s+/g, ' ').trim();
      if (!text) continue;
      const block = blockOf(node, root);
      if (!blocks.has(block)) {
        const inFaq = Boolean(block.closest('details, dl, [itemtype*="FAQ"], [class*="faq" i], [id*="faq" i]'));
        blocks.set(block, { parts: [], heading: headingBefore(block, root), inFaq });
      }
      blocks.get(block).parts.push(text);
    }
    return Array.from(blocks.values()).slice(0, 200).map((block) => ({
      text: block.parts.join(' ').slice(0, 2000), heading: block.heading.slice(0, 200), inFaq: block.inFaq,
    }));
  }

  // A visible challenge widget: a frame or element that names a known challenge kind, unless the
  // widget already handed its answer to the page: every response token of its form (or of its own
  // container) is filled — a passed Turnstile stays drawn. Only emptiness is read, never a value.
  function answered(el) {
    const scope = el.closest('form') || el.parentElement || el;
    const tokens = scope.querySelectorAll('input[name$="-response"], textarea[name$="-response"]');
    return tokens.length > 0 && Array.from(tokens).every((token) => (token.value || '').length > 0);
  }
  function challenge() {
    const marker = new RegExp(request.markers.join('|'), 'i');
    for (const frame of document.querySelectorAll('iframe')) {
      const about = (frame.getAttribute('src') || '') + ' ' + (frame.getAttribute('title') || '');
      if (marker.test(about) && visible(frame) && !answered(frame)) return true;
    }
    for (const el of document.querySelectorAll('[class], [id]')) {
      const about = (el.getAttribute('class') || '') + ' ' + (el.getAttribute('id') || '');
      if (marker.test(about) && visible(el) && !answered(el)) return true;
    }
    return false;
  }

  if (request.mode === 'challenge') return { challenge: challenge() };
  // The prose read answers for this frame's challenge widgets too (one call fewer).
  const widget = request.markers.length ? challenge() : null;
  const found = containers();
  if (found.length !== 1) return { reason: found.length ? 'ambiguous' : 'not_found', blocks: [], challenge: widget };
  return { reason: 'found', blocks: prose(found[0].root), challenge: widget };
}

// --- ready_to_type ---
// Checks a field as Playwright's `fill` does (a text-like field, shown, enabled, editable),
// selects its text and focuses it: the browser then inserts the value as a keyboard would.
// Answers 'focused', or why not.
(field) => {
  const typed = ['', 'text', 'email', 'password', 'tel', 'number', 'search', 'url'];
  if (!field.isConnected) return 'gone';
  const tag = field.nodeName.toLowerCase();
  if (tag === 'input' ? !typed.includes(field.type.toLowerCase()) : tag !== 'textarea') return 'not_a_field';
  if (!field.getClientRects().length || getComputedStyle(field).visibility !== 'visible') return 'hidden';
  if (field.disabled || field.readOnly) return 'not_editable';
  field.select();
  field.focus();
  // Inside a shadow root, the root says which of its elements has the focus.
  return field.getRootNode().activeElement === field ? 'focused' : 'not_focused';
}

// --- read_back ---
// Every field's value, in one round trip (each `input_value` would be one).
(first, others) => [first, ...others].map((field) => String(field.value))
