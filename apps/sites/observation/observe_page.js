// Controls, sections, rows, panels and forms of one document.
//
// Function declarations only, placed with observe_dom.js inside observe.js.

const CONTROL_ROLES = new Set([
  'button', 'link', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'tab', 'checkbox', 'radio', 'switch',
  'option', 'treeitem',
]);
const FIELD_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton']);
const SEMANTIC_ROWS = new Set(['TR', 'LI', 'DT', 'DD', 'ARTICLE']);
const ROW_ROLES = new Set(['row', 'listitem', 'article', 'option']);
const LANDMARK_TAGS = new Set(['NAV', 'ASIDE', 'SECTION', 'FORM', 'FIELDSET', 'DIALOG', 'TABLE', 'HEADER', 'FOOTER']);
const LANDMARK_ROLES = new Set([
  'navigation', 'region', 'complementary', 'form', 'search', 'dialog', 'alertdialog', 'group', 'banner',
  'contentinfo', 'menu', 'menubar', 'tablist', 'toolbar',
]);
const SECTIONS = new Set(['SECTION', 'ARTICLE', 'ASIDE', 'NAV', 'DIALOG']);
const SECTION_ROLES = new Set(['region', 'complementary', 'navigation', 'dialog', 'alertdialog', 'article']);
const FIXED = new Set(['fixed']);
const LAYERS = new Set(['fixed', 'sticky']);

function controlRole(el) {
  const role = explicitRole(el);
  if (CONTROL_ROLES.has(role)) return role;
  if (role && role !== 'presentation' && role !== 'none' && role !== 'generic') return '';
  const tag = el.tagName;
  if (tag === 'A' || tag === 'AREA') return el.hasAttribute('href') ? 'link' : el.hasAttribute('onclick') ? 'clickable' : '';
  if (tag === 'BUTTON') return 'button';
  if (tag === 'INPUT') {
    const type = (el.getAttribute('type') || 'text').toLowerCase();
    if (BUTTON_INPUTS.has(type)) return 'button';
    return type === 'checkbox' || type === 'radio' ? type : '';
  }
  if (tag === 'SUMMARY') return el.parentElement && el.parentElement.tagName === 'DETAILS' ? 'button' : '';
  return el.hasAttribute('onclick') ? 'clickable' : '';
}

function isField(el) {
  const tag = el.tagName;
  if (tag === 'SELECT' || tag === 'TEXTAREA') return true;
  if (tag === 'INPUT') return !BUTTON_INPUTS.has((el.getAttribute('type') || '').toLowerCase());
  if (FIELD_ROLES.has(explicitRole(el))) return true;
  // The root of an editable region is one field; what it holds is its text.
  const about = info(el);
  return about.editable && !(about.parent && info(about.parent).editable);
}

const HEADINGS = new Set(['H1', 'H2', 'H3', 'H4', 'H5', 'H6']);

function isHeading(el) {
  return HEADINGS.has(el.tagName) || explicitRole(el) === 'heading';
}

function panelKind(el, about) {
  if (el.tagName === 'DIALOG') return el.open ? 'dialog' : '';
  const role = explicitRole(el);
  if (role === 'dialog' || role === 'alertdialog') return role;
  if (el.getAttribute('aria-modal') === 'true') return 'dialog';
  const position = about.position;
  if (position !== 'fixed' && position !== 'sticky' && position !== 'absolute') return '';
  const fraction = viewportFraction(boxOf(el));
  if (!fraction) return '';
  if (position === 'fixed' && fraction >= request.limits.panelFixedFraction) return 'overlay';
  if (position === 'sticky' && fraction >= request.limits.panelStickyFraction) return 'overlay';
  const raised = parseInt(about.zIndex, 10) > 0;
  return position === 'absolute' && raised && fraction >= request.limits.panelAbsoluteFraction ? 'overlay' : '';
}

