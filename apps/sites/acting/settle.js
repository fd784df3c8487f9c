// The change counter of a click (acting/settle.py) and the calls made on it.
//
// The counter is a few lines of its own: each call sends it, not the whole page script.
// It counts DOM changes through a MutationObserver held by a handle, with no global, and
// changes nothing on the page. The calls after it take the counter's handle as `counter`.

// --- counter ---
// `recountAfterFrames` starts its counts again once the page drew two frames, without making
// the caller wait: after a scroll, the page's handlers draw with the next frame (lazy content),
// and the click's own checks (Playwright waits for the element to hold still over two frames)
// come later. `last` keeps every change, for readiness checks. `guard` is set for a press
// aimed at one element.
() => {
  const state = { count: 0, content: 0, last: performance.now() };
  const observer = new MutationObserver((records) => {
    state.last = performance.now();
    state.count += records.length;
    state.content += records.filter((record) => record.type !== 'attributes').length;
  });
  observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  state.stop = () => observer.disconnect();
  state.recountAfterFrames = () => requestAnimationFrame(() => requestAnimationFrame(() => {
    state.count = 0;
    state.content = 0;
  }));
  // The guard of a press aimed at one element (observe.js, aim): the first press event that
  // reaches the window decides — through to the element (or a label of it), or blocked, with
  // every event of that press, before any handler of the page sees it.
  state.guard = (el) => {
    const kinds = ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click', 'auxclick', 'dblclick', 'contextmenu'];
    const ours = (event) => {
      const path = event.composedPath();
      return path.includes(el) || Boolean(el.labels && Array.from(el.labels).some((label) => path.includes(label)));
    };
    state.press = 'none';
    const listener = (event) => {
      if (!event.isTrusted) return;
      if (state.press === 'none') state.press = ours(event) ? 'through' : 'blocked';
      if (state.press === 'blocked') {
        event.preventDefault();
        event.stopImmediatePropagation();
      }
    };
    for (const kind of kinds) window.addEventListener(kind, listener, { capture: true });
    state.unguard = () => { for (const kind of kinds) window.removeEventListener(kind, listener, { capture: true }); };
  };
  return state;
}

// --- press ---
// What the guard decided, the guard removed.
({ counter }) => { if (counter.unguard) counter.unguard(); return { ok: true, blocked: counter.press === 'blocked' }; }

// --- recount ---
// The counts start again once the page drew two frames.
({ counter }) => { counter.recountAfterFrames(); return { ok: true }; }

// --- count ---
// The counts so far.
({ counter }) => ({ ok: true, count: counter.count, content: counter.content })

// --- stop_if_changed ---
// Stops the counter only once it counted a change: a look that ends the wait needs no second call.
({ counter }) => { if (counter.count) counter.stop(); return { ok: true, count: counter.count, content: counter.content }; }

// --- stop ---
// The counter stopped, with its last counts.
({ counter }) => { counter.stop(); return { ok: true, count: counter.count, content: counter.content }; }
