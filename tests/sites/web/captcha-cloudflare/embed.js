// Stands in for Turnstile's api.js: draws the widget's frame (served from the challenge path on
// this origin) into `parent`, and hands the widget's token to `onToken`. Query parameters of the
// page go on to the widget.
function embedTurnstile(parent, onToken) {
  const frame = document.createElement('iframe');
  frame.title = 'Widget containing a Cloudflare security challenge';
  frame.src = '/cdn-cgi/challenge-platform/h/b/turnstile/if/ov2/av0/rcv/widget.html' + location.search;
  frame.style.cssText = 'width:300px;height:65px;border:0';
  parent.appendChild(frame);
  window.addEventListener('message', (event) => {
    if (event.origin === location.origin && event.data && event.data.type === 'turnstile-token') onToken(event.data.token);
  });
}