// One pass over the flat tree (shadow roots included) in document order.
function walkDocument() {
  const found = { candidates: [], fields: [], forms: [], panels: [], layers: [] };
  let heading = null;
  let order = 0;
  // Elements only, each with its flat parent and whether it sits inside a control (parallel stacks).
  const stack = [document.documentElement];
  const parentStack = [flatParent(document.documentElement)];
  const insideStack = [false];
  while (stack.length) {
    const item = stack.pop();
    const parent = parentStack.pop();
    const insideControl = insideStack.pop();
    if (item.restore !== undefined) {
      heading = item.restore;
      continue;
    }
    if (SKIP_WALK.has(item.tagName)) continue;
    const about = info(item, parent);
    if (!about.shown) continue;
    order += 1;
    if (about.visible && isHeading(item)) {
      const text = textLine(item, 'visible', request.limits.sectionText);
      if (text) heading = { el: item, text };
    }
    let role = controlRole(item);
    const pointer = !role && !insideControl && about.cursor === 'pointer' && item.tagName !== 'LABEL';
    if (pointer && !(parent && info(parent).cursor === 'pointer')) role = 'clickable';
    if (role) found.candidates.push({ el: item, role, heading, order, pointer });
    if (isField(item)) found.fields.push({ el: item, heading });
    if (item.tagName === 'FORM') found.forms.push({ el: item, heading });
    const kind = panelKind(item, about);
    if (kind) found.panels.push({ el: item, kind, heading });
    if (LAYERS.has(about.position) && found.layers.length < 200) found.layers.push(item);
    if (kind || SECTIONS.has(item.tagName) || SECTION_ROLES.has(explicitRole(item))) {
      // A heading inside a section titles that section only.
      stack.push({ restore: heading });
      parentStack.push(null);
      insideStack.push(false);
    }
    const children = flatElementChildren(item);
    for (let k = children.length - 1; k >= 0; k -= 1) {
      stack.push(children[k]);
      parentStack.push(item);
      insideStack.push(insideControl || Boolean(role));
    }
  }
  // A pointer-shaped element wrapping real controls is not itself a control.
  found.candidates = found.candidates.filter((candidate, index) => {
    const next = found.candidates[index + 1];
    return !(candidate.pointer && next && within(candidate.el, next.el));
  });
  return found;
}

function flatElementChildren(el) {
  if (el.shadowRoot) return el.shadowRoot.children;
  if (el.tagName === 'SLOT') {
    const assigned = el.assignedElements();
    if (assigned.length || el.assignedNodes().length) return assigned;
  }
  return el.children;
}

// Whether ancestor holds el, across shadow roots.
function within(ancestor, el) {
  if (ancestor.contains(el)) return true;
  return el.getRootNode() !== document && flatContains(ancestor, el);
}

const landmarks = new Map();

// The nearest named landmark at or above node, remembered for every ancestor on the way.
function landmarkAt(node) {
  if (!node) return null;
  if (landmarks.has(node)) return landmarks.get(node);
  let found = null;
  if (LANDMARK_TAGS.has(node.tagName) || LANDMARK_ROLES.has(explicitRole(node))) {
    let name = accessibleName(node, '', request.limits.sectionText);
    if (!name && node.tagName === 'FIELDSET') {
      const legend = Array.from(node.children).find((child) => child.tagName === 'LEGEND');
      name = legend ? textLine(legend, 'visible', request.limits.sectionText) : '';
    } else if (!name && node.tagName === 'TABLE' && node.caption) {
      name = textLine(node.caption, 'visible', request.limits.sectionText);
    }
    if (name) found = { el: node, name };
  }
  if (!found) found = landmarkAt(flatParent(node));
  landmarks.set(node, found);
  return found;
}

function namedLandmark(el) {
  return landmarkAt(flatParent(el));
}

// The title of an element's section: the nearest named landmark around it,
// unless a heading inside that landmark comes closer.
function sectionOf(found, el, heading) {
  const landmark = namedLandmark(el);
  if (landmark && !(heading && within(landmark.el, heading.el))) return landmark.name;
  return heading ? heading.text : '';
}

// Unclassed generic containers repeat everywhere; only a shared class makes them a pattern. One class
// in common is enough: an item opened in place ("item open") is still one of the list ("item").
function classNames(node) {
  return typeof node.className === 'string' ? node.className.split(/\s+/).filter(Boolean) : [];
}

