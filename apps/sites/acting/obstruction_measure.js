// What covers a control (acting/obstruction_measure.py): nine probe points of its box
// hit-tested in its own document or shadow root, the topmost element covering it and the
// outermost positioned layer around that element, in numbers and tag, role and style
// words. Read-only; Python keeps only the numbers and the words of closed sets.
(el) => {
  const round = (n) => Math.round(n);
  const root = el.getRootNode && el.getRootNode().elementFromPoint ? el.getRootNode() : document;
  const box = el.getBoundingClientRect();
  const width = innerWidth, height = innerHeight;
  const describe = (node) => {
    if (!node) return null;
    const style = getComputedStyle(node);
    const b = node.getBoundingClientRect();
    const visible = Math.max(0, Math.min(b.right, width) - Math.max(b.left, 0))
      * Math.max(0, Math.min(b.bottom, height) - Math.max(b.top, 0));
    return {
      tag: node.tagName.toLowerCase(), role: (node.getAttribute('role') || '').toLowerCase(),
      position: style.position, zIndex: style.zIndex === 'auto' ? null : Number(style.zIndex),
      opacity: Number(style.opacity), pointerEvents: style.pointerEvents,
      box: [round(b.left), round(b.top), round(b.width), round(b.height)],
      windowShare: width && height ? visible / (width * height) : 0,
      containsControl: node.contains(el),
    };
  };
  let covered = 0, outside = 0, obstructer = null;
  for (const fx of [0.2, 0.5, 0.8]) {
    for (const fy of [0.2, 0.5, 0.8]) {
      const x = box.left + box.width * fx, y = box.top + box.height * fy;
      if (x < 0 || y < 0 || x >= width || y >= height) { outside += 1; continue; }
      const hit = root.elementFromPoint(x, y);
      if (!hit || hit === el || el.contains(hit)) continue;
      covered += 1;
      if (!obstructer) obstructer = hit;
    }
  }
  let layer = null;
  for (let node = obstructer; node; node = node.parentElement) {
    if (['fixed', 'sticky', 'absolute'].includes(getComputedStyle(node).position)) layer = node;
  }
  return {
    control: { box: [round(box.left), round(box.top), round(box.width), round(box.height)] },
    window: [width, height], scroll: [round(scrollX), round(scrollY)],
    probes: 9, covered, outside,
    obstructer: describe(obstructer), layer: describe(layer),
  };
}
