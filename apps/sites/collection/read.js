// Records a page shows: tables with headings, repeated cards of label/value
// pairs, and the label/value pairs of a detail view. Read-only: it writes no
// attribute, global or node. Only visible text is read; field values,
// editable text and active code are never part of it.
(request) => {
  const maxRows = request.maxRows;
  const maxCell = request.maxCell;
  const maxPairs = request.maxPairs;
  const maxLines = request.maxLines;
  const maxPageLines = request.maxPageLines;
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
  const gap = (style, side) =>
    parseFloat(style['margin' + side]) > 0 || parseFloat(style['padding' + side]) > 0 ||
    parseFloat(style['border' + side + 'Width']) > 0;

  // Visible text as lines: block boxes (and table cells) start new lines.
  // With ``withoutControls``, the words of controls without a digit ("Details", "Scarica PDF") are left
  // out: they name actions, not values (an item's number written as a link stays).
  function lines(root, withoutControls = false) {
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
      if (withoutControls && node !== root && node.matches(CONTROL) && !/\d/.test(node.textContent)) return;
      if (node.tagName === 'BR') {
        flush();
        return;
      }
      const style = getComputedStyle(node);
      const display = style.display;
      const block = display !== 'contents' && !display.startsWith('inline');
      if (block) flush();
      // An inline box drawn apart from its neighbours (a badge's margin or padding: "Carte" beside the
      // title) is a word of its own even where the markup puts no space between them.
      const apart = !block && display !== 'contents' && (gap(style, 'Left') || gap(style, 'Right'));
      if (apart) current += ' ';
      for (const child of node.childNodes) walk(child);
      if (block) flush();
      if (apart) current += ' ';
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
  // Tables and grids of two rows or more: a box holding one is the list's place, never one of its items.
  const listTables = [];
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
    if (body.length >= 2) listTables.push(table);
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
    if (body.length >= 2) listTables.push(grid);
    tables.push({ headers, rows: body, heading: heading(grid) });
  }

  // Repeated beside a sibling of the same tag sharing one of its classes ("item" and "item open": one
  // opened in place is still one of the list).
  const classesOf = (el) => (typeof el.className === 'string' ? el.className.split(/\s+/).filter(Boolean) : []);
  const twin = (el) => {
    const own = classesOf(el);
    if (!own.length) return false;
    for (const sibling of [el.previousElementSibling, el.nextElementSibling]) {
      if (sibling && sibling.tagName === el.tagName && classesOf(sibling).some((name) => own.includes(name))) return true;
    }
    return false;
  };
  const candidates = Array.from(document.body.querySelectorAll('li, article, [role=listitem], [role=article], div, section'))
    .filter((el) => (el.matches('li, article, [role=listitem], [role=article]') || twin(el)) && shown(el))
    .filter((el) => !el.closest('table') && !el.closest('nav'))
    .filter((el) => !listTables.some((list) => el.contains(list)));
  const cards = [];
  const withPairs = new Map();
  for (const el of candidates) {
    const pairs = pairsIn(el);
    if (pairs.length >= 2) withPairs.set(el, pairs);
  }
  const cardEls = [];
  for (const [el, pairs] of withPairs) {
    // The innermost repeated container holding the pairs is the card.
    if (Array.from(withPairs.keys()).some((other) => other !== el && el.contains(other))) continue;
    if (cards.length >= maxRows) {
      truncated = true;
      break;
    }
    cardEls.push(el);
    cards.push({ pairs: pairs.slice(0, maxPairs), text: textOf(el), heading: heading(el), lines: lines(el, true).slice(0, maxLines) });
  }

  // Repeated items that are not cards of label/value pairs (values written one under the other, or a
  // sentence per document): their visible lines, and which item each sits in, for the reader to weigh.
  const items = [];
  const itemIndex = new Map();
  for (const el of candidates) {
    if (cardEls.some((card) => card.contains(el) || el.contains(card))) continue;
    if (el.closest('[role=grid], [role=table], [role=treegrid]')) continue; // read as a grid above
    const own = lines(el, true).slice(0, maxLines);
    if (!own.some((line) => /\d/.test(line))) continue;
    if (items.length >= maxRows) {
      truncated = true;
      break;
    }
    let parent = -1;
    for (let node = el.parentElement; node && parent < 0; node = node.parentElement) {
      if (itemIndex.has(node)) parent = itemIndex.get(node);
    }
    itemIndex.set(el, items.length);
    items.push({ lines: own, pairs: pairsIn(el).slice(0, maxPairs), heading: heading(el), parent });
  }

  const root = document.querySelector('main') || document.body;
  const inCard = (el) => Array.from(withPairs.keys()).some((card) => card.contains(el));
  for (const term of root.querySelectorAll('dt')) {
    const value = term.nextElementSibling;
    if (value && value.tagName === 'DD' && shown(term) && !inCard(term)) pagePairs.push([textOf(term), textOf(value)]);
  }
  let pageLines = [];
  if (!pagePairs.length && !cards.length && !tables.length) {
    pageLines = lines(root, true).slice(0, maxPageLines);
    for (const line of pageLines) {
      const match = LABEL.exec(line);
      if (match) pagePairs.push([clean(match[1]), clean(match[2])]);
    }
  }
  // A page with no repeated items, cards or pairs (a detail page): the lines under each of its headings up
  // to the next one, tables left out ("Documenti" over "Fattura / FE-2026-1 / Data / 25/10/2026 / Importo").
  const sections = [];
  if (!cards.length && !items.length && !pagePairs.length) {
    for (const title of root.querySelectorAll('h2, h3, h4')) {
      if (!shown(title) || sections.length >= maxRows) continue;
      const own = [];
      for (let el = title.nextElementSibling; el && !/^H[1-6]$/.test(el.tagName); el = el.nextElementSibling) {
        if (el.matches('table, [role=grid], [role=table]') || el.querySelector('table, h1, h2, h3, h4')) continue;
        own.push(...lines(el, true));
      }
      if (own.some((line) => /\d/.test(line))) sections.push({ heading: textOf(title), lines: own.slice(0, maxLines) });
    }
  }
  return JSON.stringify({
    tables, cards, items, sections, lines: pageLines, pairs: pagePairs.slice(0, maxPairs), truncated,
  });
}