function hasTwinSibling(node) {
  const own = classNames(node);
  if (!own.length && (node.tagName === 'DIV' || node.tagName === 'SPAN')) return false;
  for (const sibling of [node.previousElementSibling, node.nextElementSibling]) {
    if (!sibling || sibling.tagName !== node.tagName) continue;
    const theirs = classNames(sibling);
    if (own.length ? theirs.some((name) => own.includes(name)) : !theirs.length) return true;
  }
  return false;
}

// The row an element belongs to: a table row or list item, else the nearest
// ancestor repeated beside an identical sibling (cards, div grids).
function rowElementOf(el) {
  let depth = 0;
  for (let node = el; node && node !== document.body && depth < 12; node = flatParent(node), depth += 1) {
    if (SEMANTIC_ROWS.has(node.tagName) || ROW_ROLES.has(explicitRole(node))) return node;
  }
  depth = 0;
  for (let node = flatParent(el); node && node !== document.body && depth < 8; node = flatParent(node), depth += 1) {
    if (hasTwinSibling(node)) return node;
  }
  return null;
}

function ancestry(el) {
  const chain = [];
  for (let node = el; node; node = flatParent(node)) chain.push(node);
  return chain.reverse();
}

// Identical controls whose rows read the same: try the rows just below their
// common ancestor, which each hold exactly one of them.
function separateTwins(group) {
  const chains = group.map((control) => ancestry(control.el));
  let depth = 0;
  while (chains.every((chain) => chain.length > depth + 1 && chain[depth] === chains[0][depth])) depth += 1;
  const rows = chains.map((chain) => chain[depth]);
  if (new Set(rows).size !== rows.length || rows.some((row, index) => row === group[index].el)) return;
  group.forEach((control, index) => {
    control.row = textLine(rows[index], 'visible', request.limits.rowText);
  });
}

function identityKey(control) {
  return [control.role, control.name, control.text, control.section, control.fingerprint].join('\u0000');
}

function markIdentities(controls) {
  const rowKey = (control) => control.key + '\u0000' + control.row;
  const groups = new Map();
  for (const control of controls) {
    control.key = identityKey(control);
    const key = rowKey(control);
    const group = groups.get(key);
    if (group) group.push(control);
    else groups.set(key, [control]);
  }
  let separated = false;
  for (const group of groups.values()) {
    if (group.length > 1) {
      separateTwins(group);
      separated = true;
    }
  }
  if (!separated) {
    for (const control of controls) control.ambiguous = false;
    return;
  }
  // Rows may have changed: count again.
  const keys = controls.map(rowKey);
  const counts = new Map();
  for (const key of keys) counts.set(key, (counts.get(key) || 0) + 1);
  controls.forEach((control, index) => {
    control.ambiguous = counts.get(keys[index]) > 1;
  });
}

// Window-covering layer: a modal dialog, or one fixed element under every probe point.
function blockingLayer() {
  let modal = null;
  try {
    modal = document.querySelector('dialog:modal');
  } catch (error) {
    modal = null;
  }
  if (modal) return modal;
  const probes = [[0.5, 0.5], [0.02, 0.02], [0.98, 0.02], [0.02, 0.98], [0.98, 0.98]];
  let layer;
  for (const [x, y] of probes) {
    const hit = document.elementFromPoint(x * viewport.width, y * viewport.height);
    const outer = hit ? outermostPositioned(hit, FIXED) : null;
    if (!outer || (layer && outer !== layer)) return null;
    layer = outer;
  }
  return viewportFraction(boxOf(layer)) >= request.limits.veilFraction ? layer : null;
}

function firstBox(el, about) {
  if (about.contents) {
    const range = document.createRange();
    range.selectNodeContents(el);
    return range.getBoundingClientRect();
  }
  const rects = el.getClientRects();
  for (const rect of rects) {
    if (rect.width > 0 && rect.height > 0) return rect;
  }
  return rects[0] || boxOf(el);
}

// Hidden by a clipping ancestor (overflow hidden or clip) that it lies entirely
// outside of. Inside a scrolling container the control can be scrolled to any
// place of that container, so from there on the container's box is what counts.
function clippedAway(el, rect) {
  let reach = rect;
  for (let node = flatParent(el); node && node !== document.documentElement; node = flatParent(node)) {
    const about = info(node);
    const { clipX, clipY, scrolls } = about.overflow;
    if (clipX || clipY || scrolls) {
      const box = boxOf(node);
      if (!box) continue;
      if ((clipX && (reach.right <= box.left || reach.left >= box.right))
        || (clipY && (reach.bottom <= box.top || reach.top >= box.bottom))) return true;
      if (scrolls) reach = box;
    }
    // A fixed element escapes the clipping of everything around it.
    if (about.position === 'fixed') return false;
  }
  return false;
}

