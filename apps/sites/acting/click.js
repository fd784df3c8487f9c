// Small reads for checking a control again before a click (acting/click.py). Read-only.

// --- found_facts ---
// The plain facts of a page-script answer (the keys asked for), in one round trip: each property
// read would be two. No built-in is called, since pages may replace them.
(answer, keys) => {
  const facts = {};
  for (let index = 0; index < keys.length; index += 1) facts[keys[index]] = answer[keys[index]];
  return facts;
}

// --- same_element ---
// Whether two element handles hold one element.
(element, other) => element === other
