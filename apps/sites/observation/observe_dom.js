// Reading one document without changing it: visibility, text and names.
//
// This file holds function declarations only. apps/sites/observation/reader.py
// places it inside the single function of observe.js, so every helper sees
// `request` and the per-call caches. Nothing here writes to the page: no
// attributes, no globals, no DOM changes; caches live in this call only.

const SKIP_WALK = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'HEAD', 'META', 'LINK', 'TITLE']);
// Never read as text: active code, field values (textarea, select), replaced content.
const SKIP_TEXT = new Set([
  'SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'TEXTAREA', 'SELECT', 'OPTION', 'DATALIST',
  'IFRAME', 'FRAME', 'OBJECT', 'EMBED', 'CANVAS', 'VIDEO', 'AUDIO', 'INPUT', 'IMG', 'SVG', 'svg',
]);
const BUTTON_INPUTS = new Set(['submit', 'button', 'reset', 'image']);
const ROOT_INFO = { shown: true, srOnly: false, editable: false, inert: false };
const infoCache = new Map();
const VISIBILITY_CHECK = { opacityProperty: true };
// Most elements let their content overflow: they share one answer (fewer objects to collect).
const OPEN_OVERFLOW = { clipX: false, clipY: false, scrolls: false };
const designMode = document.designMode === 'on';
const viewport = { width: window.innerWidth || 1, height: window.innerHeight || 1 };
const scrollOffset = { x: window.scrollX, y: window.scrollY };

function flatParent(node) {
  if (node.assignedSlot) return node.assignedSlot;
  const parent = node.parentNode;
  if (!parent) return null;
  if (parent.nodeType === 11) return parent.host || null;
  return parent.nodeType === 1 ? parent : null;
}

function flatChildren(el) {
  if (el.shadowRoot) return el.shadowRoot.childNodes;
  if (el.tagName === 'SLOT') {
    const assigned = el.assignedNodes();
    if (assigned.length) return assigned;
  }
  return el.childNodes;
}

function flatContains(ancestor, node) {
  for (let current = node; current; current = flatParent(current)) {
    if (current === ancestor) return true;
  }
  return false;
}

// Overflow longhands only: the shorthand costs a layout query per element.
function overflowOf(el, style) {
  const x = style.overflowX;
  const y = style.overflowY;
  if (el === document.body) {
    // The body's overflow moves to the window when the root element leaves its own visible.
    const root = info(document.documentElement).overflow;
    if (!root.clipX && !root.clipY && !root.scrolls) return OPEN_OVERFLOW;
  }
  if (x === 'visible' && y === 'visible') return OPEN_OVERFLOW;
  return {
    clipX: x === 'hidden' || x === 'clip',
    clipY: y === 'hidden' || y === 'clip',
    scrolls: x === 'auto' || x === 'scroll' || y === 'auto' || y === 'scroll',
  };
}

// Visually hidden patterns shrink a box to a pixel and clip it: by overflow,
// or by the clip property, which applies to absolutely placed boxes only.
function clipsContent(style, position, overflow) {
  if (overflow.clipX || overflow.clipY || overflow.scrolls) return true;
  return (position === 'absolute' || position === 'fixed') && style.clip !== 'auto' && style.clip !== '';
}

// What the page shows of an element and what inherits to its subtree.
// A walk down the flat tree knows the parent already and passes it.
function info(el, knownParent) {
  const known = infoCache.get(el);
  if (known) return known;
  const parent = knownParent === undefined ? flatParent(el) : knownParent;
  const up = parent ? info(parent) : ROOT_INFO;
  const style = getComputedStyle(el);
  const display = style.display;
  const contents = display === 'contents';
  let shown = up.shown && display !== 'none';
  if (shown && !contents) shown = el.checkVisibility(VISIBILITY_CHECK);
  let srOnly = up.srOnly;
  let rect = null;
  const position = style.position;
  const overflow = overflowOf(el, style);
  const clips = clipsContent(style, position, overflow);
  // Only positioned or clipping boxes leave the page or shrink to nothing (off-canvas
  // drawers are positioned too); measuring just those keeps a long page cheap.
  if (shown && !contents && (clips || position !== 'static')) {
    rect = el.getBoundingClientRect();
    const tiny = rect.width <= 1 || rect.height <= 1;
    // Visually hidden (screen-reader-only) or placed off the page: named, never visible.
    if ((tiny && clips) || rect.right + scrollOffset.x <= 0 || rect.bottom + scrollOffset.y <= 0) {
      srOnly = true;
    }
  }
  const role = el.getAttribute('role');
  // Each read of a computed property builds and serialises a value: what the
  // walks need is read once here (only what matters when shown), and the
  // style object itself is not kept, so it dies young.
  const visibility = shown ? style.visibility : 'hidden';
  const found = {
    position,
    overflow,
    role: role ? role.trim().split(/\s+/)[0].toLowerCase() : '',
    display,
    visibility,
    cursor: shown ? style.cursor : 'auto',
    zIndex: shown && position === 'absolute' ? style.zIndex : 'auto',
    rect,
    contents,
    shown,
    srOnly,
    visible: shown && !srOnly && visibility === 'visible',
    tag: el.tagName,
    parent,
    content: null,
    editable: editableOf(el, up),
    inert: up.inert || el.inert === true,
  };
  infoCache.set(el, found);
  return found;
}