// Whether some scroll position of the page shows the box's centre clear of
// every bar fixed at the top (at best the page is scrolled back to its start)
// or at the bottom (at best it is scrolled to its end).
function clearOfBars(el, rect, bars) {
  if (!bars.length) return true;
  const center = rect.top + rect.height / 2 + scrollOffset.y;
  const lastScroll = lastScrollTop();
  for (const bar of bars) {
    const box = boxOf(bar);
    if (!box || flatContains(bar, el) || box.right <= rect.left || box.left >= rect.right) continue;
    const atTop = box.top + box.bottom <= viewport.height;
    if (atTop ? center < box.bottom : center - lastScroll > box.top) return false;
  }
  return true;
}

let lastScrollMemo = null;

// How far the page scrolls at most; read once (scrollHeight measures the whole page).
function lastScrollTop() {
  if (lastScrollMemo === null) {
    const scroller = document.scrollingElement || document.documentElement;
    lastScrollMemo = Math.max(0, scroller.scrollHeight - viewport.height);
  }
  return lastScrollMemo;
}

// Bars stuck to an edge of the window (fixed headers, footers, sticky ones now stuck).
function edgeBars(found, panels) {
  const panelElements = new Set(panels.map((panel) => panel.el));
  return found.layers.filter((el) => {
    if (panelElements.has(el) || found.layers.some((other) => other !== el && within(other, el))) return false;
    const box = boxOf(el);
    return Boolean(box) && (info(el).position === 'fixed' || box.top <= 1 || box.bottom >= viewport.height - 1);
  }).slice(0, 50);
}

function labelsHit(el, hit) {
  return Boolean(el.labels && Array.from(el.labels).some((label) => label.contains(hit)));
}

// 'hidden' (not drawn), 'obscured' (something else takes the click) or 'reachable'.
function reachOf(el, context) {
  const about = info(el);
  if (!about.shown || about.srOnly || (!about.contents && about.visibility !== 'visible')) return { state: 'hidden' };
  const rect = firstBox(el, about);
  if (!rect || rect.width <= 0 || rect.height <= 0 || clippedAway(el, rect)) return { state: 'hidden' };
  const x = rect.left + rect.width / 2;
  const y = rect.top + rect.height / 2;
  const inViewport = x >= 0 && y >= 0 && x < viewport.width && y < viewport.height;
  if (about.inert || (context.blocking && !flatContains(context.blocking, el))) return { state: 'obscured', inViewport };
  if (inViewport) {
    const root = el.getRootNode();
    const hit = root.elementFromPoint ? root.elementFromPoint(x, y) : null;
    if (hit && !el.contains(hit) && !labelsHit(el, hit)) {
      const bar = outermostPositioned(hit, LAYERS);
      // A page header or bar over the control moves away when the page can scroll far enough.
      if (!bar || context.panelElements.has(bar) || flatContains(bar, el) || !clearOfBars(el, rect, [bar])) {
        return { state: 'obscured', inViewport };
      }
    }
  } else if (!clearOfBars(el, rect, context.bars)) {
    return { state: 'obscured', inViewport };
  }
  return { state: 'reachable', inViewport };
}

// Rows hold several controls; their text is read once per observation.
const rowTexts = new Map();

function linkAddress(el, max) {
  // Anchors resolve their own address; anything but http(s) (script links) carries none.
  const href = typeof el.href === 'string' ? el.href : '';
  if (href.startsWith('http:') || href.startsWith('https:')) return bounded(href, max);
  return el.hasAttribute('href') && !href ? safeUrl(el.getAttribute('href'), max) : '';
}

