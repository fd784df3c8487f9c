// Records a page shows: tables with headings, repeated cards of label/value
// pairs, and the label/value pairs of a detail view. Read-only: it writes no
// attribute, global or node. Only visible text is read; field values,
// editable text and active code are never part of it.
(request) => {
  const maxRows = request.maxRows;
  const maxCell = request.maxCell;
  const maxPairs = request.maxPairs;
  const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'INPUT', 'TEXTAREA', 'SELECT', 'OPTION', 'SVG']);
  const CONTROL = 'a[href], button, [role=button], [role=link]';
  const shownCache = new Map();
  let truncated = false;

  function shown(el) {
    if (shownCache.has(el)) return shownCache.get(el);
    let visible = true;
    if (el.checkVisibility) {
      visible = el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true, opacityProperty: true, visibilityProperty: true });
    } else {
      const style = getComputedStyle(el);
      visible = style.display !== 'none' && style.visibility !== 'hidden';
    }
    shownCache.set(el, visible);
    return visible;
  }

  const clean = (text) => text.replace(/\s+/g, ' ').trim().slice(0, maxCell);

  // Visible text as lines: block boxes (and table cells) start new lines.
  function lines(root) {
    const out = [];
    let current = '';
    const flush = () => {
      const text = clean(current);
      if (text) out.push(text);
      current = '';
    };
    const walk = (node) => {
      if (node.nodeType === Node.TEXT_NODE) {
        current += node.data;
        return;
      }
      if (node.nodeType !== Node.ELEMENT_NODE) return;
      if (SKIP.has(node.tagName.toUpperCase()) || node.isContentEditable || !shown(node)) return;
      if (node.tagName === 'BR') {
        flush();
        return;
      }
      const display = getComputedStyle(node).display;
      const block = display !== 'contents' && !display.startsWith('inline');
      if (block) flush();
      for (const child of node.childNodes) walk(child);
      if (block) flush();
    };
    walk(root);
    flush();
    return out;
  }

  const textOf = (el) => clean(lines(el).join(' '));

  // A cell whose every visible word belongs to controls ("View", "Download").
  function controlOnly(cell) {
    const all = textOf(cell);
    if (!all) return false;
    const inside = Array.from(cell.querySelectorAll(CONTROL)).map(textOf).join(' ');
    return clean(inside) === all;
  }

  function heading(el) {
    for (let node = el; node && node !== document.body; node = node.parentElement) {
      for (let sibling = node.previousElementSibling; sibling; sibling = sibling.previousElementSibling) {
        if (/^H[1-6]$/.test(sibling.tagName) && shown(sibling)) return textOf(sibling);
      }
    }
    return '';
  }

  const LABEL = /^([\p{L}][\p{L}\p{N} .'’°/()-]{0,39}?)\s*:\s*(.+)$/u;
  function pairsIn(container) {
    const pairs = [];
    for (const term of container.querySelectorAll('dt')) {
      const value = term.nextElementSibling;
      if (value && value.tagName === 'DD' && shown(term)) pairs.push([textOf(term), textOf(value)]);
    }
    if (pairs.length) return pairs;
    // <span class="label">Importo</span><span>58,30 €</span>: a labelled element and the next one.
    for (const label of container.querySelectorAll('[class*=label], [class*=key], [class*=caption]')) {
      const value = label.nextElementSibling;
      if (value && shown(label) && shown(value) && !label.children.length) {
        const name = textOf(label).replace(/:$/, '');
        if (name && name.length <= 40 && textOf(value)) pairs.push([name, textOf(value)]);
      }
    }
    if (pairs.length) return pairs;
    for (const line of lines(container)) {
      const match = LABEL.exec(line);
      if (match) pairs.push([clean(match[1]), clean(match[2])]);
    }
    return pairs;
  }

  const tables = [];
  const pagePairs = [];
  const inItemTable = new Set();
  for (const table of document.querySelectorAll('table')) {
    if (!shown(table)) continue;
    const rows = Array.from(table.rows).filter(shown);
    if (!rows.length) continue;
    if (rows.every((row) => row.cells.length === 2 && row.cells[0].tagName === 'TH')) {
      for (const row of rows) pagePairs.push([textOf(row.cells[0]), textOf(row.cells[1])]);
      continue;
    }
    let headerRow = table.tHead && table.tHead.rows.length ? table.tHead.rows[0] : null;
    if (!headerRow && rows[0].cells.length > 1 && Array.from(rows[0].cells).every((cell) => cell.tagName === 'TH')) {
      headerRow = rows[0];
    }
    if (!headerRow) continue;
    const headers = Array.from(headerRow.cells).map(textOf);
    const body = [];
    for (const row of rows) {
      if (row === headerRow || (table.tHead && table.tHead.contains(row))) continue;
      if (body.length >= maxRows) {
        truncated = true;
        break;
      }
      // A row of one wide cell holding label/value pairs right under a record's row is that row's
      // detail (often opened in place): its pairs belong to the row above, never to a row of their own.
      const only = row.cells.length === 1 && headers.length > 1 && row.cells[0].colSpan > 1 ? row.cells[0] : null;
      const detailPairs = only && body.length ? pairsIn(only) : [];
      if (detailPairs.length) {
        const above = body[body.length - 1];
        above.extra = (above.extra || []).concat(detailPairs).slice(0, maxPairs);
        continue;
      }
      const cells = Array.from(row.cells).map((cell) => ({ text: textOf(cell), controlOnly: controlOnly(cell) }));
      body.push({ cells, text: textOf(row) });
    }
    inItemTable.add(table);
    tables.push({ headers, rows: body, heading: heading(table) });
  }

  // ARIA grids and tables drawn without <table>: column headers and rows of cells.
  for (const grid of document.querySelectorAll('[role=grid], [role=table], [role=treegrid]')) {
    if (grid.tagName === 'TABLE' || !shown(grid)) continue;
    const headers = Array.from(grid.querySelectorAll('[role=columnheader]')).filter(shown).map(textOf);
    if (headers.length < 2) continue;
    const body = [];
    for (const row of grid.querySelectorAll('[role=row]')) {
      const cellEls = Array.from(row.querySelectorAll('[role=cell], [role=gridcell], [role=rowheader]')).filter(shown);
      if (!cellEls.length || !shown(row)) continue;
      if (body.length >= maxRows) {
        truncated = true;
        break;
      }
      body.push({ cells: cellEls.map((cell) => ({ text: textOf(cell), controlOnly: controlOnly(cell) })), text: textOf(row) });
    }
    tables.push({ headers, rows: body, heading: heading(grid) });
  }

  const twin = (el) => {
    if (!el.className || typeof el.className !== 'string') return false;
    for (const sibling of [el.previousElementSibling, el.nextElementSibling]) {
      if (sibling && sibling.tagName === el.tagName && sibling.className === el.className) return true;
    }
    return false;
  };
  const candidates = Array.from(document.body.querySelectorAll('li, article, [role=listitem], [role=article], div, section'))
    .filter((el) => (el.matches('li, article, [role=listitem], [role=article]') || twin(el)) && shown(el))
    .filter((el) => !el.closest('table') && !el.closest('nav'));
  const cards = [];
  const withPairs = new Map();
  for (const el of candidates) {
    const pairs = pairsIn(el);
    if (pairs.length >= 2) withPairs.set(el, pairs);
  }
  for (const [el, pairs] of withPairs) {
    // The innermost repeated container holding the pairs is the card.
    if (Array.from(withPairs.keys()).some((other) => other !== el && el.contains(other))) continue;
    if (cards.length >= maxRows) {
      truncated = true;
      break;
    }
    cards.push({ pairs: pairs.slice(0, maxPairs), text: textOf(el), heading: heading(el) });
  }

  const root = document.querySelector('main') || document.body;
  const inCard = (el) => Array.from(withPairs.keys()).some((card) => card.contains(el));
  for (const term of root.querySelectorAll('dt')) {
    const value = term.nextElementSibling;
    if (value && value.tagName === 'DD' && shown(term) && !inCard(term)) pagePairs.push([textOf(term), textOf(value)]);
  }
  if (!pagePairs.length && !cards.length && !tables.length) {
    for (const line of lines(root)) {
      const match = LABEL.exec(line);
      if (match) pagePairs.push([clean(match[1]), clean(match[2])]);
    }
  }
  return JSON.stringify({ tables, cards, pairs: pagePairs.slice(0, maxPairs), truncated });
}
