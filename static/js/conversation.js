// A conversation page: send requests, follow turns live, answer confirmations.
(function () {
  "use strict";
  var root = document.getElementById("conversation");
  if (!root) { return; }
  var conversationId = Number(root.dataset.conversationId);
  var turnsBox = document.getElementById("turns");
  var form = document.getElementById("request-form");
  var errorBox = document.getElementById("request-error");
  var status = document.getElementById("live-status");
  var csrfToken = form.querySelector("input[name=csrfmiddlewaretoken]").value;
  var retryDelay = 1000;

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    if (text !== undefined) { node.textContent = text; }
    return node;
  }

  function turnBox(turnId, requestText) {
    var box = turnsBox.querySelector('[data-turn-id="' + turnId + '"]');
    if (box) {
      if (requestText && !box.querySelector(".request").textContent) {
        box.querySelector(".request").textContent = requestText;
      }
      return box;
    }
    box = element("article", "turn");
    box.dataset.turnId = String(turnId);
    box.appendChild(element("p", "request", requestText || ""));
    box.appendChild(element("p", "muted turn-status", "queued"));
    box.appendChild(element("ol", "steps"));
    box.appendChild(element("pre", "answer", ""));
    turnsBox.appendChild(box);
    return box;
  }

  function stepItem(box, index, tool) {
    var list = box.querySelector(".steps");
    var item = list.querySelector('[data-step="' + index + '"]');
    if (!item) {
      item = element("li");
      item.dataset.step = String(index);
      item.appendChild(element("span", "tool", tool));
      item.appendChild(document.createTextNode(" "));
      item.appendChild(element("span", "outcome", "running"));
      item.appendChild(document.createTextNode(" "));
      item.appendChild(element("span", "summary", ""));
      list.appendChild(item);
    }
    return item;
  }

  function fileLink(file) {
    var link = element("a", "file", file.path);
    link.href = "/api/v1/files/?path=" + encodeURIComponent(file.path);
    return link;
  }

  function decide(box, consentId, confirm) {
    fetch("/api/v1/consents/" + consentId + "/decision/", {
      method: "POST",
      headers: {"Content-Type": "application/json", "X-CSRFToken": csrfToken},
      body: JSON.stringify({confirm: confirm, conversation: conversationId})
    }).then(function (response) {
      return response.json().then(function (body) { return {ok: response.ok, body: body}; });
    }).then(function (answer) {
      var panel = box.querySelector(".consent");
      if (panel) { panel.remove(); }
      if (!answer.ok) {
        box.querySelector(".answer").textContent = answer.body.error ? answer.body.error.message : "Refused.";
      }
    });
  }

  function consentPanel(box, consentId, proposal) {
    var panel = box.querySelector(".consent") || element("div", "consent");
    panel.textContent = "";
    panel.dataset.consentId = String(consentId);
    var title = element("p", "", "Confirm before: ");
    title.appendChild(element("strong", "", proposal.action || ""));
    panel.appendChild(title);
    var details = element("dl");
    Object.keys(proposal).forEach(function (key) {
      details.appendChild(element("dt", "", key));
      details.appendChild(element("dd", "", proposal[key]));
    });
    panel.appendChild(details);
    ["Confirm", "Decline"].forEach(function (label) {
      var button = element("button", label.toLowerCase(), label);
      button.type = "button";
      button.dataset.confirm = label === "Confirm" ? "true" : "false";
      panel.appendChild(button);
    });
    box.insertBefore(panel, box.querySelector(".answer"));
  }

  function questionForm(box, inputId, prompt, sensitive, kind, choices) {
    var panel = box.querySelector(".question") || element("form", "question");
    panel.textContent = "";
    panel.dataset.inputId = String(inputId);
    panel.setAttribute("autocomplete", "off");
    if (kind === "choice" && choices && choices.length) {
      // One radio button per option, its value the option's number ("1" for the first).
      var legend = element("p", "", prompt);
      panel.appendChild(legend);
      choices.forEach(function (choice, index) {
        var option = element("label", "choice");
        var radio = element("input");
        radio.type = "radio";
        radio.name = "value";
        radio.value = String(index + 1);
        radio.required = true;
        option.appendChild(radio);
        option.appendChild(document.createTextNode(" " + choice));
        panel.appendChild(option);
      });
      var choose = element("button", "", "Send");
      choose.type = "submit";
      panel.appendChild(choose);
      var declineChoice = element("button", "decline-question", "Decline");
      declineChoice.type = "button";
      panel.appendChild(declineChoice);
      box.insertBefore(panel, box.querySelector(".answer"));
      return;
    }
    var field = element("input");
    field.id = "question-" + inputId;
    field.name = "value";
    field.type = sensitive ? "password" : "text";
    field.maxLength = 200;
    field.required = true;
    if (kind === "otp") { field.autocomplete = "one-time-code"; }
    var label = element("label", "", prompt);
    label.htmlFor = field.id;
    panel.appendChild(label);
    panel.appendChild(field);
    var send = element("button", "", "Send");
    send.type = "submit";
    panel.appendChild(send);
    var decline = element("button", "decline-question", "Decline");
    decline.type = "button";
    panel.appendChild(decline);
    box.insertBefore(panel, box.querySelector(".answer"));
    field.focus();
  }

  function handoffLink(box, url) {
    // Only a path of this portal is linked: the panel lives under /web/handoff/.
    if (typeof url !== "string" || url.indexOf("/web/handoff/") !== 0) { return; }
    var link = box.querySelector(".handoff-link") || element("a", "handoff-link");
    link.href = url;
    link.textContent = "A website asks you to prove you are human: open the verification panel";
    box.insertBefore(link, box.querySelector(".answer"));
  }

  function reply(panel, action, body) {
    body.conversation = conversationId;
    fetch("/api/v1/input-requests/" + panel.dataset.inputId + "/" + action + "/", {
      method: "POST",
      headers: {"Content-Type": "application/json", "X-CSRFToken": csrfToken},
      body: JSON.stringify(body)
    }).then(function (response) {
      return response.json().then(function (answer) { return {ok: response.ok, body: answer}; });
    }).then(function (answer) {
      var box = panel.closest(".turn");
      panel.remove();
      if (answer.ok && action === "answer") { box.querySelector(".turn-status").textContent = "running"; }
      if (!answer.ok) {
        box.querySelector(".answer").textContent = answer.body.error ? answer.body.error.message : "Refused.";
      }
    });
  }

  turnsBox.addEventListener("submit", function (event) {
    var panel = event.target.closest("form.question");
    if (!panel) { return; }
    event.preventDefault();
    var checked = panel.querySelector("input[name=value]:checked");
    var field = checked || panel.querySelector("input[name=value]");
    var value = field.value;
    if (!checked) { field.value = ""; }
    reply(panel, "answer", {value: value});
  });

  turnsBox.addEventListener("click", function (event) {
    var declineButton = event.target.closest("button.decline-question");
    if (declineButton) {
      reply(declineButton.closest("form.question"), "decline", {});
      return;
    }
    var button = event.target.closest("button[data-confirm]");
    if (!button) { return; }
    var panel = button.closest(".consent");
    decide(button.closest(".turn"), panel.dataset.consentId, button.dataset.confirm === "true");
  });

  function onEvent(event) {
    if (!event.type || event.type.indexOf("turn.") !== 0 || event.conversation_id !== conversationId) { return; }
    var box = turnBox(event.turn_id, event.request);
    var statusLine = box.querySelector(".turn-status");
    if (event.type === "turn.started") {
      box.dataset.status = "running";
      statusLine.textContent = "running";
    } else if (event.type === "turn.step_started") {
      stepItem(box, event.step, event.tool);
    } else if (event.type === "turn.step_retried") {
      var retried = stepItem(box, event.step, event.tool);
      retried.dataset.outcome = "retrying";
      retried.querySelector(".outcome").textContent = "retrying";
      retried.querySelector(".summary").textContent = "failed (" + (event.error_code || "error") + "); trying once more";
    } else if (event.type === "turn.step_finished") {
      var item = stepItem(box, event.step, event.tool);
      item.dataset.outcome = event.outcome;
      item.querySelector(".outcome").textContent = event.outcome;
      item.querySelector(".summary").textContent = event.summary || "";
      if (event.cloud_requests > 0 && !item.querySelector(".cloud")) {
        var cloud = element("span", "cloud", "$");
        cloud.title = event.cloud_requests + " request(s) to a cloud model";
        item.insertBefore(cloud, item.querySelector(".outcome"));
        item.insertBefore(document.createTextNode(" "), item.querySelector(".outcome"));
      }
      (event.files || []).forEach(function (file) { item.appendChild(fileLink(file)); });
    } else if (event.type === "turn.confirmation_requested") {
      box.dataset.status = "awaiting_confirmation";
      statusLine.textContent = "waiting for your confirmation";
      consentPanel(box, event.consent_id, event.proposal || {});
    } else if (event.type === "turn.input_requested") {
      box.dataset.status = "awaiting_input";
      statusLine.textContent = "waiting for your answer";
      questionForm(box, event.input_id, event.prompt || "", event.sensitive !== false, event.kind, event.choices || []);
    } else if (event.type === "turn.handoff_opened") {
      box.dataset.status = "awaiting_input";
      statusLine.textContent = "waiting for you in the verification panel";
      handoffLink(box, event.url);
    } else if (event.type === "turn.handoff_closed") {
      var opened = box.querySelector(".handoff-link");
      if (opened) { opened.remove(); }
    } else if (event.type === "turn.finished") {
      var question = box.querySelector(".question");
      if (question) { question.remove(); }
      var consent = box.querySelector(".consent");
      if (consent) { consent.remove(); }  // decided, or expired by the schedule
      box.dataset.status = event.status;
      statusLine.textContent = event.status;
      box.querySelector(".answer").textContent = event.answer || "";
    }
  }

  function connect() {
    var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    var socket = new WebSocket(scheme + window.location.host + "/ws/events/");
    socket.addEventListener("open", function () {
      retryDelay = 1000;
      status.dataset.state = "open";
      status.textContent = "Live updates: connected";
    });
    socket.addEventListener("message", function (message) {
      try { onEvent(JSON.parse(message.data)); } catch (error) { /* not an event of ours */ }
    });
    socket.addEventListener("close", function () {
      status.dataset.state = "closed";
      status.textContent = "Live updates: reconnecting…";
      window.setTimeout(connect, retryDelay);
      retryDelay = Math.min(retryDelay * 2, 30000);
    });
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var textarea = document.getElementById("request-text");
    var text = textarea.value.trim();
    if (!text) { return; }
    errorBox.hidden = true;
    fetch("/api/v1/turns/", {
      method: "POST",
      headers: {"Content-Type": "application/json", "X-CSRFToken": csrfToken},
      body: JSON.stringify({text: text, conversation: conversationId})
    }).then(function (response) {
      return response.json().then(function (body) { return {ok: response.ok, body: body}; });
    }).then(function (answer) {
      if (!answer.ok) {
        errorBox.hidden = false;
        errorBox.textContent = answer.body.error ? answer.body.error.message : "The request was refused.";
        return;
      }
      turnBox(answer.body.id, answer.body.request_text);
      textarea.value = "";
    });
  });

  connect();
}());