function describeControl(found, candidate, limits) {
  const el = candidate.el;
  let text;
  let name;
  if (el.tagName === 'INPUT') {
    const type = (el.getAttribute('type') || '').toLowerCase();
    text = BUTTON_INPUTS.has(type) && type !== 'image' ? bounded(oneLine(el.value || ''), limits.controlText) : '';
    name = accessibleName(el, candidate.role, limits.nameText);
  } else {
    // What is drawn and what is named, in one walk over the control.
    const content = collectText(el, 'both', Math.max(limits.controlText, limits.nameText));
    text = bounded(oneLine(content.text), limits.controlText);
    name = accessibleName(el, candidate.role, limits.nameText, bounded(oneLine(content.name), limits.nameText));
  }
  const rowEl = rowElementOf(el);
  if (rowEl && !rowTexts.has(rowEl)) rowTexts.set(rowEl, textLine(rowEl, 'visible', limits.rowText));
  const expanded = el.getAttribute('aria-expanded');
  // What the control says of itself beyond its name: its title, when that is not already its name
  // ("×" named "Chiudi", titled "Chiudi e continua senza accettare").
  const title = bounded(oneLine(el.getAttribute('title') || ''), limits.nameText);
  return {
    el,
    role: candidate.role,
    name,
    text,
    description: title && title !== name ? title : '',
    section: sectionOf(found, el, candidate.heading),
    row: rowEl ? rowTexts.get(rowEl) : '',
    fingerprint: fingerprint(el),
    href: candidate.role === 'link' ? linkAddress(el, limits.hrefText) : '',
    enabled: !((canBeDisabled(el) && el.matches(':disabled')) || el.getAttribute('aria-disabled') === 'true'),
    expanded: expanded === 'true' ? true : expanded === 'false' ? false : null,
    checked: checkedState(el, candidate.role),
    current: currentState(el),
  };
}

// Only form controls (and form-associated custom elements) can match :disabled.
const DISABLEABLE = new Set(['button', 'input', 'select', 'textarea', 'optgroup', 'option', 'fieldset']);

function canBeDisabled(el) {
  return DISABLEABLE.has(el.localName) || el.localName.includes('-');
}

const CHECKABLE_ROLES = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio']);

// Whether a checkbox, radio or switch is on; null for any other control, and
// for a mixed one (neither on nor off). A native input answers for itself.
function checkedState(el, role) {
  if (el.tagName === 'INPUT') {
    const type = (el.getAttribute('type') || '').toLowerCase();
    if (type === 'checkbox' || type === 'radio') return el.checked === true;
  }
  if (!CHECKABLE_ROLES.has(role)) return null;
  const state = (el.getAttribute('aria-checked') || '').trim().toLowerCase();
  return state === 'mixed' ? null : state === 'true';
}

// The control stands for what is shown now: the selected tab, the current page or period.
function currentState(el) {
  const current = (el.getAttribute('aria-current') || '').trim().toLowerCase();
  if (current && current !== 'false') return true;
  return (el.getAttribute('aria-selected') || '').trim().toLowerCase() === 'true';
}

function panelName(el, limits) {
  const name = accessibleName(el, '', limits.nameText);
  if (name) return name;
  const heading = el.querySelector('h1, h2, h3, h4, h5, h6, [role=heading]');
  return heading && info(heading).visible ? textLine(heading, 'visible', limits.nameText) : '';
}

function panelKey(kind, el, name) {
  return kind + '|' + fingerprint(el) + '|' + name;
}

// Dialogs, and the outermost large fixed or sticky layers that are not the page itself.
function selectPanels(found) {
  const dialogs = found.panels.filter((panel) => panel.kind !== 'overlay');
  const overlays = found.panels.filter((panel) => panel.kind === 'overlay');
  const kept = overlays.filter((panel) => {
    if (overlays.some((other) => other !== panel && within(other.el, panel.el))) return false;
    if (dialogs.some((dialog) => within(panel.el, dialog.el) || within(dialog.el, panel.el))) return false;
    return !panel.el.querySelector('main, [role=main]');
  });
  return found.panels.filter((panel) => panel.kind !== 'overlay' || kept.includes(panel));
}

// The innermost selected panel around an element.
function panelIndexOf(found, panels, el) {
  let best = null;
  panels.forEach((panel, index) => {
    if (within(panel.el, el) && (best === null || within(panels[best].el, panel.el))) best = index;
  });
  return best;
}