// Editable as isContentEditable says, from the attribute and the parent: the
// property itself costs a style query for every element of a long page.
function editableOf(el, up) {
  if (designMode) return true;
  const attribute = el.getAttribute('contenteditable');
  if (attribute === null) return up.editable;
  const value = attribute.trim().toLowerCase();
  if (value === '' || value === 'true' || value === 'plaintext-only') return true;
  return value === 'false' ? false : up.editable;
}

function isBlock(display) {
  return !display.startsWith('inline') && display !== 'contents';
}

function explicitRole(el) {
  return info(el).role;
}

// The border box of a rendered element, measured once.
function boxOf(el) {
  const about = info(el);
  if (!about.rect && about.shown && !about.contents) about.rect = el.getBoundingClientRect();
  return about.rect;
}

function oneLine(text) {
  return text.replace(/\s+/g, ' ').trim();
}

function bounded(text, max) {
  return text.length > max ? text.slice(0, max) : text;
}

// Text a person can read in a subtree. mode 'visible': what is drawn;
// 'name': also visually hidden text and image alternatives (accessible names);
// 'both': the two at once (result.name holds the second).
// Hidden content, field values, editable text and active code never enter.
function collectText(root, mode, max) {
  const state = {
    mode,
    parts: [],
    names: mode === 'both' ? [] : null,
    naming: mode !== 'visible',
    length: 0,
    budget: max * 4 + 64,
    cut: false,
  };
  if (root.nodeType === 1) visitText(root, info(root), state, 0);
  const text = joinLines(state.parts);
  return {
    text: bounded(text, max),
    name: state.names ? bounded(joinLines(state.names), max) : '',
    truncated: text.length > max || state.cut,
  };
}

function emit(state, drawn, named) {
  if (drawn) state.parts.push(drawn);
  if (state.names && named) state.names.push(named);
}

// Depth-first in document order; a text node's flat parent is the element whose children are read.
function visitText(el, about, state, depth) {
  if (!about.shown || about.editable || (!state.naming && about.srOnly)) return;
  if (state.length >= state.budget || depth > 400) {
    state.cut = true;
    return;
  }
  const tag = about.tag;
  if (SKIP_TEXT.has(tag)) {
    const drawn = state.mode === 'name' || about.srOnly ? '' : replacedText(el, 'visible', about);
    const named = state.naming ? replacedText(el, 'name', about) : '';
    emit(state, state.mode === 'name' ? named && ` ${named} ` : drawn && ` ${drawn} `, named && ` ${named} `);
    state.length += named.length + drawn.length;
    return;
  }
  if (tag === 'BR') {
    emit(state, '\n', '\n');
    return;
  }
  const display = about.display;
  // Blocks are lines; an inline block (a button beside a label) is a word of its own.
  const edge = isBlock(display) ? '\n' : display !== 'inline' && display !== 'contents' ? ' ' : '';
  emit(state, edge, edge);
  const textShown = about.visibility === 'visible';
  const drawnText = textShown && (state.mode === 'name' || !about.srOnly);
  const content = flatContent(el, about);
  for (let k = 0; k < content.length; k += 1) {
    const child = content[k];
    if (typeof child === 'string') {
      if (!textShown) continue;
      if (drawnText) state.parts.push(child);
      if (state.names) state.names.push(child);
      state.length += child.length;
    } else {
      visitText(child, info(child), state, depth + 1);
    }
  }
  emit(state, edge, edge);
}

// An element's flat children as read for text: its text nodes' data and its
// elements, read once (rows, names and the page text visit the same elements).
function flatContent(el, about) {
  if (about.content) return about.content;
  const content = [];
  const children = flatChildren(el);
  for (let k = 0; k < children.length; k += 1) {
    const child = children[k];
    const type = child.nodeType;
    if (type === 3) {
      // A line break in the source is a space on the page; lines come from boxes.
      const data = child.data;
      content.push(data.indexOf('\n') < 0 ? data : data.replace(/\n/g, ' '));
    } else if (type === 1) {
      content.push(child);
    }
  }
  about.content = content;
  return content;
}

// Whitespace collapsed within lines, blank lines dropped: two passes over the
// whole text instead of one per line (rows and names are read thousands of times).
function joinLines(parts) {
  return parts.join('').replace(/[^\S\n]+/g, ' ').replace(/ ?\n[\s]*/g, '\n').trim();
}

