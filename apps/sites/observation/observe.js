// Metnos page observation: one read-only pass over one document.
//
// apps/sites/observation/reader.py evaluates this function in every frame,
// with observe_dom.js and observe_page.js placed where the marker below
// stands. It never modifies the page: no attributes, no globals, no DOM
// changes. Modes:
//   snapshot   controls, forms, panels and text of this document
//   find       the one element matching a control's identity, or how many did
//   findField  the same for a field of a form
//   host       visibility and panel of an <iframe> element (request.element)
//   readiness  waits until the DOM has been quiet for request.quietMs (a loaded
//              document unchanged for the first request.quickMs is quiet at once;
//              at most request.maxMs) and reports readyState and whether a veil covers
//   same       whether request.element and request.other are one element
//   identity   which document this is (its time origin and address)
(request) => {
  'use strict';
  /* OBSERVE HELPERS */

  function visibleControls(found, context) {
    const controls = [];
    for (const candidate of found.candidates) {
      const reach = reachOf(candidate.el, context);
      if (reach.state === 'hidden') continue;
      const control = describeControl(found, candidate, request.limits);
      // An unnamed element that only looks clickable tells nobody anything.
      if (candidate.pointer && !control.name) continue;
      control.reachable = reach.state === 'reachable';
      control.inViewport = Boolean(reach.inViewport);
      controls.push(control);
    }
    markIdentities(controls);
    return controls;
  }

  function prepare() {
    const found = walkDocument();
    const panels = selectPanels(found).slice(0, request.limits.maxPanels);
    const blocking = blockingLayer();
    const context = { blocking, panelElements: new Set(panels.map((panel) => panel.el)), bars: edgeBars(found, panels) };
    return { found, panels, blocking, context, controls: visibleControls(found, context) };
  }

  // Controls inside panels first (a banner is often last in the page), then
  // document order, within the budget; reported in document order.
  function chooseControls(reachable, max) {
    const chosen = new Set(reachable.filter((control) => control.panel !== null).slice(0, max));
    for (const control of reachable) {
      if (chosen.size >= max) break;
      chosen.add(control);
    }
    return reachable.filter((control) => chosen.has(control));
  }

  const periodOption = request.periods ? new RegExp(request.periods) : null;

  // Most options, and at least two, are years or period phrases (the collection lexicon's, as a pattern).
  function periodChooser(el) {
    if (!periodOption || el.options.length < 2) return false;
    const labels = Array.from(el.options).slice(0, request.limits.maxOptions).map((option) => plainLabel(option.label || option.text || ''));
    const periods = labels.filter((label) => periodOption.test(label)).length;
    return periods >= 2 && periods * 2 >= labels.length;
  }

  function plainLabel(text) {
    return text.normalize('NFKC').toLowerCase().replace(/[\u2018\u2019]/g, "'").replace(/[\u2013\u2014]/g, '-')
      .normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/\s+/g, ' ').trim();
  }

  function describeField(el, context) {
    const limits = request.limits;
    const tag = el.tagName;
    const native = tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA';
    const type = tag === 'INPUT' ? (el.getAttribute('type') || 'text').toLowerCase()
      : tag === 'SELECT' ? 'select' : tag === 'TEXTAREA' ? 'textarea' : explicitRole(el) || 'contenteditable';
    const maxLength = native && el.maxLength > 0 ? el.maxLength : null;
    const locked = native ? el.disabled || el.readOnly === true : el.getAttribute('aria-readonly') === 'true';
    // A chooser of periods ("Year: 2026", "Show: Last 12 months") shows the page's own periods: its
    // options and the one shown are read. Any other <select> holds a value, and no option is read.
    const options = tag === 'SELECT' && periodChooser(el)
      ? Array.from(el.options).slice(0, limits.maxOptions).map((option) => bounded(oneLine(option.label || option.text || ''), limits.nameText))
      : [];
    const chosen = options.length && el.selectedIndex >= 0 && el.selectedIndex < options.length ? options[el.selectedIndex] : '';
    return {
      options,
      chosen,
      type: bounded(type, 40),
      label: accessibleName(el, 'field', limits.nameText),
      name: bounded(el.getAttribute('name') || '', limits.nameText),
      autocomplete: bounded(el.getAttribute('autocomplete') || '', 80),
      inputMode: bounded(el.getAttribute('inputmode') || '', 40),
      placeholder: bounded(oneLine(el.getAttribute('placeholder') || ''), limits.nameText),
      required: el.required === true || el.getAttribute('aria-required') === 'true',
      visible: type !== 'hidden' && reachOf(el, context).state !== 'hidden',
      editable: type !== 'hidden' && !locked && el.getAttribute('aria-disabled') !== 'true',
      maxLength,
    };
  }

  // Fields outside any <form> group under the nearest ancestor holding a button.
  // Linear in the page: every ancestor of a button is marked once.
  function fieldGroups(found, buttons) {
    const holdsButton = new Set();
    for (const button of buttons) {
      for (let node = flatParent(button.el); node && !holdsButton.has(node); node = flatParent(node)) {
        holdsButton.add(node);
      }
    }
    const groups = new Map();
    for (const field of found.fields) {
      if (field.el.form || field.el.closest('form')) continue;
      let container = flatParent(field.el) || document.body;
      for (let node = container; node && node !== document.body; node = flatParent(node)) {
        if (holdsButton.has(node)) {
          container = node;
          break;
        }
      }
      if (!groups.has(container)) groups.set(container, { el: container, heading: field.heading, fields: [] });
      groups.get(container).fields.push(field.el);
    }
    return Array.from(groups.values());
  }

  function formEntries(prepared) {
    const { found, controls } = prepared;
    const buttons = controls.filter((control) => control.reachable && (control.role === 'button' || control.role === 'clickable'));
    const entries = found.forms.map((form) => {
      const natives = Array.from(form.el.elements).filter((el) => isField(el));
      const others = found.fields.map((field) => field.el).filter((el) => !natives.includes(el) && !el.form && within(form.el, el));
      return { el: form.el, heading: form.heading, kind: 'form', fields: natives.concat(others), buttons: [] };
    }).concat(fieldGroups(found, buttons).map((group) => ({ ...group, kind: 'group', buttons: [] })));
    const byElement = new Map(entries.map((entry) => [entry.el, entry]));
    for (const button of buttons) {
      // A button belongs to its form, or else to the nearest group of formless fields around it.
      const form = button.el.form || button.el.closest('form');
      if (form) {
        const entry = byElement.get(form);
        if (entry && entry.kind === 'form') entry.buttons.push(button);
        continue;
      }
      for (let node = flatParent(button.el); node && node !== document.body; node = flatParent(node)) {
        const entry = byElement.get(node);
        if (entry && entry.kind === 'group') {
          entry.buttons.push(button);
          break;
        }
      }
    }
    for (const entry of entries) {
      entry.name = entry.kind === 'form' ? panelName(entry.el, request.limits) : '';
      entry.key = entry.kind + '|' + fingerprint(entry.el) + '|' + entry.name;
    }
    return entries;
  }

  function describeForms(prepared, index) {
    const { found, panels, context } = prepared;
    const limits = request.limits;
    return formEntries(prepared).slice(0, limits.maxForms).map((entry) => {
      const fields = entry.fields.slice(0, limits.maxFields).map((el) => describeField(el, context));
      return {
        key: entry.key,
        kind: entry.kind,
        name: entry.name,
        section: sectionOf(found, entry.el, entry.heading),
        method: entry.kind === 'form' ? (entry.el.getAttribute('method') || 'get').toLowerCase().slice(0, 10) : '',
        action: entry.kind === 'form' ? safeUrl(entry.el.getAttribute('action') || '', limits.hrefText) : '',
        panel: panelIndexOf(found, panels, entry.el),
        visible: fields.some((field) => field.visible),
        fields,
        fieldsTotal: entry.fields.length,
        controls: entry.buttons.map((control) => index.get(control)),
      };
    });
  }

  // The one field of the one form with these features, read without touching the page.
  function findField(wanted, prepared = prepare()) {
    const forms = formEntries(prepared).filter((entry) => entry.key === wanted.form);
    if (forms.length !== 1) return { forms: forms.length, matches: 0, element: null };
    const matches = forms[0].fields.filter((el) => {
      const field = describeField(el, prepared.context);
      return field.type === wanted.type && field.name === wanted.name && field.label === wanted.label
        && field.autocomplete === wanted.autocomplete;
    });
    const field = matches.length === 1 ? describeField(matches[0], prepared.context) : null;
    return {
      forms: 1,
      matches: matches.length,
      element: field ? matches[0] : null,
      visible: Boolean(field && field.visible),
      editable: Boolean(field && field.editable),
    };
  }

  function imageAlternatives(el) {
    const alts = [];
    for (const image of el.querySelectorAll('img[alt], input[type=image][alt], [role=img][aria-label]')) {
      const alt = oneLine(image.getAttribute('alt') || image.getAttribute('aria-label') || '');
      if (!alt || !info(image).visible || alts.includes(alt)) continue;
      alts.push(bounded(alt, request.limits.nameText));
      if (alts.length >= request.limits.panelImages) break;
    }
    return alts;
  }

  function describePanel(panel, blocking) {
    const limits = request.limits;
    const name = panelName(panel.el, limits);
    const text = collectText(panel.el, 'visible', limits.panelText);
    return {
      key: panelKey(panel.kind, panel.el, name),
      kind: panel.kind,
      role: explicitRole(panel.el),
      name,
      text: text.text,
      textTruncated: text.truncated,
      imageAlts: imageAlternatives(panel.el),
      modal: panel.el === blocking || panel.el.getAttribute('aria-modal') === 'true' || panel.el.matches(':modal'),
      fraction: Math.round(viewportFraction(boxOf(panel.el)) * 100) / 100,
      frameHost: panel.el.tagName === 'IFRAME' || panel.el.tagName === 'FRAME',
    };
  }

  function describeBlocker(prepared) {
    const { blocking, found, panels, controls } = prepared;
    if (!blocking) return null;
    const panel = panels.findIndex((item) => item.el === blocking);
    let kind = 'layer';
    if (blocking.tagName === 'IFRAME' || blocking.tagName === 'FRAME' || blocking.querySelector('iframe, frame')) {
      kind = 'frame';
    } else if (!collectText(blocking, 'visible', 8).text && !controls.some((control) => within(blocking, control.el))) {
      kind = 'veil';
    }
    return { kind, panel: panel >= 0 ? panel : null };
  }

  function snapshot() {
    const prepared = prepare();
    const { found, panels, controls } = prepared;
    const reachable = controls.filter((control) => control.reachable);
    for (const control of reachable) control.panel = panelIndexOf(found, panels, control.el);
    const output = chooseControls(reachable, request.limits.maxControls);
    const index = new Map(output.map((control, position) => [control, position]));
    const forms = describeForms(prepared, index).map((form) => ({
      ...form,
      controls: form.controls.filter((position) => position !== undefined),
    }));
    const formIndex = new Map();
    forms.forEach((form, position) => form.controls.forEach((control) => formIndex.set(control, position)));
    const text = collectText(document.body || document.documentElement, 'visible', request.limits.pageText);
    // Names, rows, sections and fingerprints repeat across thousands of
    // controls: each distinct string crosses once, and rows refer to it by number.
    const strings = [];
    const numbers = new Map();
    const stringNumber = (value) => {
      let number = numbers.get(value);
      if (number === undefined) {
        number = strings.length;
        numbers.set(value, number);
        strings.push(value);
      }
      return number;
    };
    // Each control is a row of CONTROL_COLUMNS (observation/assembly.py).
    const rows = output.map((control, position) => [
      control.role,
      stringNumber(control.name),
      stringNumber(control.text),
      stringNumber(control.section),
      stringNumber(control.row),
      stringNumber(control.fingerprint),
      control.href,
      (control.enabled ? 1 : 0) | (control.inViewport ? 2 : 0) | (control.ambiguous ? 4 : 0) | (control.current ? 8 : 0),
      control.expanded,
      control.checked,
      control.panel,
      formIndex.has(position) ? formIndex.get(position) : null,
      stringNumber(control.description || ''),
    ]);
    return {
      ...identity(),
      title: bounded(oneLine(document.title || ''), request.limits.nameText),
      controls: rows,
      strings,
      controlsTotal: reachable.length,
      controlsObscured: controls.length - reachable.length,
      forms,
      formsTotal: found.forms.length,
      panels: panels.map((panel) => describePanel(panel, prepared.blocking)),
      panelsTotal: selectPanels(found).length,
      text: text.text,
      textTruncated: text.truncated,
      blocker: describeBlocker(prepared),
    };
  }

  function find(wanted) {
    const { controls } = prepare();
    const matches = controls.filter((control) => control.role === wanted.role && control.name === wanted.name
      && control.text === wanted.text && control.section === wanted.section && control.row === wanted.row
      && control.fingerprint === wanted.fingerprint);
    const only = matches.length === 1 ? matches[0] : null;
    const box = only ? only.el.getBoundingClientRect() : null;
    return {
      matches: matches.length,
      element: only ? only.el : null,
      reachable: Boolean(only && only.reachable),
      enabled: Boolean(only && only.enabled),
      // Wholly inside the viewport: a click scrolls nothing.
      inView: Boolean(box && box.width > 0 && box.height > 0 && box.top >= 0 && box.left >= 0
        && box.bottom <= viewport.height && box.right <= viewport.width),
    };
  }

  function host(el) {
    let dialog = null;
    let overlay = null;
    for (let node = el; node; node = flatParent(node)) {
      const kind = info(node).shown ? panelKind(node, info(node)) : '';
      if (kind && kind !== 'overlay' && !dialog) dialog = { el: node, kind };
      if (kind === 'overlay') overlay = { el: node, kind };
    }
    if (overlay && overlay.el.querySelector('main, [role=main], dialog[open], [role=dialog], [role=alertdialog], [aria-modal=true]')) {
      overlay = null;
    }
    const panel = dialog || overlay;
    const context = { blocking: blockingLayer(), panelElements: new Set(panel ? [panel.el] : []), bars: [] };
    const reach = reachOf(el, context);
    return {
      visible: reach.state !== 'hidden',
      reachable: reach.state === 'reachable',
      panelKey: panel ? panelKey(panel.kind, panel.el, panelName(panel.el, request.limits)) : null,
    };
  }

  function veiled() {
    const blocking = blockingLayer();
    if (!blocking || blocking.tagName === 'IFRAME' || blocking.querySelector('iframe, frame')) return false;
    const controls = blocking.querySelectorAll('a[href], button, input, select, textarea, summary, [role], [onclick], [tabindex]');
    return !collectText(blocking, 'visible', 8).text && !Array.from(controls).some((el) => info(el).visible);
  }

  function readiness() {
    return new Promise((resolve) => {
      const started = performance.now();
      let last = started;
      let mutations = 0;
      const observer = new MutationObserver((records) => {
        mutations += records.length;
        last = performance.now();
      });
      observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
      // The caller's own change counter (started before its click) says since when the DOM has
      // not changed: a first look already that long after the last change needs no wait of its own.
      const counted = request.counter && typeof request.counter.last === 'number' ? request.counter : null;
      const answered = typeof request.answeredMsAgo === 'number' ? request.answeredMsAgo : Infinity;
      const quietBefore = (now) => counted !== null && now - counted.last >= request.quickMs
        && answered + (now - started) >= request.quickMs;
      // The next look comes when one of the conditions could first hold: the first look's window
      // over, the counter's quiet long enough, or the DOM quiet for the whole window (1 ms of slack
      // for the timer's rounding; at least every 50 ms so the deadline is kept).
      const untilNextLook = (now) => {
        let next = request.quietMs - (now - last);
        if (mutations === 0) {
          next = Math.min(next, (request.quickMs || 0) - (now - started));
          if (counted !== null) {
            next = Math.min(next, Math.max(request.quickMs - (now - counted.last), request.quickMs - answered - (now - started)));
          }
        }
        return Math.max(2, Math.min(50, next + 1));
      };
      const tick = () => {
        const now = performance.now();
        // A loaded document that did not change at all during the first look is stable at once;
        // one caught changing must then stay quiet for the whole window.
        const looked = now - started >= (request.quickMs || 0) || quietBefore(now);
        const still = mutations === 0 && document.readyState === 'complete' && looked;
        const quiet = now - last >= request.quietMs || (still && request.quickMs > 0);
        if (!quiet && now - started < request.maxMs) {
          setTimeout(tick, untilNextLook(now));
          return;
        }
        observer.disconnect();
        resolve({ ready: true, readyState: document.readyState, quiet, mutations, veiled: veiled() });
      };
      // With a counter, the first look comes when its quiet would be long enough, not a whole window later.
      const counterQuietIn = counted === null ? Infinity
        : Math.max(0, request.quickMs - (started - counted.last), request.quickMs - answered);
      const first = Math.min(request.quickMs || request.quietMs, request.quietMs, request.maxMs, counterQuietIn);
      setTimeout(tick, first);
    });
  }

  function cleanField(found) {
    return found.forms === 1 && found.matches === 1 && found.visible && found.editable;
  }

  // Several fields of one form in one pass: their elements when every lookup is clean, else null
  // (the caller then looks them up one by one, to say why not).
  function fieldsAnswer(fields) {
    if (request.document !== String(performance.timeOrigin)) return { clean: false };
    const prepared = prepare();
    const elements = [];
    for (const wanted of fields) {
      const found = findField(wanted, prepared);
      if (!found.element || !cleanField(found)) return { clean: false };
      elements.push(found.element);
    }
    return elements;
  }

  // Aiming a press at a control in the top document (request.aim): the control looked up; if out
  // of view, scrolled into view at once (the change counter, request.counter, counts again from
  // the second frame after) and looked up again then: it must be the same element. Then its first
  // box unchanged over two frames (it holds still) and a hit test at the box's centre that lands
  // on it; the answer is that point, as plain facts (no element handle). request.counter gets a
  // guard that lets the press through only to the control (see acting/settle.py). A check that
  // never holds within request.maxMs says which.
  async function aim() {
    const clean = (found) => found.matches === 1 && found.reachable && found.enabled;
    const facts = (found, extra) => {
      const { element, ...plain } = found;
      return { ...plain, ...extra, timeOrigin: String(performance.timeOrigin) };
    };
    const twoFrames = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const boxOfNow = (el) => {
      for (const rect of el.getClientRects()) if (rect.width > 0 && rect.height > 0) return rect;
      return el.getBoundingClientRect();
    };
    let found = find(request.identity);
    if (!clean(found) || request.document !== String(performance.timeOrigin)) return facts(found, {});
    const el = found.element;
    let scrolled = false;
    if (!found.inView) {
      el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
      if (request.counter) request.counter.recountAfterFrames();
      await twoFrames();
      found = find(request.identity);
      scrolled = true;
      if (!clean(found) || found.element !== el) return facts(found, { scrolled, same: found.element === el });
    }
    const until = performance.now() + request.maxMs;
    let box = boxOfNow(el);
    for (;;) {
      await twoFrames();
      const now = boxOfNow(el);
      const still = now.left === box.left && now.top === box.top && now.width === box.width && now.height === box.height;
      if (still) break;
      if (performance.now() > until) return facts(found, { scrolled, same: true, stable: false });
      box = now;
    }
    if (!el.isConnected) return facts(found, { scrolled, same: false });
    const x = box.left + box.width / 2;
    const y = box.top + box.height / 2;
    const hit = el.getRootNode().elementFromPoint ? el.getRootNode().elementFromPoint(x, y) : null;
    if (!hit || !(el.contains(hit) || labelsHit(el, hit)) || x < 0 || y < 0 || x >= viewport.width || y >= viewport.height) {
      return facts(found, { scrolled, same: true, stable: true, hit: false });
    }
    if (request.counter) request.counter.guard(el);
    return { ok: true, aimed: true, x, y, timeOrigin: String(performance.timeOrigin) };
  }

  function lookupAnswer(found, clean) {
    const timeOrigin = String(performance.timeOrigin);
    if (found.element && request.document === timeOrigin && clean(found)) return found.element;
    return { ...found, timeOrigin };
  }

  function identity() {
    return { ok: true, url: location.href, timeOrigin: String(performance.timeOrigin), readyState: document.readyState };
  }

  if (!document.documentElement) return { ok: false, reason: 'empty' };
  switch (request.mode) {
    // One string crosses to Python far faster than a large object graph.
    case 'snapshot': return JSON.stringify(snapshot());
    // A lookup says which document answered: the caller checks it is the one it observed. When
    // every check holds in the document the caller names, the answer is the element itself (one
    // round trip fewer); otherwise the facts, for the caller to say why not.
    case 'aim': return aim();
    case 'find': return lookupAnswer(find(request.identity),
      (found) => found.matches === 1 && found.reachable && found.enabled && found.inView);
    case 'findField': return lookupAnswer(findField(request.field), cleanField);
    case 'findFields': return fieldsAnswer(request.fields);
    case 'host': return host(request.element);
    case 'readiness': return readiness();
    case 'same': return { ok: true, same: request.element === request.other };
    default: return identity();
  }
}
