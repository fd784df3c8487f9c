// The verification panel: show the open session's page, forward clicks and scrolls, resume or cancel.
// Keystrokes are never forwarded. The status is read from the server after every action and on a
// timer, so a reload or a lost response shows where things are without sending anything again.
(function () {
  "use strict";
  var root = document.getElementById("handoff");
  if (!root) { return; }
  var image = document.getElementById("handoff-image");
  var state = document.getElementById("handoff-state");
  var buttons = {
    refresh: document.getElementById("handoff-refresh"),
    resume: document.getElementById("handoff-resume"),
    cancel: document.getElementById("handoff-cancel")
  };
  var csrfToken = root.querySelector("input[name=csrfmiddlewaretoken]").value;
  var shownVersion = -1;
  var pendingScroll = 0;
  var scrollTimer = null;
  var SENTENCES = {
    open: "The page is yours: click or scroll on it, then press Resume.",
    resume_requested: "Resume received: Metnos is about to look at the page again…",
    verifying: "Metnos is looking at the page again and, if the check is gone, finishing the sign-in…",
    resumed: "The check is gone and the sign-in was verified. Your request continues.",
    cancelled: "You cancelled this panel; the web session was closed.",
    expired: "This panel expired; the web session was closed.",
    failed: "The sign-in did not finish after the check; the web session was closed."
  };
  var CHECKS = {
    still_open: "The page still asks for the check, so Metnos did not go on. Finish it, then press Resume again.",
    unobservable: "Metnos could not read the page, so the check is not cleared. Try Resume again in a moment."
  };

  function post(url, body) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-CSRFToken": csrfToken},
      body: JSON.stringify(body || {})
    }).then(function (response) {
      return response.json().then(function (answer) { return {ok: response.ok, body: answer}; });
    });
  }

  function show(status) {
    root.dataset.status = status.status;
    var text = SENTENCES[status.status] || status.status;
    if (status.status === "open" && CHECKS[status.last_check]) { text = CHECKS[status.last_check]; }
    if (status.status === "resumed" && status.resumed_turn) {
      text += " It continues as turn " + status.resumed_turn + ".";
    }
    state.textContent = text;
    var open = status.status === "open";
    buttons.refresh.disabled = !open;
    buttons.resume.disabled = !open;
    buttons.cancel.disabled = !(open || status.status === "resume_requested");
    if (open && status.image_version !== shownVersion) {
      shownVersion = status.image_version;
      image.src = root.dataset.imageUrl + "?v=" + status.image_version;
    }
    image.hidden = !open && status.status !== "resume_requested" && status.status !== "verifying";
  }

  function refused(answer) {
    if (!answer.ok && answer.body && answer.body.error) { state.textContent = answer.body.error.message; }
    else if (answer.body && answer.body.status) { show(answer.body); }
  }

  function poll() {
    fetch(root.dataset.statusUrl, {credentials: "same-origin"}).then(function (response) {
      return response.ok ? response.json() : null;
    }).then(function (status) {
      if (status) { show(status); }
    }).catch(function () { /* the next poll tries again */ });
  }

  function command(body) { post(root.dataset.commandUrl, body).then(refused).catch(poll); }

  image.addEventListener("click", function (event) {
    var box = image.getBoundingClientRect();
    if (!box.width || !box.height) { return; }
    var x = Math.round((event.clientX - box.left) * image.naturalWidth / box.width);
    var y = Math.round((event.clientY - box.top) * image.naturalHeight / box.height);
    command({kind: "click", x: x, y: y});
  });

  image.addEventListener("wheel", function (event) {
    event.preventDefault();
    pendingScroll += event.deltaY;
    if (scrollTimer) { return; }
    scrollTimer = window.setTimeout(function () {
      var dy = Math.max(-2000, Math.min(2000, Math.round(pendingScroll)));
      pendingScroll = 0;
      scrollTimer = null;
      if (dy) { command({kind: "scroll", dy: dy}); }
    }, 150);
  }, {passive: false});

  buttons.refresh.addEventListener("click", function () { command({kind: "refresh"}); });
  buttons.resume.addEventListener("click", function () {
    buttons.resume.disabled = true;
    post(root.dataset.resumeUrl).then(refused).catch(poll);
  });
  buttons.cancel.addEventListener("click", function () {
    buttons.cancel.disabled = true;
    post(root.dataset.cancelUrl).then(refused).catch(poll);
  });

  poll();
  window.setInterval(poll, 1000);
}());
