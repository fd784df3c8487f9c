// Ends once the document's load event has fired and two frames were drawn since (100 ms
// for a page that draws none: a tab in the background). It only listens: nothing on the
// page changes.
() => new Promise((resolve) => {
  let done = false;
  const finish = () => { if (!done) { done = true; resolve(true); } };
  const drawn = () => { requestAnimationFrame(() => requestAnimationFrame(finish)); setTimeout(finish, 100); };
  if (document.readyState === 'complete') drawn();
  else window.addEventListener('load', drawn, { once: true });
})
