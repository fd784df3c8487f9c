// Which challenge a page shows (signin/captcha.py): for each kind, whether any of its
// selectors matches in the document or an open shadow root, and the Turnstile response
// inputs and how many hold a token. Reads the page and writes nothing.
(selectors) => {
  const roots = [document];
  for (let i = 0; i < roots.length && roots.length < 500; i++) {
    for (const element of roots[i].querySelectorAll("*")) {
      if (element.shadowRoot) roots.push(element.shadowRoot);
    }
  }
  const found = (list) => roots.some((root) => list.some((selector) => root.querySelector(selector) !== null));
  const answer = {};
  for (const [kind, list] of Object.entries(selectors)) answer[kind] = found(list);
  answer.interstitial = answer.interstitial || typeof window._cf_chl_opt === "object";
  const tokens = roots.flatMap((root) => [...root.querySelectorAll('input[name="cf-turnstile-response"]')]);
  answer.tokens = tokens.length;
  answer.filled = tokens.filter((input) => input.value.length > 0).length;
  answer.loading = document.readyState === "loading";
  return answer;
}