// The public label of a replaced element: a button input's caption, an image's alternative.
function replacedText(el, mode, about) {
  if (about.visibility !== 'visible') return '';
  const tag = el.tagName;
  if (tag === 'INPUT') {
    const type = (el.getAttribute('type') || '').toLowerCase();
    if (type === 'image') return mode === 'name' ? el.getAttribute('alt') || '' : '';
    // A button's value is its caption, never user input.
    return BUTTON_INPUTS.has(type) ? el.value || defaultCaption(type) : '';
  }
  if (mode !== 'name') return '';
  if (tag === 'IMG') return el.getAttribute('alt') || '';
  if (tag === 'SVG' || tag === 'svg') {
    const title = el.querySelector('title');
    return el.getAttribute('aria-label') || (title ? title.textContent || '' : '');
  }
  return '';
}

function defaultCaption(type) {
  return { submit: 'Submit', reset: 'Reset' }[type] || '';
}

function textLine(el, mode, max) {
  return bounded(oneLine(collectText(el, mode, max).text), max);
}

function labelledByText(el, max) {
  const ids = (el.getAttribute('aria-labelledby') || '').trim();
  if (!ids) return '';
  const root = el.getRootNode();
  const texts = [];
  for (const id of ids.split(/\s+/)) {
    const target = root.getElementById ? root.getElementById(id) : null;
    // Hidden labels are not read: hidden content never enters an observation.
    if (target && info(target).shown) texts.push(textLine(target, 'name', max));
  }
  return oneLine(texts.join(' '));
}

const NAME_FROM_CONTENT = new Set([
  'button', 'link', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'tab', 'checkbox', 'radio', 'switch',
  'option', 'treeitem', 'clickable', 'heading',
]);

// A simplified accessible name: labelledby, aria-label, labels, captions, content, title.
function accessibleName(el, role, max, contentName) {
  const labelled = labelledByText(el, max);
  if (labelled) return bounded(labelled, max);
  const label = oneLine(el.getAttribute('aria-label') || '');
  if (label) return bounded(label, max);
  const tag = el.tagName;
  if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA') {
    const type = (el.getAttribute('type') || '').toLowerCase();
    if (tag === 'INPUT' && BUTTON_INPUTS.has(type)) {
      const caption = type === 'image' ? el.getAttribute('alt') || el.value : el.value || defaultCaption(type);
      if (caption) return bounded(oneLine(caption), max);
    }
    const labels = el.labels ? Array.from(el.labels).map((item) => textLine(item, 'name', max)) : [];
    const joined = oneLine(labels.join(' '));
    if (joined) return bounded(joined, max);
  } else if (tag === 'IMG') {
    const alt = oneLine(el.getAttribute('alt') || '');
    if (alt) return bounded(alt, max);
  } else if (NAME_FROM_CONTENT.has(role)) {
    const content = contentName === undefined ? textLine(el, 'name', max) : contentName;
    if (content) return content;
  }
  return bounded(oneLine(el.getAttribute('title') || el.getAttribute('placeholder') || ''), max);
}

// A stable digest of the ancestor chain: tags, roles and types, never positions or ids.
function fingerprint(el) {
  const [hash, depth] = chainDigest(el);
  return hash.toString(16).padStart(8, '0') + '.' + depth;
}

const chainDigests = new Map();

// FNV-1a over the chain from the root, each element's digest built on its parent's.
function chainDigest(el) {
  const known = chainDigests.get(el);
  if (known) return known;
  const parent = flatParent(el);
  const [start, depth] = parent ? chainDigest(parent) : [0x811c9dc5, 0];
  const type = el.getAttribute('type');
  const role = explicitRole(el);
  const step = '>' + el.tagName.toLowerCase() + (role ? '@' + role : '') + (type ? ':' + type : '');
  let hash = start;
  for (let k = 0; k < step.length; k += 1) {
    hash ^= step.charCodeAt(k);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  const digest = [hash, depth + 1];
  chainDigests.set(el, digest);
  return digest;
}

function viewportFraction(rect) {
  if (!rect) return 0;
  const width = Math.max(0, Math.min(rect.right, viewport.width) - Math.max(rect.left, 0));
  const height = Math.max(0, Math.min(rect.bottom, viewport.height) - Math.max(rect.top, 0));
  return (width * height) / (viewport.width * viewport.height);
}

function outermostPositioned(el, positions) {
  let found = null;
  for (let node = el; node; node = flatParent(node)) {
    if (positions.has(info(node).position)) found = node;
  }
  return found;
}

function safeUrl(value, max) {
  try {
    const url = new URL(value, document.baseURI);
    return url.protocol === 'http:' || url.protocol === 'https:' ? bounded(url.href, max) : '';
  } catch (error) {
    return '';
  }
}
